package chartview

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"headroom/app/chart"
	"headroom/app/report"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// testView is the overlay's view of the default chart along rows.
func testView(t *testing.T) (*Drawing, chart.Input) {
	t.Helper()
	cfg := estimator.Default()
	from, to := page.DefaultRange("rows", cfg)
	in, err := chart.Build(cfg, "rows", from, to, page.ChartPoints)
	if err != nil {
		t.Fatal(err)
	}
	_, f, err := chart.SVGFrame(in, vg.Length(720), vg.Length(360))
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewDrawing(cfg, in, f)
	if err != nil {
		t.Fatal(err)
	}
	return v, in
}

func TestPointerSnap(t *testing.T) {
	t.Parallel()
	v, in := testView(t)
	f := v.frame
	flip := in.Candidate[0]
	for _, tc := range []struct {
		name string
		px   float64
		want int64
	}{
		{"left edge", f.Plot.Left, in.From},
		{"right edge", f.Plot.Right, in.To},
		{"left of the plot", f.Plot.Left - 20, in.From},
		{"right of the plot", f.Plot.Right + 20, in.To},
		{"a grid point", f.XToPixel(float64(in.Points[100].X)), in.Points[100].X},
		{"a flip's first x", f.XToPixel(float64(flip.First)), flip.First},
		{"a flip's last x", f.XToPixel(float64(flip.Last)), flip.Last},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := v.snap(tc.px); got != tc.want {
				t.Errorf("snap(%g) = %d, want %d", tc.px, got, tc.want)
			}
		})
	}
}

func TestPointerStep(t *testing.T) {
	t.Parallel()
	v, in := testView(t)
	xs := func(i int) int64 { return in.Points[i].X }
	mid := xs(200)
	first := []int64{in.Candidate[0].First, in.Baseline[0].First} // candidate flips first along rows here
	if first[0] >= first[1] {
		t.Fatalf("fixture: flips %v are not in the order this test expects", first)
	}
	for _, tc := range []struct {
		name  string
		cur   int64
		key   string
		shift bool
		want  int64
	}{
		{"right from a grid point", mid, keyRight, false, xs(201)},
		{"right between grid points", mid + 1, keyRight, false, xs(201)},
		{"shift right", mid, keyRight, true, xs(210)},
		{"left from a grid point", mid, keyLeft, false, xs(199)},
		{"left between grid points", mid + 1, keyLeft, false, mid},
		{"shift left", mid, keyLeft, true, xs(190)},
		{"left at the start stays", in.From, keyLeft, false, in.From},
		{"right at the end stays", in.To, keyRight, true, in.To},
		{"page down to the first flip", mid, keyPageDown, false, first[0]},
		{"page down to the next flip", first[0], keyPageDown, false, first[1]},
		{"page down past the last flip stays", first[1], keyPageDown, false, first[1]},
		{"page up to the previous flip", first[1], keyPageUp, false, first[0]},
		{"page up before the first flip stays", mid, keyPageUp, false, mid},
		{"home", mid, keyHome, false, in.From},
		{"end", mid, keyEnd, false, in.To},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := v.step(tc.cur, tc.key, tc.shift)
			if !ok || got != tc.want {
				t.Errorf("step(%d, %s, shift %v) = %d, %v; want %d", tc.cur, tc.key, tc.shift, got, ok, tc.want)
			}
		})
	}
	if _, ok := v.step(mid, "a", false); ok {
		t.Error("the chart took a key it does not answer")
	}
}

func TestPointerRange(t *testing.T) {
	t.Parallel()
	v, in := testView(t)
	f := v.frame
	from, to, ok := v.rangeOf(f.XToPixel(300000), f.XToPixel(100000))
	if !ok || from != 100000 || to != 300000 {
		t.Errorf("a drag from 300,000 to 100,000 selects %d..%d (%v)", from, to, ok)
	}
	if from, to, ok := v.rangeOf(f.Plot.Left-50, f.Plot.Right+50); !ok || from != in.From || to != in.To {
		t.Errorf("a drag past both edges selects %d..%d, want the range %d..%d", from, to, in.From, in.To)
	}
	if _, _, ok := v.rangeOf(f.XToPixel(5), f.XToPixel(5.2)); ok {
		t.Error("a drag within one value selects a range")
	}
}

// TestPointerReadout: the read-out is the estimate at x, and says so in
// exact bytes.
func TestPointerReadout(t *testing.T) {
	t.Parallel()
	v, in := testView(t)
	for _, x := range []int64{in.From, in.Candidate[0].Last, in.Candidate[0].First, in.To} {
		r := v.readoutAt(x)
		cfg := estimator.Default()
		cfg.Request.Rows = x
		res, err := estimator.Estimate(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for i, o := range []estimator.Outcome{res.Baseline, res.Candidate} {
			want := revReadout{Decision: o.Decision.String(), Dominant: report.Dominates(o, false), Children: o.Children,
				Required: int64(o.RequiredBytes), Margin: int64(o.MarginBytes)}
			if r.Rev[i] != want {
				t.Errorf("x %d revision %d: read-out %+v, estimate %+v", x, i, r.Rev[i], want)
			}
			if !strings.Contains(r.Texts[i], o.RequiredBytes.String()) || !strings.Contains(r.Data[i], `"required":"`) {
				t.Errorf("x %d revision %d: %q / %s", x, i, r.Texts[i], r.Data[i])
			}
		}
		if !strings.Contains(r.XText, estimator.Group(x)) {
			t.Errorf("x text %q", r.XText)
		}
	}
	// Outside the field's range: a message, no panic.
	if r := v.readoutAt(-5); r.Rev[0].Error == "" || r.Rev[1].Error == "" {
		t.Errorf("rows -5 read out %+v", r)
	}
}

// BenchmarkPointerMove is a pointer move's Go work natively: the snap and
// the read-out at a new x (an estimate), then at an x already read.
func BenchmarkPointerMove(b *testing.B) {
	cfg := estimator.Default()
	from, to := page.DefaultRange("rows", cfg)
	in, err := chart.Build(cfg, "rows", from, to, page.ChartPoints)
	if err != nil {
		b.Fatal(err)
	}
	_, f, err := chart.SVGFrame(in, 720, 360)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("new x", func(b *testing.B) {
		v, _ := NewDrawing(cfg, in, f)
		w := f.Plot.Right - f.Plot.Left
		for i := 0; b.Loop(); i++ {
			if i%1000 == 0 {
				clear(v.memo)
			}
			v.readoutAt(v.snap(f.Plot.Left + w*float64(i%1000)/1000))
		}
	})
	b.Run("same x", func(b *testing.B) {
		v, _ := NewDrawing(cfg, in, f)
		px := (f.Plot.Left + f.Plot.Right) / 2
		v.readoutAt(v.snap(px))
		for b.Loop() {
			v.readoutAt(v.snap(px))
		}
	})
}

func TestSpreadLabels(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ys   []float64
		want []float64
	}{
		{"apart already", []float64{10, 50, 30}, []float64{10, 50, 30}},
		{"two on one spot", []float64{40, 40}, []float64{40, 50}},
		{"pushed up from the bottom", []float64{100, 99, 98}, []float64{100, 90, 80}},
		{"kept below the top", []float64{-5, 0}, []float64{0, 10}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := spreadLabels(tc.ys, 10, 0, 100)
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("spreadLabels(%v) = %v, want %v", tc.ys, got, tc.want)
				}
			}
		})
	}
}

// TestShownLineLabels: at 390 px the lines' labels stacked over the
// chart's right half and above it. A narrow chart leaves the names to the
// legend; a wide one draws as many as fit inside the plot, never above it.
func TestShownLineLabels(t *testing.T) {
	for _, tc := range []struct {
		n                   int
		chartW, top, bottom float64
		want                int
	}{
		{9, 358, 10, 250, 0},
		{9, 900, 10, 400, 9},
		{9, 900, 10, 100, 5}, // (100 - 20 - 10) / 13
		{3, 900, 10, 20, 0},
	} {
		got := shownLineLabels(tc.n, tc.chartW, tc.top, tc.bottom)
		if got != tc.want {
			t.Errorf("shownLineLabels(%d, %g, %g, %g) = %d, want %d", tc.n, tc.chartW, tc.top, tc.bottom, got, tc.want)
		}
		if got > 0 {
			ends := make([]float64, got)
			for i := range ends {
				ends[i] = tc.top // all at the top: the worst case
			}
			for _, y := range lineLabelTops(ends, tc.top, tc.bottom) {
				if y-lineLabelGap/2 < tc.top {
					t.Errorf("%d labels in %g..%g: one is centred at %g, above the plot", got, tc.top, tc.bottom, y)
				}
			}
		}
	}
}

// TestLineLabelTops: line labels stay above the band labels' row (a line
// ending at the plot's bottom would otherwise sit on the REFUSE label), at
// least a label's height apart; a label moved off its line's end gets a
// leader.
func TestLineLabelTops(t *testing.T) {
	t.Parallel()
	const top, bottom = 10.0, 330.0
	ends := []float64{329, 329, 120, 121, 122}
	ys := lineLabelTops(ends, top, bottom)
	for i, y := range ys {
		if y+lineLabelGap/2 > bottom-bandLabelRow {
			t.Errorf("label %d centred at %.1f reaches the band labels' row (%.1f..%.1f)", i, y, bottom-bandLabelRow, bottom)
		}
		for j := range ys[:i] {
			if d := ys[i] - ys[j]; d > -lineLabelGap && d < lineLabelGap {
				t.Errorf("labels %d and %d are %.1f px apart", j, i, d)
			}
		}
		if _, _, ok := leaderSpan(ends[i], y); ok != (y != ends[i] && (y-ends[i] > 3 || ends[i]-y > 3)) {
			t.Errorf("label %d at %.1f, its line at %.1f: leader %v", i, y, ends[i], ok)
		}
	}
	if top, h, ok := leaderSpan(329, 296.5); !ok || top != 296.5 || h != 32.5 {
		t.Errorf("leaderSpan(329, 296.5) = %v, %v, %v", top, h, ok)
	}
}
