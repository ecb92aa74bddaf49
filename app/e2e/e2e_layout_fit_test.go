//go:build !wasm

package e2e

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"headroom/estimator"
)

// TestE2EObservedTableFits: With four observed points
// at 1280 px the page did not fit its width (scrollWidth 1377): the
// table's last column was cut mid-digit. The table scrolls inside its
// panel, and the page never scrolls sideways.
func TestE2EObservedTableFits(t *testing.T) {
	cfg := readSeedObserved(t)
	p := cfg.Observed
	cfg.Observed = append(p,
		estimator.ObservedPoint{Rows: 120000, PeakBytes: 99780217856, Label: "a longer run of 120,000 rows, measured twice"},
		estimator.ObservedPoint{Rows: 16000, PeakBytes: 70780217856, Label: "short"})
	tb := newTab(t)
	tb.open(query(cfg))
	tb.waitFor("the four points in the table", `document.querySelectorAll('#obs-table tbody tr').length === 4`, 20*time.Second)
	got := eval[string](tb, `(() => {
		const d = document.documentElement, t = document.getElementById('obs-table');
		const s = t.closest('.table-scroll'), r = s.getBoundingClientRect();
		return [d.scrollWidth, d.clientWidth, Math.round(r.right), s.scrollWidth > s.clientWidth].join(' ');
	})()`)
	f := strings.Fields(got)
	if sw, cw := atof(f[0]), atof(f[1]); sw > cw {
		t.Errorf("at 1280 px the page is %s px wide in a %s px window (the table's box ends at %s, scrolls inside: %s)", f[0], f[1], f[2], f[3])
	}
}

func atof(s string) float64 { f, _ := strconv.ParseFloat(s, 64); return f }

// chartLabelsExpr reads the chart's overlay labels: each band label's
// and line label's box, a line label's line end (data-end, CSS px from
// the overlay's top) and whether a leader joins them.
const chartLabelsExpr = `(() => {
	const box = document.getElementById('chart-bands'), o = box.getBoundingClientRect();
	const r = e => { const b = e.getBoundingClientRect(); return {l: b.left - o.left, r: b.right - o.left, t: b.top - o.top, b: b.bottom - o.top}; };
	return JSON.stringify({
		bands: [...box.querySelectorAll('.chart-band-label')].map(e => ({text: e.textContent, box: r(e)})),
		lines: [...box.querySelectorAll('.chart-line-label')].map(e => ({text: e.textContent, box: r(e),
			end: parseFloat(e.dataset.end ?? 'NaN'),
			leader: !!box.querySelector('.chart-line-leader[data-for="' + e.dataset.index + '"]')})),
	});
})()`

type labelBox struct{ L, R, T, B float64 }

type chartLabels struct {
	Bands []struct {
		Text string
		Box  labelBox
	}
	Lines []struct {
		Text   string
		Box    labelBox
		End    float64
		Leader bool
	}
}

func (a labelBox) overlaps(b labelBox) bool {
	return a.L < b.R && b.L < a.R && a.T < b.B && b.T < a.B
}

// TestE2EChartLabelsApart: With a compared H100
// baseline along in_use_bytes, "H200 available" sat on the REFUSE band
// label; along sequence_rows the right-edge labels stacked 30-40 px from
// their lines with nothing joining them. No line label overlaps a band
// label or another line label, and a label moved more than 4 px from its
// line's end has a leader to it.
func TestE2EChartLabelsApart(t *testing.T) {
	for _, c := range []struct{ name, query string }{
		{"compared H100 along in_use_bytes", "?preset=qwen3-next-80b-a3b&gpu=h200&rows=64902&in_use_bytes=0&axis=in_use_bytes&b.capacity_bytes=" + strconv.FormatInt(estimator.H100CapacityBytes, 10)},
		{"along sequence_rows", "?preset=qwen3-next-80b-a3b&gpu=h200&rows=64902&in_use_bytes=0&axis=sequence_rows"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTab(t)
			tb.open(c.query)
			tb.waitFor("the line labels", `document.querySelectorAll('#chart-bands .chart-line-label').length >= 2`, 20*time.Second)
			var got chartLabels
			raw := eval[string](tb, chartLabelsExpr)
			if err := json.Unmarshal([]byte(raw), &got); err != nil {
				t.Fatal(err)
			}
			for i, l := range got.Lines {
				for _, b := range got.Bands {
					if l.Box.overlaps(b.Box) {
						t.Errorf("%q %+v sits on the band label %q %+v", l.Text, l.Box, b.Text, b.Box)
					}
				}
				for _, m := range got.Lines[i+1:] {
					if l.Box.overlaps(m.Box) {
						t.Errorf("%q %+v sits on %q %+v", l.Text, l.Box, m.Text, m.Box)
					}
				}
				mid := (l.Box.T + l.Box.B) / 2
				if math.IsNaN(l.End) || (math.Abs(mid-l.End) > 4 && !l.Leader) {
					t.Errorf("%q is centred at %.0f px, its line ends at %.0f px, and no leader joins them", l.Text, mid, l.End)
				}
			}
			t.Logf("%s", raw)
		})
	}
}

// TestE2EPhoneFrictions: the phone at 390x844 with a
// touch screen: the sticky chart took 62-75 % of the height (keep it
// under half), the legend's text was about 8 px (at least 11), the
// breakdown scrolled sideways with no cue, and the mouse help showed.
func TestE2EPhoneFrictions(t *testing.T) {
	tb := newTab(t)
	tb.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	tb.open(llamaPath + "&rows=64902&gpu=h100&in_use_bytes=0")
	tb.waitFor("the chart drawn", `!!document.querySelector('#chart svg')`, 20*time.Second)
	// Scrolled to the inputs, as a reader changing them is: what the
	// sticky results take of the screen is what is left in view.
	tb.do(chromedp.Evaluate[chromedp.Void](`document.getElementById('preset').scrollIntoView({block: 'center'})`))
	raw := eval[string](tb, `(() => {
		const b = document.getElementById('results').getBoundingClientRect();
		const r = {height: Math.min(b.bottom, innerHeight) - Math.max(b.top, 0)};
		const svg = document.querySelector('#chart svg');
		const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
		const t = [...svg.querySelectorAll('text')].find(e => e.textContent === 'candidate required');
		const vis = id => { const e = document.getElementById(id); return !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden'; };
		const sc = document.querySelector('.table .table-scroll');
		return JSON.stringify({sticky: getComputedStyle(document.getElementById('results')).position, height: r.height, inner: innerHeight,
			legend: t ? parseFloat(t.getAttribute('font-size')) * scale : 0,
			scrolls: sc.scrollWidth > sc.clientWidth, cue: vis('breakdown-scroll-cue'),
			mouseHelp: vis('chart-help-pointer') || (vis('chart-help') && /click|drag|Point to read/.test(document.getElementById('chart-help').innerText))});
	})()`)
	var got struct {
		Sticky        string
		Height, Inner float64
		Legend        float64
		Scrolls, Cue  bool
		MouseHelp     bool
	}
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", raw)
	if got.Sticky == "sticky" && got.Height >= got.Inner/2 {
		t.Errorf("the sticky chart is %.0f px of a %.0f px screen, want under half", got.Height, got.Inner)
	}
	if got.Legend < 11 {
		t.Errorf("the legend's text is %.1f px, want at least 11", got.Legend)
	}
	if got.Scrolls && !got.Cue {
		t.Errorf("the breakdown scrolls sideways with no cue (#breakdown-scroll-cue)")
	}
	if got.MouseHelp {
		t.Errorf("the mouse help shows on a touch screen")
	}
}
