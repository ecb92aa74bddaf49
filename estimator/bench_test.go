package estimator

import "testing"

// BenchmarkSweep512 is what the explorer does for one chart: the default
// config along rows over 1..1,000,000 on a 512-point grid, a Point at each
// x for the chart, then the flips of both revisions, bisected from those
// points.
//
//	go test -run '^$' -bench Sweep512 ./estimator/
//	GOOS=js GOARCH=wasm go test -run '^$' -bench Sweep512 -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./estimator/
func BenchmarkSweep512(b *testing.B) { benchmarkSweep(b, Default()) }

// BenchmarkSweep512Art is BenchmarkSweep512 under the art profile
// (docs/model.md §13): the issue asks for at most 1.5 times seeds' cost,
// natively and in WebAssembly.
//
//	go test -run '^$' -bench 'Sweep512(Art)?$' ./estimator/
func BenchmarkSweep512Art(b *testing.B) {
	c := Default()
	c.Profile = ProfileArt
	benchmarkSweep(b, c)
}

// BenchmarkSweep512Terms is BenchmarkSweep512 with four terms, one of
// each kind of place (docs/model.md §8); it should cost at most 1.5 times as
// much, and allocate nothing more per point.
//
//	go test -run '^$' -bench Sweep ./estimator/
func BenchmarkSweep512Terms(b *testing.B) {
	c := Default()
	c.Terms = benchTerms()
	benchmarkSweep(b, c)
}

// benchTerms are the four terms of BenchmarkSweep512Terms.
func benchTerms() []Term {
	return []Term{
		{Name: "logits_fp32_copy", Place: "head", Bytes: "2 * D"},
		{Name: "router_probs", Place: "retained", Revision: "both", Bytes: "r * 4"},
		{Name: "dispatch", Place: "stage", Bytes: "ceil(r * H * b, 2) + min(n, C) * 64"},
		{Name: "old_workspace", Place: "fc2", Revision: "baseline", Bytes: "max(r * O, n * 1_000)"},
	}
}

func benchmarkSweep(b *testing.B, c Config) {
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
	if len(flips[0]) == 0 || len(flips[1]) == 0 || pts[0].Error != "" {
		b.Fatalf("no flips: %v %v", flips, pts[0].Error)
	}
}

// BenchmarkEstimate prices the default request for both revisions, with
// the per-tensor breakdown.
func BenchmarkEstimate(b *testing.B) {
	c := Default()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Estimate(c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMap128 is one map as the page and the map command compute it:
// 128 columns of rows over 1..600,000, each a sweep of in_use_bytes over
// 0..120,000,000,000 (the pressure example of the README), both
// revisions. Along the budget a column prices once per path through the
// ladder (pathCache, sweeppath.go); BenchmarkMap128Rows is a map whose columns price
// every point.
//
//	go test -run '^$' -bench Map ./estimator/
//	GOOS=js GOARCH=wasm go test -run '^$' -bench Map -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./estimator/
func BenchmarkMap128(b *testing.B) {
	c := Default()
	c.Request.Rows = 200_000
	c.Budget.InUseBytes = 68_451_041_280
	benchmarkMap(b, c, MapAxis{Axis: "rows", From: 1, To: 600_000}, MapAxis{Axis: "in_use_bytes", From: 0, To: 120_000_000_000})
}

// BenchmarkMap128Rows is the other map: vocab_size over
// 1..300,000 in 128 columns, each a sweep of rows over 1..1,000,000.
func BenchmarkMap128Rows(b *testing.B) {
	benchmarkMap(b, Default(), MapAxis{Axis: "vocab_size", From: 1, To: 300_000}, MapAxis{Axis: "rows", From: 1, To: 1_000_000})
}

// BenchmarkMap128InUse is the README's map turned over: in_use_bytes
// across, rows up; from one column to the next only the budget moves.
func BenchmarkMap128InUse(b *testing.B) {
	c := Default()
	c.Request.Rows = 200_000
	c.Budget.InUseBytes = 68_451_041_280
	benchmarkMap(b, c, MapAxis{Axis: "in_use_bytes", From: 0, To: 120_000_000_000}, MapAxis{Axis: "rows", From: 1, To: 600_000})
}

func benchmarkMap(b *testing.B, c Config, x, y MapAxis) {
	cols := make([]MapColumn, DefaultColumns)
	var flips []Flip
	b.ReportAllocs()
	for b.Loop() {
		m, err := NewMapper(c, x, y, DefaultColumns)
		if err != nil {
			b.Fatal(err)
		}
		flips = flips[:0]
		for i := range cols {
			cols[i], flips = m.Column(i, flips)
		}
	}
	if len(flips) == 0 {
		b.Fatal("no flips")
	}
}
