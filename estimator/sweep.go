package estimator

import (
	"math/bits"
	"strings"
)

// axes are the inputs a sweep can move (docs/model.md §5).
var axes = []string{"rows", "vocab_size", "chunk_rows", "num_experts_per_tok", "input_width",
	"output_width", "hidden_size", "sequence_rows", "capacity_bytes", "in_use_bytes",
	"num_hidden_layers", "moe_intermediate_size", "expert_parallel"}

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

// SweepResult is the sweep of docs/model.md §6.
type SweepResult struct {
	Axis      string `json:"axis"`
	From      int64  `json:"from"`
	To        int64  `json:"to"`
	Baseline  Flips  `json:"baseline"`
	Candidate Flips  `json:"candidate"`
}

// Sweeper evaluates one config along one axis. Build it once per config
// and axis; its methods price points without allocating.
//
// Each revision moves along the axis in its own resolved config (docs/model.md
// §11): the swept field is set in both (an override of it does not hold
// along the axis), and sweeping rows carries each revision's projected and
// target rows from its own N, P and T. Without a baseline of its own the
// two revisions are one config and are priced together, as before.
type Sweeper struct {
	base  Revisions
	axis  string
	field *Field
	// cand prices the candidate, and both revisions when they share one
	// config (!base.Own); own the baseline of its own (nil without one, so
	// that the common sweep allocates no second evaluator).
	cand sweepRev
	own  *sweepRev
	// budget: the axis is capacity_bytes or in_use_bytes, along which only
	// the available bytes change, so points are reused by the path the
	// ladder takes (sweeppath.go): paths without a baseline of its own,
	// each sweepRev's paths with one.
	budget bool
	paths  pathCache[Point]
}

// sweepRev returns the state that prices revision rev.
func (s *Sweeper) sweepRev(rev Revision) *sweepRev {
	if rev == 0 && s.own != nil {
		return s.own
	}
	return &s.cand
}

// sweepRev is one revision's config at the point being priced, and the
// evaluator that prices it.
type sweepRev struct {
	cur  Resolved // the config at the point being priced
	eval evaluator
	// sameSizes: moving the axis changes no piece's size (the budget, the
	// sequence length, or rows when every row is projected and targeted;
	// the last two only when no term of the revision's config uses s, or
	// N, P and T), so the evaluator keeps its pieces from point to point.
	sameSizes bool
	primed    bool
	paths     pathCache[PointRevision] // a baseline of its own, along the budget
}

// NewSweeper validates c and the axis name.
func NewSweeper(c Config, axis string) (*Sweeper, error) {
	if _, err := axisField(axis); err != nil {
		return nil, err
	}
	rv, err := c.ResolveRevisions()
	if err != nil {
		return nil, err
	}
	return rv.Sweeper(axis)
}

// Sweeper returns a Sweeper of the revisions (from ResolveRevisions, maybe
// moved with Set) along axis. It does not check the limits that relate
// two fields (each point does), so a map can Set its x and then sweep y:
// a column whose x makes a revision invalid is swept all the same, each
// point reported as it is.
func (rv Revisions) Sweeper(axis string) (*Sweeper, error) {
	f, err := axisField(axis)
	if err != nil {
		return nil, err
	}
	if rv.Rev[1].N < 1 || rv.Rev[0].N < 1 || rv.Rev[1].S < 1 || rv.Rev[0].S < 1 {
		return nil, &Error{Field: "config", Message: "is not resolved: build the revisions with Config.ResolveRevisions"}
	}
	s := &Sweeper{axis: axis, field: f, budget: axis == "capacity_bytes" || axis == "in_use_bytes"}
	s.rebase(&rv)
	return s, nil
}

// rebase makes rv the revisions the sweep starts from, both of them, and
// forgets the paths it remembered. A map moves its y sweeper to each
// column's x this way, after Revisions.Set of x.
func (s *Sweeper) rebase(rv *Revisions) {
	s.base = *rv
	s.paths.reset()
	if rv.Own && s.own == nil {
		s.own = &sweepRev{}
	}
	for rev := BaselineRev; rev <= CandidateRev; rev++ {
		r, sr := &rv.Rev[rev], s.sweepRev(rev)
		sr.primed = false
		sr.paths.reset()
		switch s.axis {
		case "capacity_bytes", "in_use_bytes":
			sr.sameSizes = true
		case "sequence_rows":
			sr.sameSizes = !r.terms.usesAny(varS)
		case "rows":
			sr.sameSizes = r.EveryRowTargeted() && !r.terms.usesAny(varReqN, varReqP, varReqT)
		default:
			sr.sameSizes = false
		}
	}
}

func axisField(axis string) (*Field, error) {
	f, ok := fieldByKey[axis]
	if !ok || !isAxis(axis) {
		return nil, &Error{Field: "axis", Message: "must be one of " + strings.Join(axes, ", ") + ", got " + clip(axis)}
	}
	return f, nil
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
	case "num_hidden_layers":
		return &r.L
	case "moe_intermediate_size":
		return &r.MoEWidth
	case "expert_parallel":
		return &r.EP
	}
	return nil
}

// Axis is the swept field's short name.
func (s *Sweeper) Axis() string { return s.axis }

// Field is the swept field: the registry's own, so that charts built from
// two sweeps of one axis compare equal (reflect.DeepEqual); do not change
// it.
func (s *Sweeper) Field() *Field { return s.field }

// baseResolved is the candidate's resolved config the sweep starts from.
func (s *Sweeper) baseResolved() Resolved { return s.base.Rev[1] }

// Revisions are the resolved configs of both revisions the sweep starts
// from.
func (s *Sweeper) Revisions() Revisions { return s.base }

// at sets revision rev's config at x. Every other field keeps its resolved
// value, except that sweeping rows carries projected_rows and target_rows
// in proportion: P' = ceil(x P / N), T' = ceil(x T / N), from the
// revision's own N, P and T (Revisions.Set). It writes in place: a
// Resolved is copied once per point, not twice. Every error of a baseline
// of its own, x outside the field's range included, names the baseline
// ("baseline.overrides.<path>"), as ResolveRevisions names the errors of
// its config.
func (s *Sweeper) at(x int64, rev Revision) *Error {
	r := &s.sweepRev(rev).cur
	*r = s.base.Rev[rev]
	f := s.field
	var e *Error
	if x < f.Min || x > f.Max {
		e = &Error{Field: f.Path, Message: f.Allowed() + ", got " + Group(x)}
	} else {
		if s.axis == "rows" {
			r.P = ceilDiv(x*r.P, r.N) // x, P < 2^31
			r.T = ceilDiv(x*r.T, r.N)
		}
		*r.AxisField(s.axis) = x
		r.inUseSet = r.inUseSet || s.axis == "in_use_bytes"
		if err := r.crossCheck(); err != nil {
			e = FieldErrors(err)[0]
		}
	}
	if e != nil && s.base.Own && rev == 0 {
		e = &Error{Field: baselinePrefix + e.Field, Message: e.Message}
	}
	return e
}

// decision is revision rev's decision at x (0 baseline, 1 candidate), or
// Invalid with the message. It prices everything Estimate prices, so a
// point is invalid in a sweep exactly when Estimate fails there (for that
// revision, when the baseline is a config of its own).
func (s *Sweeper) decision(x int64, rev Revision) (Decision, string) {
	if s.base.Own {
		var pr PointRevision
		s.pointRev(x, rev, &pr)
		return pr.Decision, pr.Error
	}
	pt := s.Point(x)
	return pt.Rev[rev].Decision, pt.Rev[rev].Error
}

// Grid returns up to points x values spread evenly over [from, to], both
// ends included; every integer when the range holds no more than points.
func Grid(from, to int64, points int) []int64 {
	return appendGrid(nil, from, to, points)
}

// appendGrid appends Grid(from, to, points) to dst.
func appendGrid(dst []int64, from, to int64, points int) []int64 {
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
	res.Baseline.Flips = s.FlipsFromPoints(nil, pts, BaselineRev)
	res.Candidate.Flips = s.FlipsFromPoints(nil, pts, CandidateRev)
	return res, nil
}

// FlipsFromPoints appends to dst the flips of revision rev over points
// already priced (increasing X): Sweep's bisection, so a chart that has
// its points pays only for it.
func (s *Sweeper) FlipsFromPoints(dst []Flip, pts []Point, rev Revision) []Flip {
	if dst == nil {
		dst = []Flip{} // an empty list, not null, in JSON
	}
	decide := func(p *Point) (Decision, string) {
		return p.Rev[rev].Decision, p.Rev[rev].Error
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
func (s *Sweeper) bisect(dst []Flip, rev Revision, a, b int64, da, db Decision, ma, mb string) []Flip {
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
