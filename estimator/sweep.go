package estimator

import (
	"math"
	"math/bits"
	"strings"
)

// axes are the inputs a sweep can move (section 5).
var axes = []string{"rows", "vocab_size", "chunk_rows", "num_experts_per_tok", "input_width",
	"output_width", "hidden_size", "sequence_rows", "capacity_bytes", "in_use_bytes"}

// Axes lists the inputs a sweep can move, by their short names.
func Axes() []string { return append([]string(nil), axes...) }

// DefaultPoints is the grid size of a sweep when none is given.
const DefaultPoints = 512

// MaxPoints bounds a sweep's grid.
const MaxPoints = 1 << 16

// Flip is a change of decision along an axis: Last is the last x with the
// old decision, First = Last + 1 the first with the new one. Message is the
// validation message when either side is Invalid.
type Flip struct {
	FromDecision Decision `json:"from_decision"`
	ToDecision   Decision `json:"to_decision"`
	Last         int64    `json:"last"`
	First        int64    `json:"first"`
	Message      string   `json:"message,omitempty"`
}

// Flips are one revision's flips, in increasing x.
type Flips struct {
	Flips []Flip `json:"flips"`
}

// SweepResult is the sweep of section 6.
type SweepResult struct {
	Axis      string `json:"axis"`
	From      int64  `json:"from"`
	To        int64  `json:"to"`
	Baseline  Flips  `json:"baseline"`
	Candidate Flips  `json:"candidate"`
}

// Sweeper evaluates one config along one axis. Build it once per config
// and axis; its methods price points without allocating.
type Sweeper struct {
	base  Resolved
	axis  string
	field *Field
	cur   Resolved // the config at the point being priced
	eval  evaluator
	// sameSizes: moving the axis changes no piece's size (the budget, the
	// sequence length, or rows when every row is projected and targeted),
	// so the evaluator keeps its pieces from point to point.
	sameSizes bool
	primed    bool
	paths     sweepPaths // along the budget: points priced, reused by available bytes
}

// NewSweeper validates c and the axis name.
func NewSweeper(c Config, axis string) (*Sweeper, error) {
	f, ok := fieldByKey[axis]
	if !ok || !isAxis(axis) {
		return nil, &Error{Field: "axis", Message: "must be one of " + strings.Join(axes, ", ") + ", got " + clip(axis)}
	}
	r, err := c.Resolve()
	if err != nil {
		return nil, err
	}
	s := &Sweeper{axis: axis, field: f}
	s.rebase(&r)
	return s, nil
}

// rebase makes r the config the sweep starts from. A map moves its y
// sweeper to each column's x this way, with rebase(&xs.cur) after xs.at(x).
func (s *Sweeper) rebase(r *Resolved) {
	s.base, s.primed = *r, false
	s.paths = sweepPaths{on: s.axis == "capacity_bytes" || s.axis == "in_use_bytes"}
	switch s.axis {
	case "capacity_bytes", "in_use_bytes", "sequence_rows":
		s.sameSizes = true
	case "rows":
		s.sameSizes = r.P == r.N && r.T == r.N
	}
}

func isAxis(name string) bool {
	for _, a := range axes {
		if a == name {
			return true
		}
	}
	return false
}

// AxisField points at the field of r that the axis sets (rows: N; it
// does not carry projected and target rows), or nil for a name that is
// not an axis. The one place that maps an axis to the model's fields.
func (r *Resolved) AxisField(axis string) *int64 {
	switch axis {
	case "rows":
		return &r.N
	case "vocab_size":
		return &r.V
	case "chunk_rows":
		return &r.C
	case "num_experts_per_tok":
		return &r.K
	case "input_width":
		return &r.I
	case "output_width":
		return &r.O
	case "hidden_size":
		return &r.H
	case "sequence_rows":
		return &r.S
	case "capacity_bytes":
		return &r.Capacity
	case "in_use_bytes":
		return &r.InUse
	}
	return nil
}

// Axis is the swept field's short name.
func (s *Sweeper) Axis() string { return s.axis }

// Field is the swept field.
func (s *Sweeper) Field() *Field { return s.field }

// Base is the resolved config the sweep starts from.
func (s *Sweeper) Base() Resolved { return s.base }

// at sets s.cur to the config with the axis at x. Every other field keeps
// its resolved value, except that sweeping rows carries projected_rows and
// target_rows in proportion: P' = ceil(x P / N), T' = ceil(x T / N). It
// writes in place: a Resolved is copied once per point, not twice.
func (s *Sweeper) at(x int64) *Error {
	r := &s.cur
	*r = s.base
	f := s.field
	if x < f.Min || x > f.Max {
		return &Error{Field: f.Path, Message: f.Allowed() + ", got " + Group(x)}
	}
	if s.axis == "rows" {
		r.P = ceilDiv(x*s.base.P, s.base.N) // x, P < 2^31
		r.T = ceilDiv(x*s.base.T, s.base.N)
	}
	*r.AxisField(s.axis) = x
	if err := r.crossCheck(); err != nil {
		return FieldErrors(err)[0]
	}
	return nil
}

// decision is revision rev's decision at x (0 baseline, 1 candidate), or
// Invalid with the message. It prices everything Estimate prices, so a
// point is invalid in a sweep exactly when Estimate fails there.
func (s *Sweeper) decision(x int64, rev int) (Decision, string) {
	pt := s.Point(x)
	if pt.Error != "" {
		return Invalid, pt.Error
	}
	return pt.Rev[rev].Decision, ""
}

// Point is everything the chart and the CSV show at one x.
type Point struct {
	X     int64
	Error string // non-empty: the config is invalid at X
	// AvailableBytes and LowerBoundBytes are the same for both revisions.
	AvailableBytes  int64
	LowerBoundBytes int64
	Rev             [2]PointRevision // baseline, candidate
}

// PointRevision is one revision's numbers at a point.
type PointRevision struct {
	Decision      Decision
	Children      int64 // 1 admitted, k split, 0 refused
	ChildRows     int64
	RequiredBytes int64 // of the chosen plan (of the last rung when refused)
	// The whole request's bytes, before any split: its ephemeral stages,
	// its retained bytes and its required bytes.
	WholeStages   [NumStages]int64
	WholeRetained int64
	WholeRequired int64
}

// Point prices both revisions at x, as Estimate would (less the tensor
// breakdown).
func (s *Sweeper) Point(x int64) Point {
	if bad := s.at(x); bad != nil {
		return Point{X: x, Error: bad.Error()}
	}
	if s.paths.on {
		return s.paths.point(s, x)
	}
	return s.price(x)
}

// price is Point at x once s.cur is the config there.
func (s *Sweeper) price(x int64) Point {
	pt := Point{X: x}
	r := &s.cur // kept in s, so that the evaluator's pointer does not escape per point
	e := &s.eval
	if s.sameSizes && s.primed {
		e.r, e.c = r, calc{} // the pieces it sized still hold
	} else {
		e.reset(r)
		s.primed = true
	}
	pt.AvailableBytes = r.available()
	e.availLo, e.availHi = 0, math.MaxInt64
	for rev := 0; rev < 2; rev++ {
		v := baselineVariant()
		if rev == 1 {
			v = r.candidateVariant()
		}
		whole := e.rungPlan(1, v)
		pr := &pt.Rev[rev]
		pr.WholeStages = e.pc.stage
		pr.WholeRetained = e.pc.retained
		pr.WholeRequired = whole.required
		pl := e.decideFrom(v, whole)
		pr.Decision, pr.ChildRows, pr.RequiredBytes = pl.decision, pl.largest, pl.required
		if pl.decision != Refuse {
			pr.Children = pl.k
		}
	}
	pt.LowerBoundBytes = e.lowerBound()
	if e.c.err != nil {
		return Point{X: x, Error: e.c.err.Error()}
	}
	return pt
}

// AppendPoints appends Point(x) for each x of xs to dst.
func (s *Sweeper) AppendPoints(dst []Point, xs []int64) []Point {
	for _, x := range xs {
		dst = append(dst, s.Point(x))
	}
	return dst
}

// Grid returns up to points x values spread evenly over [from, to], both
// ends included; every integer when the range holds no more than points.
func Grid(from, to int64, points int) []int64 {
	return AppendGrid(nil, from, to, points)
}

// AppendGrid appends Grid(from, to, points) to dst.
func AppendGrid(dst []int64, from, to int64, points int) []int64 {
	if to < from {
		return dst
	}
	span := uint64(to - from)
	if points < 2 || span == 0 {
		return append(dst, from)
	}
	if span < uint64(points) {
		for x := from; ; x++ {
			dst = append(dst, x)
			if x == to {
				return dst
			}
		}
	}
	steps := uint64(points - 1)
	for i := uint64(0); i <= steps; i++ {
		hi, lo := bits.Mul64(span, i)
		q, _ := bits.Div64(hi, lo, steps) // span x i / steps <= span
		dst = append(dst, from+int64(q))
	}
	return dst
}

// CheckRange validates a sweep's range and grid size.
func CheckRange(from, to int64, points int) error {
	var errs ErrorList
	const limit = 1 << 62
	if from < 0 || from > limit {
		errs = append(errs, &Error{Field: "from", Message: "must be in 0.." + Group(limit) + ", got " + Group(from)})
	}
	if to < 0 || to > limit {
		errs = append(errs, &Error{Field: "to", Message: "must be in 0.." + Group(limit) + ", got " + Group(to)})
	}
	if len(errs) == 0 && from > to {
		errs = append(errs, &Error{Field: "to", Message: "must be at least from (" + Group(from) + "), got " + Group(to)})
	}
	if points < 2 || points > MaxPoints {
		errs = append(errs, &Error{Field: "points", Message: "must be in 2.." + Group(MaxPoints) + ", got " + Group(int64(points))})
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// Sweep finds the flips of both revisions along axis over [from, to]: it
// evaluates a grid of points and bisects every interval whose ends differ
// down to adjacent integers. Two flips closer together than the grid's step
// that cancel out are not seen; every range of no more than points
// integers is evaluated whole, so its flips are exact.
func Sweep(c Config, axis string, from, to int64, points int) (SweepResult, error) {
	if err := CheckRange(from, to, points); err != nil {
		return SweepResult{}, err
	}
	s, err := NewSweeper(c, axis)
	if err != nil {
		return SweepResult{}, err
	}
	res := SweepResult{Axis: axis, From: from, To: to}
	pts := s.AppendPoints(nil, Grid(from, to, points))
	res.Baseline.Flips = s.FlipsFromPoints(nil, pts, 0)
	res.Candidate.Flips = s.FlipsFromPoints(nil, pts, 1)
	return res, nil
}

// Flips appends to dst the flips of revision rev (0 baseline, 1 candidate)
// over the grid xs (increasing).
func (s *Sweeper) Flips(dst []Flip, xs []int64, rev int) []Flip {
	return s.FlipsFromPoints(dst, s.AppendPoints(nil, xs), rev)
}

// FlipsFromPoints is Flips over points already priced (increasing X), so
// a chart that has its points pays only for the bisection.
func (s *Sweeper) FlipsFromPoints(dst []Flip, pts []Point, rev int) []Flip {
	if dst == nil {
		dst = []Flip{} // an empty list, not null, in JSON
	}
	decide := func(p *Point) (Decision, string) {
		if p.Error != "" {
			return Invalid, p.Error
		}
		return p.Rev[rev].Decision, ""
	}
	for i := 1; i < len(pts); i++ {
		da, ma := decide(&pts[i-1])
		db, mb := decide(&pts[i])
		if da != db {
			dst = s.bisect(dst, rev, pts[i-1].X, pts[i].X, da, db, ma, mb)
		}
	}
	return dst
}

// bisect finds every flip between a and b (a < b) whose decisions differ,
// appending them in increasing order.
func (s *Sweeper) bisect(dst []Flip, rev int, a, b int64, da, db Decision, ma, mb string) []Flip {
	if b-a == 1 {
		msg := ma
		if msg == "" {
			msg = mb
		}
		return append(dst, Flip{FromDecision: da, ToDecision: db, Last: a, First: b, Message: msg})
	}
	mid := a + (b-a)/2
	dm, mm := s.decision(mid, rev)
	if dm != da {
		dst = s.bisect(dst, rev, a, mid, da, dm, ma, mm)
	}
	if dm != db {
		dst = s.bisect(dst, rev, mid, b, dm, db, mm, mb)
	}
	return dst
}
