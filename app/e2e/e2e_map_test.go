//go:build !wasm

package e2e

// The "Two inputs" view in a real browser: it opens, computes its map
// over frames, follows a change of y, reads the column under the pointer
// exactly as estimator.Map computes it, moves the config on a click, and
// comes back from a link in a fresh page.

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"headroom/app/ui/page"
	"headroom/estimator"
)

// mapSeen is the map view's state, for waits and failure messages.
func (tb *tab) mapSeen() string {
	return eval[string](tb, `(() => { const v = document.getElementById('map-view');
		if (!v) return '<no #map-view>';
		const p = document.getElementById('map-problem');
		return 'complete=' + v.dataset.complete + ' y=' + v.dataset.y + ' progress=' +
			document.getElementById('map-progress').textContent + (p ? ' problem=' + p.textContent : ''); })()`)
}

// waitMap waits until the map view shows a complete map along y. The map
// is computed in animation frames, and a loaded machine gives a tab fewer
// of them (the test once timed out at a load of 30), so the deadline is
// two minutes.
func (tb *tab) waitMap(y string) {
	tb.t.Helper()
	tb.waitUntil("the map along "+y, 2*time.Minute, func() (bool, string) {
		seen := tb.mapSeen()
		ok := eval[bool](tb, fmt.Sprintf(`(() => { const v = document.getElementById('map-view');
			return !!v && v.dataset.complete === '1' && v.dataset.y === %q && !!document.querySelector('#map svg'); })()`, y))
		return ok, seen
	})
}

// mapPoint is the client position of the fraction (fx, fy) of the map's
// plane (fy from the bottom).
func (tb *tab) mapPoint(fx, fy float64) (float64, float64) {
	tb.t.Helper()
	var geo struct {
		Plot       string
		L, T, W, H float64
	}
	raw := eval[string](tb, `(() => { const r = document.getElementById('map').getBoundingClientRect();
		return JSON.stringify({Plot: document.getElementById('map-view').dataset.plot, L: r.left, T: r.top, W: r.width, H: r.height}); })()`)
	if err := json.Unmarshal([]byte(raw), &geo); err != nil {
		tb.t.Fatal(err)
	}
	var p [6]float64
	for i, s := range strings.Split(geo.Plot, ",") {
		if i < 6 {
			p[i], _ = strconv.ParseFloat(s, 64)
		}
	}
	left, top, right, bottom, w, h := p[0], p[1], p[2], p[3], p[4], p[5]
	if w == 0 || h == 0 {
		tb.t.Fatalf("no plane in data-plot %q", geo.Plot)
	}
	sx, sy := left+fx*(right-left), bottom-fy*(bottom-top)
	return geo.L + sx*geo.W/w, geo.T + sy*geo.H/h
}

func TestE2EMap(t *testing.T) {
	cfg := estimator.Default()
	tb := newTab(t)
	tb.open(query(cfg))
	tb.do(chromedp.Evaluate[chromedp.Void](`document.getElementById('view-map').click()`))
	tb.waitMap("in_use_bytes")

	// Change y.
	// Change y, and measure (not assert) the time from the change to the
	// complete map, frame by frame in the page, for the report.
	ms := eval[float64](tb, `(async () => { const s = document.getElementById('my');
		const t0 = performance.now();
		s.value = 'vocab_size'; s.dispatchEvent(new Event('change', {bubbles: true}));
		const v = document.getElementById('map-view');
		while (performance.now() - t0 < 10000) {
			await new Promise(r => requestAnimationFrame(r));
			const m = document.getElementById('map-view');
			if (m && m.dataset.complete === '1' && m.dataset.y === 'vocab_size') return performance.now() - t0;
		}
		return -1; })()`, chromedp.EvalAwaitPromise)
	t.Logf("map of 128 columns complete %.1f ms after the change of y (to the frame that shows it)", ms)
	tb.waitMap("vocab_size")
	tb.waitUntil("my=vocab_size in the address", 10*time.Second, func() (bool, string) {
		href := eval[string](tb, `location.href`)
		return strings.Contains(href, "view=map") && strings.Contains(href, "my=vocab_size"), href
	})

	// Hover: the read-out is estimator.Map's column.
	xFrom, xTo := page.DefaultRange("rows", cfg)
	yFrom, yTo := page.DefaultRange("vocab_size", cfg)
	want, err := estimator.Map(cfg, estimator.MapAxis{Axis: "rows", From: xFrom, To: xTo},
		estimator.MapAxis{Axis: "vocab_size", From: yFrom, To: yTo}, estimator.DefaultColumns)
	if err != nil {
		t.Fatal(err)
	}
	cx, cy := tb.mapPoint(0.4, 0.6)
	var got estimator.MapColumn
	tb.waitUntil("the read-out of the column under the pointer", 10*time.Second, func() (bool, string) {
		tb.mouse(chromedp.MouseMoved, cx, cy, false)
		raw := eval[string](tb, `document.getElementById('map-readout').dataset.column || ''`)
		return raw != "" && json.Unmarshal([]byte(raw), &got) == nil, raw
	})
	var match *estimator.MapColumn
	for i := range want.Columns {
		if want.Columns[i].X == got.X {
			match = &want.Columns[i]
		}
	}
	if match == nil {
		t.Fatalf("the read-out's x %d is no column of estimator.Map", got.X)
	}
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(*match)
	if string(a) != string(b) {
		t.Errorf("read-out column\n%s\nestimator.Map's\n%s", a, b)
	}
	if text := eval[string](tb, `document.getElementById('map-readout').textContent`); !strings.Contains(text, estimator.Group(got.X)) {
		t.Errorf("the read-out %q does not name x %s", text, estimator.Group(got.X))
	}

	// Click: both fields and the address follow.
	before := eval[string](tb, `location.search`)
	tb.mouse(chromedp.MousePressed, cx, cy, false)
	tb.mouse(chromedp.MouseReleased, cx, cy, false)
	var q url.Values
	tb.waitUntil("rows and vocab_size in the address after the click", 10*time.Second, func() (bool, string) {
		s := eval[string](tb, `location.search`)
		q, _ = url.ParseQuery(strings.TrimPrefix(s, "?"))
		return s != before && q.Get("rows") != "" && q.Get("vocab_size") != "", s
	})
	rows, _ := strconv.ParseInt(q.Get("rows"), 10, 64)
	vocab, _ := strconv.ParseInt(q.Get("vocab_size"), 10, 64)
	if rows < xFrom || rows > xTo || vocab < yFrom || vocab > yTo {
		t.Errorf("clicked to rows %d vocab %d, outside the map %d..%d x %d..%d", rows, vocab, xFrom, xTo, yFrom, yTo)
	}
	if col := want.ColumnAt(rows); col < 0 || want.Columns[col].X != got.X {
		t.Errorf("clicked rows %d is not in the hovered column at %d", rows, got.X)
	}
	tb.waitUntil("the fields show the clicked point", 10*time.Second, func() (bool, string) {
		r := eval[string](tb, `document.getElementById('input-rows').value`)
		v := eval[string](tb, `document.getElementById('input-vocab_size').value`)
		pr, e1 := estimator.ParseCount(r)
		pv, e2 := estimator.ParseCount(v)
		return e1 == nil && e2 == nil && pr == rows && pv == vocab, r + " / " + v
	})

	// A fresh page from the link comes back to the map view.
	link := eval[string](tb, `location.href`)
	fresh := newTab(t)
	fresh.do(chromedp.Navigate(link))
	fresh.waitMap("vocab_size")
	if y := eval[string](fresh, `document.getElementById('my').value`); y != "vocab_size" {
		t.Errorf("the fresh page's y menu says %q", y)
	}
	if on := eval[string](fresh, `document.getElementById('view-map').getAttribute('aria-pressed')`); on != "true" {
		t.Errorf("the fresh page's Two inputs tab is not pressed: %q", on)
	}
	if r := eval[string](fresh, `document.getElementById('input-rows').value`); r == "" {
		t.Error("the fresh page lost rows")
	}
}
