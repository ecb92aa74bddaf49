//go:build !wasm

package e2e

// The page's history and layout in a real browser: Back and Forward undo and
// redo settled edits; the layout at 390 and 1920 px wide; the sliders'
// and the chart's accessible text; the skip link; and the screenshots of
// a new user's path for the README (behind HEADROOM_SCREENSHOT).

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"headroom/estimator"
)

// pageSnap is what the tests compare between states: the address, some
// fields and the decisions.
type pageSnap struct {
	Search    string `json:"search"`
	Preset    string `json:"preset"`
	Rows      string `json:"rows"`
	Grad      bool   `json:"grad"`
	Baseline  string `json:"baseline"`
	Candidate string `json:"candidate"`
	Dominates string `json:"dominates"`
}

const snapExpr = `(() => {
	const dec = r => (document.querySelector('#decision-' + r + ' .decision')?.textContent ?? '').trim();
	return JSON.stringify({
		search: location.search,
		preset: document.getElementById('preset')?.value ?? '',
		rows: document.getElementById('input-rows')?.value ?? '',
		grad: !!document.getElementById('check-grad')?.checked,
		baseline: dec('baseline'), candidate: dec('candidate'),
		dominates: (document.getElementById('dominates-candidate')?.textContent ?? '').trim(),
	});
})()`

func (tb *tab) snap() pageSnap {
	tb.t.Helper()
	var s pageSnap
	if err := json.Unmarshal([]byte(eval[string](tb, snapExpr)), &s); err != nil {
		tb.t.Fatalf("snapshot: %v", err)
	}
	return s
}

// waitSnap waits until the page shows want (address, fields, decisions),
// reporting what it last saw.
func (tb *tab) waitSnap(what string, want pageSnap) {
	tb.t.Helper()
	tb.waitUntil(fmt.Sprintf("%s: the page to show\n %+v\n", what, want), 15*time.Second, func() (bool, string) {
		got := tb.snap()
		return got == want, fmt.Sprintf("\n %+v", got)
	})
}

// waitSnapSettled waits until the address bar holds the state the page shows
// (it is written at most every 300 ms) and returns the snapshot.
func (tb *tab) waitSnapSettled(what string) pageSnap {
	tb.t.Helper()
	var s pageSnap
	tb.waitUntil(what+": the page to settle", 15*time.Second, func() (bool, string) {
		s = tb.snap()
		return s.Baseline != "" && tb.urlMatches(s), fmt.Sprintf("%+v (address ?%s)", s, tb.query().Encode())
	})
	return s
}

// urlMatches reports whether the address says the fields shown.
func (tb *tab) urlMatches(s pageSnap) bool {
	q := tb.query()
	grad := q.Get("grad") != "false"
	return grad == s.Grad && (q.Get("rows") == s.Rows || (q.Get("rows") == "" && s.Rows == "64902")) &&
		(q.Get("preset") == s.Preset || (q.Get("preset") == "" && s.Preset == "qwen3-next-80b-a3b"))
}

// historyLength is history.length.
func (tb *tab) historyLength() int { return eval[int](tb, `history.length`) }

// TestE2EUndoRedo makes three settled edits (a preset picked from the
// menu, a switch, a field committed with Enter), then goes Back twice and
// Forward once, checking the address, the fields and the decisions each
// time; a drag of a slider adds one entry, not one per step.
func TestE2EUndoRedo(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	s0 := tb.waitSnapSettled("the first render")
	h0 := tb.historyLength()

	// 1. A menu pick.
	tb.do(chromedp.Evaluate[chromedp.Void](`(() => {
		const m = document.getElementById('preset');
		m.value = 'llama-3.1-8b';
		m.dispatchEvent(new Event('change', {bubbles: true}));
	})()`))
	tb.waitFor("the preset picked", `document.getElementById('preset').value === 'llama-3.1-8b' && location.search.includes('preset=llama-3.1-8b')`, 15*time.Second)
	s1 := tb.waitSnapSettled("after the preset")
	// 2. A switch.
	tb.do(chromedp.Click(chromedp.ID("check-grad")))
	tb.waitFor("grad off", `location.search.includes('grad=false')`, 15*time.Second)
	s2 := tb.waitSnapSettled("after the switch")
	// 3. A field typed and committed with Enter.
	tb.do(chromedp.Evaluate[chromedp.Void](`(() => { const f = document.getElementById('input-rows'); f.focus(); f.select(); })()`))
	if _, err := chromedp.Call(tb.ctx, input.InsertText, input.InsertTextParams{Text: "300000"}); err != nil {
		t.Fatal(err)
	}
	tb.do(chromedp.KeyEvent("\r"))
	tb.waitFor("rows typed", `location.search.includes('rows=300000')`, 15*time.Second)
	s3 := tb.waitSnapSettled("after the field")
	if got := tb.historyLength() - h0; got != 3 {
		t.Errorf("three settled edits added %d history entries, want 3", got)
	}
	if s1 == s0 || s2 == s1 || s3 == s2 {
		t.Fatalf("an edit changed nothing: %+v %+v %+v %+v", s0, s1, s2, s3)
	}
	if s3.Baseline == s0.Baseline && s3.Candidate == s0.Candidate {
		t.Logf("note: the decisions are the same before and after (%s/%s)", s3.Baseline, s3.Candidate)
	}

	// A drag: many input events, then the release (change), is one entry.
	h := tb.historyLength()
	tb.do(chromedp.Evaluate[chromedp.Void](`(() => {
		const s = document.getElementById('slider-vocab_size');
		for (const v of [400, 420, 440, 460, 480, 500]) {
			s.value = String(v);
			s.dispatchEvent(new Event('input', {bubbles: true}));
		}
		s.dispatchEvent(new Event('change', {bubbles: true}));
	})()`))
	tb.waitFor("the drag written", `new URLSearchParams(location.search).has('vocab_size')`, 15*time.Second)
	tb.waitSnapSettled("after the drag")
	if got := tb.historyLength() - h; got != 1 {
		t.Errorf("a drag added %d history entries, want 1", got)
	}
	tb.do(chromedp.Evaluate[chromedp.Void](`history.back()`))
	tb.waitSnap("Back over the drag", s3)

	tb.do(chromedp.Evaluate[chromedp.Void](`history.back()`))
	tb.waitSnap("Back once more (the field)", s2)
	tb.do(chromedp.Evaluate[chromedp.Void](`history.back()`))
	tb.waitSnap("Back again (the switch)", s1)
	tb.do(chromedp.Evaluate[chromedp.Void](`history.forward()`))
	tb.waitSnap("Forward once (the switch again)", s2)
	// The page's own edits go on from a restored state.
	tb.do(chromedp.Click(chromedp.ID("check-grad")))
	tb.waitFor("grad on again", `!location.search.includes('grad=false')`, 15*time.Second)
	if got := tb.snap(); got.Grad != true || got.Preset != "llama-3.1-8b" {
		t.Errorf("after Forward and a switch the page shows %+v", got)
	}
}

// llamaPath is the example, as a link: Llama-3.1-8B on an H100
// at 64,902 rows, along rows.
var llamaPath = "?preset=llama-3.1-8b&capacity_bytes=" + strconv.FormatInt(estimator.H100CapacityBytes, 10)

// layoutExpr measures the page: positions in CSS pixels from the top of
// the document.
const layoutExpr = `(() => {
	const r = id => { const e = document.getElementById(id); if (!e) return null; const b = e.getBoundingClientRect(); return {top: b.top + scrollY, bottom: b.bottom + scrollY, left: b.left, right: b.right, width: b.width, height: b.height}; };
	const cap = document.querySelector('#breakdown caption').getBoundingClientRect();
	return JSON.stringify({
		chart: r('chart'), preset: r('preset'), gpu: r('gpu'), baseline: r('decision-baseline'),
		caption: {left: cap.left, right: cap.right, width: cap.width},
		scrollWidth: document.documentElement.scrollWidth, innerWidth: innerWidth,
	});
})()`

type box struct{ Top, Bottom, Left, Right, Width, Height float64 }

type layout struct {
	Chart, Preset, GPU, Baseline *box
	Caption                      box
	ScrollWidth, InnerWidth      float64
}

func (tb *tab) layout() layout {
	tb.t.Helper()
	var l layout
	if err := json.Unmarshal([]byte(eval[string](tb, layoutExpr)), &l); err != nil {
		tb.t.Fatalf("layout: %v", err)
	}
	if l.Chart == nil || l.Preset == nil || l.GPU == nil || l.Baseline == nil {
		tb.t.Fatalf("layout: an element is missing: %+v", l)
	}
	return l
}

// checkA11y checks the accessible text every width shares: each slider's
// aria-valuetext, the chart's name and summary, the skip link.
func (tb *tab) checkA11y() {
	tb.t.Helper()
	bad := eval[string](tb, `[...document.querySelectorAll('input[type=range]')].filter(s => {
		const t = s.getAttribute('aria-valuetext') ?? '';
		return t === '' || t === s.value;
	}).map(s => s.id + '=' + JSON.stringify(s.getAttribute('aria-valuetext'))).join(', ')`)
	if bad != "" {
		tb.t.Errorf("sliders without a value text (or with the knob's position): %s", bad)
	}
	if got := eval[string](tb, `document.getElementById('slider-rows').getAttribute('aria-valuetext')`); got != "64,902 rows" {
		tb.t.Errorf("#slider-rows aria-valuetext %q, want \"64,902 rows\"", got)
	}
	if got := eval[string](tb, `document.getElementById('slider-capacity_bytes').getAttribute('aria-valuetext')`); !strings.HasSuffix(got, "GiB)") || !strings.Contains(got, "bytes") {
		tb.t.Errorf("#slider-capacity_bytes aria-valuetext %q, want bytes with GiB", got)
	}
	chart := eval[string](tb, `(() => { const c = document.getElementById('chart'); const l = document.getElementById(c.getAttribute('aria-labelledby')); return c.getAttribute('role') + '|' + (l ? l.textContent : '<no label>'); })()`)
	role, summary, _ := strings.Cut(chart, "|")
	if role != "group" || !strings.Contains(summary, "along rows") || !strings.Contains(summary, "The candidate ") || !strings.Contains(summary, "The baseline ") {
		tb.t.Errorf("#chart role %q, summary %q", role, summary)
	}
	// The skip link is the first thing Tab reaches, and Enter on it moves
	// the focus to the results.
	tb.do(chromedp.Evaluate[chromedp.Void](`document.activeElement?.blur(); window.focus()`))
	tb.do(chromedp.KeyEvent("\t"))
	if got := eval[string](tb, `document.activeElement?.id ?? ''`); got != "skip-to-results" {
		tb.t.Errorf("the first Tab focuses #%s, want #skip-to-results", got)
	}
	before := tb.historyLength()
	tb.do(chromedp.KeyEvent("\r"))
	tb.waitFor("the skip link followed", `document.activeElement?.id === 'results'`, 15*time.Second)
	if tb.historyLength() != before {
		tb.t.Errorf("the skip link added a history entry")
	}
	if got := eval[string](tb, `document.getElementById('dominates-candidate').textContent`); !strings.Contains(got, "retained checkpoints") {
		tb.t.Errorf("#dominates-candidate %q, want the retained checkpoints named", got)
	}
}

// TestE2EPhoneLayout: at 390x844 the inputs sit right under the chart, the
// page does not scroll sideways, the breakdown's caption is in view, and
// the accessible text is there.
func TestE2EPhoneLayout(t *testing.T) {
	tb := newTab(t)
	tb.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	tb.open(llamaPath + "&rows=64902")
	l := tb.layout()
	if gap := l.Preset.Top - l.Chart.Bottom; gap > 400 {
		t.Errorf("the first input (#preset) sits %.0f px below the chart, want at most 400", gap)
	}
	if l.ScrollWidth > l.InnerWidth+0.5 {
		t.Errorf("the page is %.0f px wide in a %.0f px screen: it scrolls sideways", l.ScrollWidth, l.InnerWidth)
	}
	if l.Caption.Left < 0 || l.Caption.Right > l.InnerWidth+0.5 {
		t.Errorf("the breakdown's caption spans %.0f..%.0f px of a %.0f px screen", l.Caption.Left, l.Caption.Right, l.InnerWidth)
	}
	if l.Chart.Right > l.InnerWidth+0.5 || l.Chart.Width < 300 {
		t.Errorf("the chart spans %.0f..%.0f px", l.Chart.Left, l.Chart.Right)
	}
	// The groups fold: folding Model brings Budget's GPU menu up.
	gpuTop := l.GPU.Top
	tb.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('details.group-fold').open = false`))
	// Folded, the group is its summary alone: #preset, inside it, is gone
	// (layout() needs it), so the GPU menu is measured by itself.
	if after := eval[float64](tb, `document.getElementById('gpu').getBoundingClientRect().top + scrollY`); after >= gpuTop-100 {
		t.Errorf("folding the model group moved the GPU menu from %.0f to %.0f px", gpuTop, after)
	}
	tb.checkA11y()
}

// TestE2EWideLayout: at 1920x1080 the chart fills the room and its legend
// is drawn at 12 px or more.
func TestE2EWideLayout(t *testing.T) {
	tb := newTab(t)
	tb.do(chromedp.EmulateViewport(1920, 1080))
	tb.open(llamaPath + "&rows=64902")
	tb.waitFor("the chart drawn at the wide width", `document.querySelector('#chart svg').viewBox.baseVal.width > 1200`, 15*time.Second)
	l := tb.layout()
	if l.Chart.Width < 1200 || l.Chart.Right > l.InnerWidth {
		t.Errorf("the chart is %.0f px wide (%.0f..%.0f) in a %.0f px screen", l.Chart.Width, l.Chart.Left, l.Chart.Right, l.InnerWidth)
	}
	px := eval[float64](tb, `(() => {
		const svg = document.querySelector('#chart svg');
		const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
		const t = [...svg.querySelectorAll('text')].find(e => e.textContent === 'candidate required');
		return t ? parseFloat(t.getAttribute('font-size')) * scale : 0;
	})()`)
	if px < 12 {
		t.Errorf("the legend's text is %.1f px at 1920 px wide, want at least 12", px)
	}
	if l.Preset.Top > l.Chart.Bottom { // the inputs are beside the chart
		t.Errorf("at 1920 px the inputs (%.0f) are below the chart (%.0f)", l.Preset.Top, l.Chart.Bottom)
	}
	tb.checkA11y()
}

// TestE2EScreenshots writes docs/path-390.png, path-1280.png and
// path-1920.png when HEADROOM_SCREENSHOT is set (make screenshot): a new
// user's path at the example (64,902 rows, the default), a preset
// and a GPU picked from the menus, what dominates and where the decision
// flips in view.
func TestE2EScreenshots(t *testing.T) {
	if os.Getenv("HEADROOM_SCREENSHOT") == "" {
		t.Skip("set HEADROOM_SCREENSHOT=1 to write docs/path-*.png")
	}
	for _, size := range [][2]int64{{390, 844}, {1280, 800}, {1920, 1080}} {
		t.Run(fmt.Sprint(size[0]), func(t *testing.T) {
			tb := newTab(t)
			opts := []chromedp.EmulateViewportOption{}
			if size[0] < 600 {
				opts = append(opts, chromedp.EmulateMobile)
			}
			tb.do(chromedp.EmulateViewport(size[0], size[1], opts...))
			tb.open("")
			tb.do(chromedp.Evaluate[chromedp.Void](`(() => {
				const pick = (id, v) => { const m = document.getElementById(id); m.value = v; m.dispatchEvent(new Event('change', {bubbles: true})); };
				pick('preset', 'llama-3.1-8b');
				pick('gpu', 'h100');
			})()`))
			tb.waitFor("the path taken", `location.search.includes('preset=llama-3.1-8b') && document.getElementById('gpu').value === 'h100' && document.getElementById('input-rows').value === '64902' && document.getElementById('dominates-candidate')?.textContent.includes('retained')`, 15*time.Second)
			if size[0] < 600 {
				// On a phone: fold the inputs done with, so the decisions
				// come up under the chart.
				tb.do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('details.group-fold').forEach(d => d.open = false); document.getElementById('composition-candidate').scrollIntoView({block: 'end'})`))
			} else {
				// The chart at the top, the decisions under it.
				tb.do(chromedp.Evaluate[chromedp.Void](`scrollTo(0, document.querySelector('.layout').getBoundingClientRect().top + scrollY - 8)`))
			}
			tb.do(chromedp.Evaluate[chromedp.Void](`document.fonts.ready.then(() => true)`, chromedp.EvalAwaitPromise))
			png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join("..", "..", "docs", fmt.Sprintf("path-%d.png", size[0]))
			if err := os.WriteFile(out, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s (%d bytes)", out, len(png))
		})
	}
}
