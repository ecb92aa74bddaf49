package urlquery

import (
	"testing"

	"headroom/estimator"
)

// benchCfg has a part of every kind a link carries: fields, a baseline
// of its own, a term and an observed point.
func benchCfg() estimator.Config {
	c := estimator.Default()
	c.Request.Rows = 100000
	c.Budget.InUseBytes = 63 << 30
	c.Baseline = &estimator.Baseline{Changes: estimator.Changes{FC2KnownStorage: true}, Overrides: estimator.Overrides{"budget.capacity_bytes": {Int: estimator.H100CapacityBytes}, "fc2.output_width": {Default: true}}}
	c.Terms = []estimator.Term{{Name: "logits_fp32_copy", Place: "head", Revision: "candidate", Bytes: "2 * D"}}
	c.Observed = []estimator.ObservedPoint{{Rows: 64902, PeakBytes: 94780217856, Label: "cold"}}
	return c
}

// BenchmarkURLRoundTrip is one Encode and Decode, as the page's address
// pays it: 123 allocations, as before the codec left the estimator.
func BenchmarkURLRoundTrip(b *testing.B) {
	c := benchCfg()
	b.ReportAllocs()
	for b.Loop() {
		q := Encode(c)
		if _, errs := Decode(q); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}
