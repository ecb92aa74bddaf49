package estimator

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// docs/model.md §5: flip points along an axis.

// pinned returns c with every default resolved into an explicit value
// (projected and target rows, FC2 widths, retained bytes per row): the
// config a sweep holds fixed while it moves one field.
func pinned(t *testing.T, c Config) Config {
	t.Helper()
	r, err := c.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	c.Request.ProjectedRows, c.Request.TargetRows = Int64(r.P), Int64(r.T)
	c.FC2.InputWidth, c.FC2.OutputWidth = Int64(r.I), Int64(r.O)
	c.Budget.RetainedPerRowBytes = Int64(r.RetainedPerRow)
	return c
}

// moved is the config of a sweep of c along axis at x: only that field
// changes, except that rows carries P and T in proportion (P' = ceil(x P /
// N), T' = ceil(x T / N)).
func moved(t *testing.T, c Config, axis string, x int64) Config {
	t.Helper()
	c = pinned(t, c)
	if axis == "rows" {
		n := c.Request.Rows
		c.Request.ProjectedRows = Int64((x**c.Request.ProjectedRows + n - 1) / n)
		c.Request.TargetRows = Int64((x**c.Request.TargetRows + n - 1) / n)
	}
	f, ok := FieldByKey(axis)
	if !ok {
		t.Fatalf("no field %q", axis)
	}
	f.SetInt(&c, x)
	return c
}

// pointDecision is revision rev's decision in a Point, Invalid when the
// point is invalid.
func pointDecision(p Point, rev int) Decision {
	if p.Error != "" {
		return Invalid
	}
	return p.Rev[rev].Decision
}

// TestPointIsEstimate: at every x, Point prices the same config Estimate
// prices when that one field is set to x (with P and T carried along by
// rows), on every axis.
func TestPointIsEstimate(t *testing.T) {
	t.Parallel()
	rng := newRand()
	n := 150
	if testing.Short() {
		n = 30
	}
	for i := 0; i < n; i++ {
		c := randomConfig(rng)
		for _, axis := range Axes() {
			s, err := NewSweeper(c, axis)
			if err != nil {
				t.Fatal(err)
			}
			f, _ := FieldByKey(axis)
			base, _ := f.Int(&c)
			if axis == "input_width" || axis == "output_width" {
				r := s.baseResolved()
				base = map[string]int64{"input_width": r.I, "output_width": r.O}[axis]
			}
			for _, x := range []int64{base, max(f.Min, base/2), base + 1, between(rng, f.Min, min(f.Max, 2*base+10))} {
				checkPoint(t, s, c, axis, x)
			}
		}
	}
}

func checkPoint(t *testing.T, s *Sweeper, c Config, axis string, x int64) {
	t.Helper()
	p := s.Point(x)
	mc := moved(t, c, axis, x)
	res, err := Estimate(mc)
	if err != nil {
		if p.Error == "" {
			t.Errorf("%s = %d: Point is valid, Estimate says %v", axis, x, err)
		}
		return
	}
	if p.Error != "" {
		t.Errorf("%s = %d: Point says %q, Estimate prices it", axis, x, p.Error)
		return
	}
	if p.X != x || p.AvailableBytes != int64(res.AvailableBytes) || p.LowerBoundBytes != int64(res.Baseline.LowerBoundBytes) {
		t.Errorf("%s = %d: point x %d available %d lower %d; Estimate %d %d", axis, x, p.X, p.AvailableBytes, p.LowerBoundBytes,
			res.AvailableBytes, res.Baseline.LowerBoundBytes)
	}
	for rev, o := range []Outcome{res.Baseline, res.Candidate} {
		pr := p.Rev[rev]
		if pr.Decision != o.Decision || pr.Children != o.Children || pr.ChildRows != o.ChildRows || pr.RequiredBytes != int64(o.RequiredBytes) {
			t.Errorf("%s = %d, revision %d: point %v/%d/%d/%d, Estimate %v/%d/%d/%d", axis, x, rev,
				pr.Decision, pr.Children, pr.ChildRows, pr.RequiredBytes, o.Decision, o.Children, o.ChildRows, o.RequiredBytes)
		}
		// The whole request's numbers, before any split.
		m := refFrom(mc)
		rp := newRefPricer(&m)
		v := refBaseline
		if rev == 1 {
			v = m.candidate()
		}
		whole := rp.rung(1, v)
		if pr.WholeRequired != whole.required || pr.WholeRetained != whole.ret || fmt.Sprint(pr.WholeStages) != fmt.Sprint(whole.piece.stage) {
			t.Errorf("%s = %d, revision %d: whole request %d/%d/%v, reference %d/%d/%v", axis, x, rev,
				pr.WholeRequired, pr.WholeRetained, pr.WholeStages, whole.required, whole.ret, whole.piece.stage)
		}
	}
}

// TestSweepRowsCarriesProjectedAndTarget: P' = ceil(x P / N), T' = ceil(x
// T / N); retained_per_row_bytes keeps its resolved value.
func TestSweepRowsCarriesProjectedAndTarget(t *testing.T) {
	t.Parallel()
	c := Default()
	c.Request.ProjectedRows, c.Request.TargetRows = Int64(50000), Int64(333)
	s, err := NewSweeper(c, "rows")
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []int64{1, 2, 100, 64901, 64902, 64903, 200000, 1<<31 - 1} {
		checkPoint(t, s, c, "rows", x)
		want := moved(t, c, "rows", x)
		if *want.Request.ProjectedRows != (x*50000+64901)/64902 || *want.Request.TargetRows != (x*333+64901)/64902 {
			t.Fatalf("moved: %d, %d", *want.Request.ProjectedRows, *want.Request.TargetRows)
		}
	}
}

// checkFlips verifies one revision's flips over [from, to] against the
// sweeper's own points: each flip is a pair of adjacent integers whose
// decisions differ as reported, flips are in increasing order, and when
// the grid covers every integer they are exactly the changes of decision.
func checkFlips(t *testing.T, name string, s *Sweeper, flips []Flip, rev int, from, to int64, exact bool) {
	t.Helper()
	last := from - 1
	for _, f := range flips {
		if f.First != f.Last+1 || f.Last < from || f.First > to || f.Last < last {
			t.Errorf("%s: flip %+v out of order or range [%d, %d]", name, f, from, to)
		}
		last = f.First
		dl, df := pointDecision(s.Point(f.Last), rev), pointDecision(s.Point(f.First), rev)
		if f.FromDecision == f.ToDecision || dl != f.FromDecision || df != f.ToDecision {
			t.Errorf("%s: flip %v -> %v at %d/%d, but Point says %v at %d and %v at %d",
				name, f.FromDecision, f.ToDecision, f.Last, f.First, dl, f.Last, df, f.First)
		}
		if (f.FromDecision == Invalid || f.ToDecision == Invalid) && f.Message == "" {
			t.Errorf("%s: flip %+v into or out of invalid carries no message", name, f)
		}
	}
	if !exact {
		return
	}
	var want []Flip
	prev := pointDecision(s.Point(from), rev)
	for x := from + 1; x <= to; x++ {
		d := pointDecision(s.Point(x), rev)
		if d != prev {
			want = append(want, Flip{FromDecision: prev, ToDecision: d, Last: x - 1, First: x})
		}
		prev = d
	}
	strip := func(fs []Flip) string {
		var parts []string
		for _, f := range fs {
			parts = append(parts, fmt.Sprintf("%v->%v@%d", f.FromDecision, f.ToDecision, f.First))
		}
		return strings.Join(parts, " ")
	}
	if strip(flips) != strip(want) {
		t.Errorf("%s: flips %s\nevery integer %s", name, strip(flips), strip(want))
	}
}

// randomAxisRange picks an axis and a range around the config's value.
func randomAxisRange(rng *rand.Rand, c Config) (axis string, from, to int64) {
	axes := Axes()
	axis = axes[rng.IntN(len(axes))]
	f, _ := FieldByKey(axis)
	v, ok := f.Int(&c)
	if !ok {
		v = 1000
	}
	switch rng.IntN(3) {
	case 0: // a narrow range, evaluated whole
		from = max(0, v-between(rng, 0, 40))
		to = from + between(rng, 0, 60)
	case 1:
		from = max(0, v/between(rng, 2, 8))
		to = min(v*between(rng, 2, 8)+between(rng, 0, 100), f.Max+5)
	default:
		from = between(rng, 0, 10)
		to = min(v*between(rng, 1, 20)+between(rng, 1, 1000), f.Max+5)
	}
	return axis, from, max(from, to)
}

// TestSweepFlipsProperty: for random configs, axes and ranges, every flip
// of both revisions is confirmed by re-evaluating its two points.
func TestSweepFlipsProperty(t *testing.T) {
	t.Parallel()
	rng := newRand()
	n := 400
	if testing.Short() {
		n = 50
	}
	total := 0
	for i := 0; i < n; i++ {
		c := randomConfig(rng)
		axis, from, to := randomAxisRange(rng, c)
		points := int(oneOf(rng, 2, 3, 17, 64, 128))
		res, err := Sweep(c, axis, from, to, points)
		if err != nil {
			t.Fatalf("Sweep(%s, %d, %d, %d): %v", axis, from, to, points, err)
		}
		if res.Axis != axis || res.From != from || res.To != to {
			t.Errorf("sweep header %s %d %d", res.Axis, res.From, res.To)
		}
		s, _ := NewSweeper(c, axis)
		exact := to-from+1 <= int64(points)
		name := fmt.Sprintf("config %d along %s over [%d, %d] (%d points)", i, axis, from, to, points)
		checkFlips(t, name+" baseline", s, res.Baseline.Flips, 0, from, to, exact)
		checkFlips(t, name+" candidate", s, res.Candidate.Flips, 1, from, to, exact)
		total += len(res.Baseline.Flips) + len(res.Candidate.Flips)
		if t.Failed() {
			t.Logf("config %s", MarshalConfig(c))
			return
		}
	}
	if total < n/2 {
		t.Errorf("only %d flips in %d sweeps; the generator no longer makes decisions change", total, n)
	}
}

// TestSweepDefaultRows: the default config along rows over 1..1,000,000:
// small requests are admitted, each flip checks out, and the grid agrees
// with Point at every grid x.
func TestSweepDefaultRows(t *testing.T) {
	t.Parallel()
	c := Default()
	res, err := Sweep(c, "rows", 1, 1_000_000, DefaultPoints)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := NewSweeper(c, "rows")
	checkFlips(t, "baseline", s, res.Baseline.Flips, 0, 1, 1_000_000, false)
	checkFlips(t, "candidate", s, res.Candidate.Flips, 1, 1, 1_000_000, false)
	for rev, fl := range [][]Flip{res.Baseline.Flips, res.Candidate.Flips} {
		if again := s.FlipsFromPoints(nil, s.AppendPoints(nil, Grid(1, 1_000_000, DefaultPoints)), Revision(rev)); fmt.Sprint(again) != fmt.Sprint(fl) {
			t.Errorf("revision %d: a second pass of the same Sweeper %+v, Sweep %+v", rev, again, fl)
		}
		if len(fl) == 0 || fl[0].FromDecision != Admit {
			t.Errorf("revision %d: flips %+v, want the first from admit", rev, fl)
		}
	}
	// The candidate's changes add storage here, so it stops admitting no
	// later than the baseline: the band between is where the change bites.
	if b, c := res.Baseline.Flips[0].First, res.Candidate.Flips[0].First; c > b {
		t.Errorf("candidate first flips at %d, after the baseline (%d)", c, b)
	}
	for _, x := range Grid(1, 1_000_000, DefaultPoints) {
		p := s.Point(x)
		for rev, fl := range [][]Flip{res.Baseline.Flips, res.Candidate.Flips} {
			// The decision at x is the To of the last flip before it.
			want := Admit
			for _, f := range fl {
				if f.First <= x {
					want = f.ToDecision
				}
			}
			if got := pointDecision(p, rev); got != want {
				t.Errorf("rows = %d, revision %d: Point %v, flips imply %v", x, rev, got, want)
			}
		}
	}
	t.Logf("baseline %+v", res.Baseline.Flips)
	t.Logf("candidate %+v", res.Candidate.Flips)
}

// TestSweepInvalidPoints: a point where the config is invalid is reported
// as invalid with the message, not as a decision.
func TestSweepInvalidPoints(t *testing.T) {
	t.Parallel()
	c := Default()
	c.Budget.InUseBytes = 100 << 30
	res, err := Sweep(c, "capacity_bytes", 50<<30, 150<<30, 64)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := NewSweeper(c, "capacity_bytes")
	for rev, fl := range [][]Flip{res.Baseline.Flips, res.Candidate.Flips} {
		checkFlips(t, "capacity", s, fl, rev, 50<<30, 150<<30, false)
		if len(fl) == 0 || fl[0].FromDecision != Invalid || fl[0].Last != 100<<30-1 || fl[0].First != 100<<30 {
			t.Fatalf("revision %d: flips %+v, want the first out of invalid at 100 GiB", rev, fl)
		}
		if !strings.Contains(fl[0].Message, "budget.in_use_bytes") {
			t.Errorf("message %q does not name budget.in_use_bytes", fl[0].Message)
		}
	}
	if p := s.Point(100<<30 - 1); p.Error == "" || !strings.Contains(p.Error, "in_use_bytes") {
		t.Errorf("Point below in_use: error %q", p.Error)
	}
	// Rows from 0: x = 0 is out of range.
	res, err = Sweep(c, "rows", 0, 10, 11)
	if err != nil {
		t.Fatal(err)
	}
	if fl := res.Baseline.Flips; len(fl) == 0 || fl[0].FromDecision != Invalid || fl[0].First != 1 || !strings.Contains(fl[0].Message, "request.rows") {
		t.Errorf("rows from 0: %+v", fl)
	}
	// in_use_bytes swept past capacity.
	c = Default()
	res, err = Sweep(c, "in_use_bytes", H200CapacityBytes-5, H200CapacityBytes+5, 11)
	if err != nil {
		t.Fatal(err)
	}
	if fl := res.Candidate.Flips; len(fl) == 0 || fl[len(fl)-1].ToDecision != Invalid || fl[len(fl)-1].First != H200CapacityBytes+1 {
		t.Errorf("in_use past capacity: %+v", fl)
	}
}

// TestSweepOverflowIsInvalid: an overflow is a validation error (docs/model.md
// §1), so a point whose pricing overflows is invalid in a sweep, in Point
// and in Flips alike.
//
// Here only the lower bound overflows (m = 2^31-1 one-row children, each
// with six retained tensors rounded up to 2^30 bytes: about 6 x 2^61
// bytes), while the whole request fits and is admitted. Estimate and Point
// report the overflow, as the package's documented choice says ("any
// overflow while pricing any plan of a request makes the whole request an
// error"). Up to 2e1b3c3 Flips never priced the lower bound and reported
// "admit" at the same x; this test found it, and d3df258 fixed it.
func TestSweepOverflowIsInvalid(t *testing.T) {
	t.Parallel()
	c := smallConfig()
	c.Model.NumExpertsPerTok, c.Model.LinearNumKeyHeads = 0, 0
	c.Model.HiddenSize, c.Model.VocabSize = 1, 1
	c.Request = RequestConfig{Rows: 1000, SequenceRows: 1, Grad: true,
		Outputs: Outputs{Logprobs: true, TopK: 1, Logits: true, HiddenStates: true}}
	c.AllocatorRoundBytes = 1 << 30
	c.Budget = BudgetConfig{CapacityBytes: 1 << 50, SafetyPercent: 100}
	const big = 1<<31 - 1
	if _, err := Estimate(moved(t, c, "rows", big)); err == nil {
		t.Fatal("no overflow at 2^31-1 rows; the test needs a new config")
	} else {
		t.Logf("Estimate at %d rows: %v", big, err)
	}
	s, err := NewSweeper(c, "rows")
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Point(big); p.Error == "" {
		t.Fatalf("Point at %d rows is valid: %+v", big, p.Rev)
	}
	if p := s.Point(1000); p.Error != "" || p.Rev[0].Decision != Admit {
		t.Fatalf("Point at 1,000 rows: %q %v", p.Error, p.Rev[0].Decision)
	}
	for rev := 0; rev < 2; rev++ {
		flips := s.FlipsFromPoints(nil, s.AppendPoints(nil, []int64{1000, big}), Revision(rev))
		if len(flips) == 0 || flips[len(flips)-1].ToDecision != Invalid {
			t.Errorf("revision %d: Flips over [1,000, %d] = %+v, but Point(%d) is invalid (the lower bound overflows): an overflowing point must be invalid in Flips too",
				rev, big, flips, big)
		}
	}
}

// TestSweepErrors: a bad axis or range is an error naming it.
func TestSweepErrors(t *testing.T) {
	t.Parallel()
	c := Default()
	for _, tc := range []struct {
		axis     string
		from, to int64
		points   int
		field    string
	}{
		{"projected_rows", 1, 10, 10, "axis"},
		{"rowz", 1, 10, 10, "axis"},
		{"", 1, 10, 10, "axis"},
		{"rows", 10, 1, 10, "to"},
		{"rows", -1, 10, 10, "from"},
		{"rows", 1, 10, 1, "points"},
		{"rows", 1, 10, 0, "points"},
		{"rows", 1, 10, 1 << 20, "points"},
	} {
		_, err := Sweep(c, tc.axis, tc.from, tc.to, tc.points)
		if named, _ := namesField(err, tc.field, specRange{}); !named {
			t.Errorf("Sweep(%q, %d, %d, %d): %v, want an error naming %s", tc.axis, tc.from, tc.to, tc.points, err, tc.field)
		}
	}
	bad := Default()
	bad.Request.Rows = 0
	if _, err := Sweep(bad, "vocab_size", 1, 10, 10); err == nil {
		t.Error("Sweep of an invalid config succeeded")
	}
	want := []string{"rows", "vocab_size", "chunk_rows", "num_experts_per_tok", "input_width",
		"output_width", "hidden_size", "sequence_rows", "capacity_bytes", "in_use_bytes",
		"num_hidden_layers", "moe_intermediate_size", "expert_parallel"}
	if got := Axes(); !slices.Equal(got, want) {
		t.Errorf("Axes() = %v, want docs/model.md §5's %v", got, want)
	}
}

// TestGrid: up to points values over [from, to], both ends included,
// strictly increasing; every integer when the range is small.
func TestGrid(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		from, to int64
		points   int
		n        int
	}{
		{1, 10, 512, 10}, {1, 1_000_000, 512, 512}, {5, 5, 512, 1}, {0, 511, 512, 512}, {0, 512, 512, 512},
		{0, 1 << 62, 512, 512}, {0, 1 << 62, 2, 2}, {7, 8, 2, 2}, {7, 9, 2, 2},
	} {
		g := Grid(tc.from, tc.to, tc.points)
		if len(g) != tc.n || g[0] != tc.from || g[len(g)-1] != tc.to {
			t.Errorf("Grid(%d, %d, %d): %d points from %d to %d, want %d", tc.from, tc.to, tc.points, len(g), g[0], g[len(g)-1], tc.n)
		}
		for i := 1; i < len(g); i++ {
			if g[i] <= g[i-1] {
				t.Errorf("Grid(%d, %d, %d) not increasing at %d: %d, %d", tc.from, tc.to, tc.points, i, g[i-1], g[i])
			}
		}
	}
	if g := Grid(10, 1, 5); len(g) != 0 {
		t.Errorf("Grid(10, 1) = %v", g)
	}
}

// TestSweepJSON: the sweep result of docs/model.md §6, with an empty list (not
// null) when a revision never flips.
func TestSweepJSON(t *testing.T) {
	t.Parallel()
	res, err := Sweep(Default(), "rows", 1, 100, 16)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(res)
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if m["axis"] != "rows" || m["from"] != 1.0 || m["to"] != 100.0 {
		t.Errorf("sweep JSON %s", data)
	}
	for _, rev := range []string{"baseline", "candidate"} {
		r, _ := m[rev].(map[string]any)
		if fl, ok := r["flips"].([]any); !ok || len(fl) != 0 {
			t.Errorf("%s: flips %v in %s, want []", rev, r["flips"], data)
		}
	}
	res, _ = Sweep(Default(), "rows", 1, 1_000_000, 64)
	data, _ = json.Marshal(res.Baseline.Flips[0])
	var f map[string]any
	json.Unmarshal(data, &f)
	for _, key := range []string{"from_decision", "to_decision", "last", "first"} {
		if _, ok := f[key]; !ok {
			t.Errorf("flip JSON %s has no %q", data, key)
		}
	}
	if f["from_decision"] != "admit" {
		t.Errorf("flip JSON %s: from_decision is not a name", data)
	}
}
