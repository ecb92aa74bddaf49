package estimator

import "testing"

// BenchmarkSweep512Baseline is BenchmarkSweep512 with a baseline of its
// own (the same model and changes on an H100 80GB): each revision is
// priced in its own config, so about twice the work of the common sweep.
//
//	go test -run '^$' -bench Sweep512 ./estimator/
func BenchmarkSweep512Baseline(b *testing.B) {
	c := Default()
	c.Baseline = &Baseline{Changes: c.Changes, Overrides: Overrides{"budget.capacity_bytes": {Int: H100CapacityBytes}}}
	xs := Grid(1, 1_000_000, DefaultPoints)
	pts := make([]Point, 0, len(xs))
	var flips [2][]Flip
	b.ReportAllocs()
	for b.Loop() {
		s, err := NewSweeper(c, "rows")
		if err != nil {
			b.Fatal(err)
		}
		pts = s.AppendPoints(pts[:0], xs)
		flips[0] = s.FlipsFromPoints(flips[0][:0], pts, 0)
		flips[1] = s.FlipsFromPoints(flips[1][:0], pts, 1)
	}
	if len(flips[0]) == 0 || len(flips[1]) == 0 || flips[0][0].Last == flips[1][0].Last {
		b.Fatalf("flips: %v", flips)
	}
}

// BenchmarkSweep512TermsBaseline is BenchmarkSweep512Baseline with the
// four terms of BenchmarkSweep512Terms: each revision evaluates its own
// terms in its own config.
func BenchmarkSweep512TermsBaseline(b *testing.B) {
	c := Default()
	c.Terms = benchTerms()
	c.Baseline = &Baseline{Changes: c.Changes, Overrides: Overrides{"budget.capacity_bytes": {Int: H100CapacityBytes}}}
	benchmarkSweep(b, c)
}

// BenchmarkMap128InUseBaseline is BenchmarkMap128InUse with a baseline of
// its own on an H100 80GB: across the budget each revision remembers each
// grid point by its own available bytes.
func BenchmarkMap128InUseBaseline(b *testing.B) {
	c := Default()
	c.Request.Rows = 200_000
	c.Budget.InUseBytes = 68_451_041_280
	c.Baseline = &Baseline{Changes: c.Changes, Overrides: Overrides{"budget.capacity_bytes": {Int: H100CapacityBytes}}}
	benchmarkMap(b, c, MapAxis{Axis: "in_use_bytes", From: 0, To: 80_000_000_000}, MapAxis{Axis: "rows", From: 1, To: 600_000})
}
