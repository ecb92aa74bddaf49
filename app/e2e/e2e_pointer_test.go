//go:build !wasm

package e2e

// The chart's pointer and keyboard in a real browser: hover
// reads the estimate at the x under the pointer, a click sets the value, a
// drag zooms, a double-click or the reset button restores the range, every
// key moves the value; the pointer's cost is measured in the page.

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"headroom/app/ui/page"
	"headroom/estimator"
)

func TestE2EChartPointer(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	cfg := page.NewConfig() // the page's default
	from, to := page.FitRange("rows", cfg)
	grid, flips, snaps := sweepOf(t, cfg, from, to)
	g := tb.chartGeo()
	if g.XMin != float64(from) || g.XMax != float64(to) {
		t.Fatalf("the chart maps %g..%g, want %d..%d", g.XMin, g.XMax, from, to)
	}

	// Hover: the read-out shows the estimate at a sweep point or flip
	// under the pointer, and follows it.
	var hovered int64
	for _, frac := range []float64{0.3, 0.8, 0.05} {
		want := float64(from) + frac*float64(to-from)
		cx, cy := g.client(want)
		tb.mouse(chromedp.MouseMoved, cx, cy, false)
		var r readoutState
		tb.waitUntil(fmt.Sprintf("a read-out near x %.0f", want), 10*time.Second, func() (bool, string) {
			r = tb.readout()
			x, _ := strconv.ParseFloat(r.X, 64)
			return !r.Hidden && math.Abs(x-g.dataAt(cx)) <= 2*g.perPixel(), fmt.Sprintf("%+v", r)
		})
		x := checkReadout(t, cfg, r)
		if !contains(snaps, x) {
			t.Errorf("read-out x %d is neither a sweep point nor a flip", x)
		}
		left := eval[float64](tb, `(() => { const c = document.getElementById('chart-crosshair');
			return c.hidden ? -1 : c.getBoundingClientRect().left; })()`)
		if xc, _ := g.client(float64(x)); math.Abs(left-xc) > 1.5 {
			t.Errorf("crosshair at client x %g, the read-out's x %d is at %g", left, x, xc)
		}
		hovered = x
	}
	// Leaving hides it.
	tb.mouse(chromedp.MouseMoved, 2, 2, false)
	tb.waitUntil("the read-out to hide", 10*time.Second, func() (bool, string) {
		r := tb.readout()
		return r.Hidden, fmt.Sprintf("%+v", r)
	})

	// Click: the value, the panels and the address follow.
	cx, cy := g.client(float64(hovered))
	tb.mouse(chromedp.MouseMoved, cx, cy, false)
	tb.mouse(chromedp.MousePressed, cx, cy, false)
	tb.mouse(chromedp.MouseReleased, cx, cy, false)
	waitValue := func(x int64) {
		t.Helper()
		tb.waitUntil(fmt.Sprintf("#input-rows = %d", x), 10*time.Second, func() (bool, string) {
			v := tb.value("input-rows")
			return v == strconv.FormatInt(x, 10), v
		})
		c := cfg
		c.Request.Rows = x
		q := page.ConfigQuery(c, nil) // the range stays: the page writes it once it is not rows' default
		if f, e := page.FitRange("rows", c); f != from || e != to {
			q.Set("from", strconv.FormatInt(from, 10))
			q.Set("to", strconv.FormatInt(to, 10))
		}
		tb.waitURL(q.Encode())
		if got, want := tb.decisions(), expectedDecisions(t, c); got != want {
			t.Errorf("rows %d: panels say %+v, want %+v", x, got, want)
		}
		// The table: its required row has both revisions' bytes at x.
		res, err := estimator.Estimate(c)
		if err != nil {
			t.Fatal(err)
		}
		table := eval[string](tb, `document.getElementById('breakdown').textContent`)
		for _, o := range []estimator.Outcome{res.Baseline, res.Candidate} {
			if want := estimator.Group(int64(o.RequiredBytes)); !strings.Contains(table, want) {
				t.Errorf("rows %d: the breakdown does not show the required %s bytes", x, want)
			}
		}
	}
	waitValue(hovered)

	// Keys, from the clicked value.
	tb.do(chromedp.Evaluate[chromedp.Void](`document.getElementById('chart').focus()`))
	if !eval[bool](tb, `document.activeElement === document.getElementById('chart')`) {
		t.Fatal("#chart does not take the focus")
	}
	next := func(cur int64, n int) int64 {
		i := sort.Search(len(grid), func(i int) bool { return grid[i] > cur })
		return grid[min(i+n-1, len(grid)-1)]
	}
	prev := func(cur int64, n int) int64 {
		i := sort.Search(len(grid), func(i int) bool { return grid[i] >= cur })
		return grid[max(i-n, 0)]
	}
	cur := hovered
	shift := chromedp.KeyModifiers(chromedp.ModifierShift)
	steps := []struct {
		name string
		key  chromedp.Action[chromedp.Void]
		want func(int64) int64
	}{
		{"ArrowRight", chromedp.KeyEvent(kb.ArrowRight), func(c int64) int64 { return next(c, 1) }},
		{"Shift+ArrowRight", chromedp.KeyEvent(kb.ArrowRight, shift), func(c int64) int64 { return next(c, 10) }},
		{"ArrowLeft", chromedp.KeyEvent(kb.ArrowLeft), func(c int64) int64 { return prev(c, 1) }},
		{"Shift+ArrowLeft", chromedp.KeyEvent(kb.ArrowLeft, shift), func(c int64) int64 { return prev(c, 10) }},
		{"PageDown", chromedp.KeyEvent(kb.PageDown), func(c int64) int64 {
			for _, f := range flips {
				if f > c {
					return f
				}
			}
			return c
		}},
		{"PageDown again", chromedp.KeyEvent(kb.PageDown), func(c int64) int64 {
			for _, f := range flips {
				if f > c {
					return f
				}
			}
			return c
		}},
		{"PageUp", chromedp.KeyEvent(kb.PageUp), func(c int64) int64 {
			for i := len(flips) - 1; i >= 0; i-- {
				if flips[i] < c {
					return flips[i]
				}
			}
			return c
		}},
		{"End", chromedp.KeyEvent(kb.End), func(int64) int64 { return to }},
		{"Home", chromedp.KeyEvent(kb.Home), func(int64) int64 { return from }},
	}
	for _, s := range steps {
		want := s.want(cur)
		tb.do(s.key)
		waitValue(want)
		tb.waitUntil(s.name+": the read-out at the new value", 10*time.Second, func() (bool, string) {
			r := tb.readout()
			return !r.Hidden && r.X == strconv.FormatInt(want, 10), fmt.Sprintf("%+v", r)
		})
		checkReadout(t, cfg, tb.readout())
		cur = want
	}
	if len(flips) < 2 {
		t.Errorf("the default chart has %d flips; the PageUp/PageDown steps need two", len(flips))
	}
	if !eval[bool](tb, `document.getElementById('chart').matches(':focus-visible') &&
		getComputedStyle(document.getElementById('chart')).outlineStyle !== 'none'`) {
		t.Error("#chart shows no focus ring after the keys")
	}

	// Drag: from and to become the dragged range.
	a, b := 0.25, 0.6
	ax, ay := g.client(float64(from) + a*float64(to-from))
	bx, _ := g.client(float64(from) + b*float64(to-from))
	tb.mouse(chromedp.MouseMoved, ax, ay, false)
	tb.mouse(chromedp.MousePressed, ax, ay, false)
	for i := 1; i <= 8; i++ {
		tb.mouse(chromedp.MouseMoved, ax+(bx-ax)*float64(i)/8, ay, true)
	}
	tb.mouse(chromedp.MouseReleased, bx, ay, false)
	wantFrom, wantTo := g.dataAt(ax), g.dataAt(bx)
	tb.waitUntil("the dragged range in the fields", 10*time.Second, func() (bool, string) {
		f, _ := strconv.ParseFloat(tb.value("axis-from"), 64)
		e, _ := strconv.ParseFloat(tb.value("axis-to"), 64)
		slack := 2 * g.perPixel()
		return math.Abs(f-wantFrom) <= slack && math.Abs(e-wantTo) <= slack,
			fmt.Sprintf("from %v to %v, want about %.0f..%.0f", f, e, wantFrom, wantTo)
	})
	zf, zt := tb.value("axis-from"), tb.value("axis-to")
	tb.waitUntil("the address to carry the range", 10*time.Second, func() (bool, string) {
		q := tb.query()
		return q.Get("from") == zf && q.Get("to") == zt, q.Encode()
	})
	tb.waitUntil("the chart to map the new range", 10*time.Second, func() (bool, string) {
		g2 := tb.chartGeo()
		return strconv.FormatFloat(g2.XMin, 'f', -1, 64) == zf && strconv.FormatFloat(g2.XMax, 'f', -1, 64) == zt,
			fmt.Sprintf("%g..%g", g2.XMin, g2.XMax)
	})

	// Double-click restores the default range.
	g = tb.chartGeo()
	mx, my := g.client((g.XMin + g.XMax) / 2)
	tb.do(chromedp.MouseClickXY(mx, my, chromedp.ClickCount(2)))
	waitDefault := func(how string) {
		t.Helper()
		tb.waitUntil(how+" to restore the default range", 10*time.Second, func() (bool, string) {
			f, e := tb.value("axis-from"), tb.value("axis-to")
			q := tb.query()
			return f == strconv.FormatInt(from, 10) && e == strconv.FormatInt(to, 10) && !q.Has("from") && !q.Has("to"),
				fmt.Sprintf("fields %s..%s, address ?%s", f, e, q.Encode())
		})
	}
	waitDefault("a double-click")

	// The reset button does the same after another drag.
	g = tb.chartGeo()
	ax, ay = g.client(float64(from) + 0.1*float64(to-from))
	bx, _ = g.client(float64(from) + 0.4*float64(to-from))
	tb.mouse(chromedp.MousePressed, ax, ay, false)
	tb.mouse(chromedp.MouseMoved, (ax+bx)/2, ay, true)
	tb.mouse(chromedp.MouseMoved, bx, ay, true)
	tb.mouse(chromedp.MouseReleased, bx, ay, false)
	tb.waitUntil("a zoom", 10*time.Second, func() (bool, string) {
		f := tb.value("axis-from")
		return f != strconv.FormatInt(from, 10), f
	})
	tb.do(chromedp.Click(chromedp.ID("chart-reset")))
	waitDefault("the reset button")

	// A tap (touch) shows the read-out and sets nothing.
	g = tb.chartGeo()
	tx, ty := g.client(float64(from) + 0.5*float64(to-from))
	before := tb.value("input-rows")
	tb.mouse(chromedp.MouseMoved, 2, 2, false)
	tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const c = document.getElementById('chart');
		const o = {clientX: %g, clientY: %g, pointerType: 'touch', pointerId: 7, isPrimary: true, bubbles: true, button: 0};
		c.dispatchEvent(new PointerEvent('pointerdown', o));
		c.dispatchEvent(new PointerEvent('pointerup', o));
		c.dispatchEvent(new PointerEvent('pointerleave', o));
	})()`, tx, ty)))
	tb.waitUntil("a tap's read-out", 10*time.Second, func() (bool, string) {
		r := tb.readout()
		x, _ := strconv.ParseFloat(r.X, 64)
		return !r.Hidden && math.Abs(x-g.dataAt(tx)) <= 2*g.perPixel(), fmt.Sprintf("%+v", r)
	})
	checkReadout(t, cfg, tb.readout())
	if got := tb.value("input-rows"); got != before {
		t.Errorf("a tap set rows to %s (was %s)", got, before)
	}
}

// TestE2EChartPointerCost times pointer moves over the chart in the page
// (performance.now() around synchronously dispatched pointermove events:
// the handler runs inside dispatchEvent) across the plot: once before any
// x is read out ahead (each move at a new x prices an estimate:
// BenchmarkPointerMove, "new x"), then, once the pointer has entered the
// chart and the page has read out every x ahead (in idle time), twice. It
// reports the figures and asserts no time; it asserts that nothing is
// read out ahead before a pointer enters the chart, that the moves redraw
// nothing and that the read-out followed the last one.
func TestE2EChartPointerCost(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	cfg := page.NewConfig()
	from, to := page.FitRange("rows", cfg)
	_, _, snaps := sweepOf(t, cfg, from, to)
	unique := 0
	for i, x := range snaps {
		if i == 0 || x != snaps[i-1] {
			unique++
		}
	}
	g := tb.chartGeo()
	const n = 400
	left, right := g.SvgLeft+g.Left*g.SvgW/g.VW, g.SvgLeft+g.Right*g.SvgW/g.VW
	y := g.SvgTop + (g.Top+g.Bottom)/2*g.SvgH/g.VH
	pass := func(offset float64) float64 {
		return eval[float64](tb, fmt.Sprintf(`(() => {
			const c = document.getElementById('chart');
			const t0 = performance.now();
			for (let i = 0; i < %d; i++) c.dispatchEvent(new PointerEvent('pointermove', {
				clientX: %g + (%g - %g) * (i + %g) / %d, clientY: %g, pointerType: 'mouse', bubbles: true}));
			return (performance.now() - t0) / %d;
		})()`, n, left, right, left, offset, n, y, n))
	}
	prefetched := func() int {
		return eval[int](tb, `Number(document.getElementById('chart').dataset.prefetched || 0)`)
	}
	// With no pointer over the chart nothing is read out ahead. Were it,
	// its first slice would come in the first idle callback after the
	// quiet time (250 ms) since the last drawing: this timeout, set after
	// that drawing and for longer, fires after the prefetch's, and this
	// idle callback, asked for after the prefetch's, runs after it.
	if pre := eval[int](tb, `new Promise(r => setTimeout(() => requestIdleCallback(() =>
		r(Number(document.getElementById('chart').dataset.prefetched || 0))), 400))`, chromedp.EvalAwaitPromise); pre != 0 {
		t.Errorf("%d read-outs prefetched with no pointer over the chart", pre)
	}
	renders := tb.renders()
	first := pass(0.5)
	tb.do(chromedp.Evaluate[chromedp.Void](`document.getElementById('chart').dispatchEvent(new PointerEvent('pointerenter', {pointerType: 'mouse'}))`))
	tb.waitUntil("the read-outs prefetched", 10*time.Second, func() (bool, string) {
		p := prefetched()
		return p == unique, fmt.Sprintf("%d of %d", p, unique)
	})
	ahead := pass(0)
	again := pass(0)
	if got := tb.renders(); got != renders {
		t.Errorf("pointer moves rendered the page %d times", got-renders)
	}
	t.Logf("pointer move over the chart, %d moves, before any x was read out ahead: %.4f ms a move", n, first)
	t.Logf("pointer move over the chart, %d moves each, every x read out ahead (%d): %.4f ms a move across the plot, %.4f ms across it again",
		n, unique, ahead, again)
	last := eval[float64](tb, `Number(document.getElementById('chart-readout').dataset.x)`)
	lastX := g.dataAt(left + (right-left)*(n-0.5)/n)
	if math.Abs(last-lastX) > 2*g.perPixel() {
		t.Errorf("the read-out says x %g after the last move, which was at about %.0f", last, lastX)
	}
}

// TestE2EChartPointerByteAxis: along in_use_bytes (typed in GiB), a click
// sets the field to the exact bytes of the x read out, and the read-out
// is the estimate there.
func TestE2EChartPointerByteAxis(t *testing.T) {
	tb := newTab(t)
	tb.open("?axis=in_use_bytes")
	g := tb.chartGeo()
	cx, cy := g.client(g.XMin + 0.4*(g.XMax-g.XMin))
	tb.mouse(chromedp.MouseMoved, cx, cy, false)
	var r readoutState
	tb.waitUntil("a read-out", 10*time.Second, func() (bool, string) {
		r = tb.readout()
		return !r.Hidden && r.X != "", fmt.Sprintf("%+v", r)
	})
	x, err := strconv.ParseInt(r.X, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	cfg := page.NewConfig()
	cfg.Budget.InUseBytes = x
	res, err := estimator.Estimate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(r.Rev[1]["required"]), strconv.FormatInt(int64(res.Candidate.RequiredBytes), 10); got != want {
		t.Errorf("in_use_bytes %d: the read-out's candidate requires %s, the estimate %s", x, got, want)
	}
	if !strings.Contains(r.Text, estimator.Group(x)+" bytes") {
		t.Errorf("the read-out %q does not give x in bytes", r.Text)
	}
	tb.mouse(chromedp.MousePressed, cx, cy, false)
	tb.mouse(chromedp.MouseReleased, cx, cy, false)
	tb.waitUntil("the in-use field to take x", 10*time.Second, func() (bool, string) {
		v := tb.value("input-" + page.KeyInUseGiB)
		return v == page.GiBText(x), v + ", want " + page.GiBText(x)
	})
	tb.waitUntil("the address to carry x", 10*time.Second, func() (bool, string) {
		q := tb.query()
		return q.Get("in_use_bytes") == r.X, q.Encode()
	})
}
