package estimator

import "testing"

// BenchmarkFitRange is the page's automatic range for its default setup
// (resident memory at expert parallelism 8) along rows: one sweep of the
// default range and, past it, LastFlip's look for the last refusal.
func BenchmarkFitRange(b *testing.B) {
	c, err := DecodeConfig([]byte(`{"resident": {}, "fc2": {"expert_parallel": 8}}`))
	if err != nil {
		b.Fatal(err)
	}
	var to int64
	for b.Loop() {
		_, to = FitRange("rows", c, LastFlip)
	}
	b.ReportMetric(float64(to), "to")
}
