//go:build !wasm

package e2e

import (
	"fmt"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"headroom/estimator"
	"headroom/estimator/urlquery"
)

// bannerJS is the error banner's text, "" when there is none.
const bannerJS = `(document.getElementById('error-banner')?.textContent ?? '').trim()`

// TestE2ETwoInputsWhilePrefetching: "Two inputs"
// clicked right after the page is ready, or right after an edit, while
// the one-input chart's read-outs are still being prefetched in idle
// time: the prefetch's next callback runs after the chart has gone, and
// must find nothing to do (it dereferenced the gone chart's element and
// the page showed a Go panic in its error banner, 4 times of 4).
func TestE2ETwoInputsWhilePrefetching(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(tb *tab)
	}{
		{"after load", func(*tab) {}},
		{"after an edit", func(tb *tab) {
			n := tb.renders()
			tb.setField("input-rows", "70000", "input")
			tb.waitRenders(n)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTab(t)
			tb.open("")
			c.edit(tb)
			// The prefetch runs while a pointer is over the chart: one
			// enters, and at once Two inputs is clicked; the prefetch reads
			// out a few milliseconds at a time in idle callbacks, so it has
			// work left.
			pre := eval[string](tb, `(() => { const c = document.getElementById('chart');
				c.dispatchEvent(new PointerEvent('pointerenter', {pointerType: 'mouse'}));
				const p = c.dataset.prefetched ?? 'none';
				document.getElementById('view-map').click(); return String(p); })()`)
			tb.waitMap("in_use_bytes")
			// The prefetch's callbacks come in idle time after the quiet
			// time: watch the banner for two seconds.
			for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
				if b := eval[string](tb, bannerJS); b != "" {
					t.Fatalf("clicked Two inputs with %s read-outs prefetched; the banner says: %s", pre, b)
				}
			}
			if got := eval[bool](tb, `!document.getElementById('chart')`); !got {
				t.Errorf("the one-input chart is still there in the map view")
			}
			t.Logf("read-outs prefetched when Two inputs was clicked: %s", pre)
		})
	}
}

// TestE2EReadoutAfterZoom: After a drag-zoom the
// read-out kept the x it had before the drag (now somewhere else on the
// new mapping) until the pointer moved. Once the zoomed chart is drawn,
// the read-out is the x under the pointer in the new mapping.
func TestE2EReadoutAfterZoom(t *testing.T) {
	tb := newTab(t)
	tb.open("?preset=mixtral-8x7b&gpu=h100&in_use_bytes=60000000000")
	g := tb.chartGeo()
	a, b := 0.2, 0.7
	ax, ay := g.client(g.XMin + a*(g.XMax-g.XMin))
	bx, _ := g.client(g.XMin + b*(g.XMax-g.XMin))
	tb.mouse(chromedp.MouseMoved, ax, ay, false)
	tb.waitUntil("the read-out at the press", 10*time.Second, func() (bool, string) {
		r := tb.readout()
		return !r.Hidden && r.X != "", fmt.Sprintf("%+v", r)
	})
	before := tb.readout().X
	tb.mouse(chromedp.MousePressed, ax, ay, false)
	for i := 1; i <= 8; i++ {
		tb.mouse(chromedp.MouseMoved, ax+(bx-ax)*float64(i)/8, ay, true)
	}
	tb.mouse(chromedp.MouseReleased, bx, ay, false)
	var g2 chartGeo
	tb.waitUntil("the chart to map the zoomed range", 10*time.Second, func() (bool, string) {
		g2 = tb.chartGeo()
		return g2.XMin != g.XMin || g2.XMax != g.XMax, fmt.Sprintf("%g..%g", g2.XMin, g2.XMax)
	})
	// The pointer has not moved since the release: it is at the zoomed
	// range's right end.
	want := g2.dataAt(bx)
	slack := 4 * g2.perPixel()
	tb.waitUntil("the read-out to follow the new mapping", 10*time.Second, func() (bool, string) {
		r := tb.readout()
		x, err := strconv.ParseFloat(r.X, 64)
		return err == nil && !r.Hidden && math.Abs(x-want) <= slack,
			fmt.Sprintf("read-out x %s (hidden %v; %s before the drag), want about %.0f (range %g..%g)", r.X, r.Hidden, before, want, g2.XMin, g2.XMax)
	})
}

// TestE2EInvalidFieldKeepsLastValid, in the browser.
// Custom capacity 80 GB and in use 100 GiB: the field was marked, yet the
// panels showed a green admit at in use 0. While the field is invalid the
// decisions stay those of the last valid state, greyed, and the note
// names the field.
func TestE2EInvalidFieldKeepsLastValid(t *testing.T) {
	cfg := estimator.Default()
	cfg.Budget.CapacityBytes, cfg.Budget.InUseBytes = 80000000000, 60<<30
	want := expectedDecisions(t, cfg)
	zero := cfg
	zero.Budget.InUseBytes = 0
	if expectedDecisions(t, zero) == want {
		t.Fatalf("fixture: in use 0 decides as 60 GiB does (%+v)", want)
	}
	tb := newTab(t)
	tb.open("?" + urlquery.Encode(cfg).Encode())
	tb.waitDecisions(want)
	n := tb.edits()
	tb.setField("input-in_use_gib", "100", "input")
	tb.waitEdits(n)
	tb.waitFor("the field marked and the note naming it", `(document.getElementById('error-in_use_bytes')?.textContent ?? '') !== '' &&
		(document.getElementById('stale-note')?.textContent ?? '').includes('in use (GiB)') &&
		document.querySelector('section.verdicts.stale') !== null || (document.getElementById('stale-note')?.textContent ?? 'no note')`, 10*time.Second)
	tb.waitSettled()
	if got := tb.decisions(); got != want {
		t.Errorf("with in use 100 GiB marked the decisions are %+v, want the last valid %+v", got, want)
	}
}

// TestE2EOverflowLinkSaysWhatToFix: A
// link whose defaults overflow never became ready ("Loading the
// estimator…" and "Estimating…" forever) and the candidate said "no
// change on". It becomes ready and says what to fix. (Resident memory is
// off, as the link had it: with it on, weights of that size are
// the first thing to fix, and the page says so in its no-fit panel.)
func TestE2EOverflowLinkSaysWhatToFix(t *testing.T) {
	tb := newTab(t)
	tb.do(chromedp.Navigate(tb.base + "/?resident=off&expert_parallel=1&rows=2147483647&hidden_size=1048576&num_hidden_layers=1048576"))
	tb.waitFor("the page ready, saying what to fix", `(() => {
		const e = document.getElementById('explorer'), c = document.getElementById('chart-empty');
		const cand = document.getElementById('decision-candidate')?.textContent ?? '';
		const ok = e?.dataset.ready === '1' && (c?.textContent ?? '').includes('Nothing to estimate: fix') &&
			cand.includes('Nothing to estimate') && !cand.includes('no change on');
		return ok || {ready: e?.dataset.ready, chart: c?.textContent, candidate: cand};
	})()`, 90*time.Second)
}
