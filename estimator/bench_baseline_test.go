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
