//go:build !wasm

package e2e

// The browser tests' view of the chart's pointer overlay: the mapping the
// page publishes on #chart, the read-out, mouse events, and the chart's
// sweep computed natively (e2e_pointer_test.go, e2e_pointer_axe_test.go).

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"headroom/app/chart"
	"headroom/app/report"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// chartGeo is the chart's mapping as the page publishes it on #chart
// (data-plot-left...), and the SVG's box in client pixels.
type chartGeo struct {
	Left, Right, Top, Bottom float64 // the plot area, SVG units
	XMin, XMax               float64
	VW, VH                   float64 // the viewBox
	SvgLeft, SvgTop          float64 // client pixels
	SvgW, SvgH               float64
}

func (tb *tab) chartGeo() chartGeo {
	tb.t.Helper()
	v := eval[[]float64](tb, `(() => {
		const c = document.getElementById('chart'), d = c.dataset, r = c.querySelector('svg').getBoundingClientRect();
		return [d.plotLeft, d.plotRight, d.plotTop, d.plotBottom, d.xmin, d.xmax, d.viewWidth, d.viewHeight].map(Number)
			.concat([r.left, r.top, r.width, r.height]);
	})()`)
	if len(v) != 12 || v[1] <= v[0] || v[6] <= 0 {
		tb.t.Fatalf("#chart publishes no mapping: %v", v)
	}
	return chartGeo{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11]}
}

// client is the client position of data x, at the plot's middle height.
func (g chartGeo) client(x float64) (float64, float64) {
	px := g.Left + (x-g.XMin)/(g.XMax-g.XMin)*(g.Right-g.Left)
	return g.SvgLeft + px*g.SvgW/g.VW, g.SvgTop + (g.Top+g.Bottom)/2*g.SvgH/g.VH
}

// dataAt is the data x at client x cx.
func (g chartGeo) dataAt(cx float64) float64 {
	px := (cx - g.SvgLeft) * g.VW / g.SvgW
	return g.XMin + (px-g.Left)/(g.Right-g.Left)*(g.XMax-g.XMin)
}

// perPixel is how much data x one client pixel spans.
func (g chartGeo) perPixel() float64 { return (g.XMax - g.XMin) / ((g.Right - g.Left) * g.SvgW / g.VW) }

// readoutState is what #chart-readout shows.
type readoutState struct {
	Hidden bool
	X      string
	Text   string
	Rev    [2]map[string]any
}

func (tb *tab) readout() readoutState {
	tb.t.Helper()
	return eval[readoutState](tb, `(() => {
		const r = document.getElementById('chart-readout');
		const rev = id => Object.assign({text: document.getElementById(id).textContent},
			JSON.parse(document.getElementById(id).dataset.readout || '{}'));
		return {Hidden: r.hidden, X: r.dataset.x ?? '', Text: r.textContent,
			Rev: [rev('readout-baseline'), rev('readout-candidate')]};
	})()`)
}

// mouse sends a mouse event at (x, y) in client pixels, with the left
// button held when down (a drag's moves).
func (tb *tab) mouse(typ input.DispatchMouseEventType, x, y float64, down bool) {
	tb.t.Helper()
	p := input.DispatchMouseEventParams{Type: typ, X: x, Y: y}
	if typ != chromedp.MouseMoved {
		p.Button, p.ClickCount = input.MouseButtonLeft, 1
	}
	if down || typ == chromedp.MousePressed {
		p.Buttons = 1
	}
	if _, err := chromedp.Call(tb.ctx, input.DispatchMouseEvent, p); err != nil {
		tb.t.Fatalf("mouse %s at %g,%g: %v", typ, x, y, err)
	}
}

// sweepOf is the page's chart, swept natively: its x values and flips.
func sweepOf(t *testing.T, cfg estimator.Config, from, to int64) (grid, flips, snaps []int64) {
	t.Helper()
	in, err := chart.Build(cfg, "rows", from, to, page.ChartPoints)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range in.Points {
		grid = append(grid, p.X)
	}
	snaps = append(snaps, grid...)
	for _, f := range append(append([]estimator.Flip(nil), in.Baseline...), in.Candidate...) {
		flips = append(flips, f.First)
		snaps = append(snaps, f.Last, f.First)
	}
	sort.Slice(flips, func(i, j int) bool { return flips[i] < flips[j] })
	sort.Slice(snaps, func(i, j int) bool { return snaps[i] < snaps[j] })
	return grid, flips, snaps
}

func contains(xs []int64, x int64) bool {
	i := sort.Search(len(xs), func(i int) bool { return xs[i] >= x })
	return i < len(xs) && xs[i] == x
}

// checkReadout checks the read-out against the estimator at its x, with
// the config's rows set to it.
func checkReadout(t *testing.T, cfg estimator.Config, r readoutState) int64 {
	t.Helper()
	x, err := strconv.ParseInt(r.X, 10, 64)
	if err != nil || r.Hidden {
		t.Fatalf("read-out hidden=%v x=%q", r.Hidden, r.X)
	}
	cfg.Request.Rows = x
	res, err := estimator.Estimate(cfg)
	if err != nil {
		t.Fatalf("estimate at %d: %v", x, err)
	}
	if !strings.Contains(r.Text, estimator.Group(x)) {
		t.Errorf("read-out %q does not name x %s", r.Text, estimator.Group(x))
	}
	var art [2]bool
	if rv, err := cfg.ResolveRevisions(); err == nil {
		art = [2]bool{rv.Rev[0].Art, rv.Rev[1].Art}
	}
	for i, o := range []estimator.Outcome{res.Baseline, res.Candidate} {
		want := map[string]string{
			"decision": o.Decision.String(), "children": strconv.FormatInt(o.Children, 10),
			"required": strconv.FormatInt(int64(o.RequiredBytes), 10), "margin": strconv.FormatInt(int64(o.MarginBytes), 10),
			"dominant": report.Dominates(o, art[i]),
		}
		for k, v := range want {
			if got := fmt.Sprint(r.Rev[i][k]); got != v {
				t.Errorf("read-out at %d, revision %d: %s = %q, estimate says %q", x, i, k, got, v)
			}
		}
		for _, s := range []string{o.RequiredBytes.String(), o.MarginBytes.String(), o.Decision.String()} {
			if !strings.Contains(fmt.Sprint(r.Rev[i]["text"]), s) {
				t.Errorf("read-out at %d, revision %d: %q does not say %q", x, i, r.Rev[i]["text"], s)
			}
		}
	}
	return x
}
