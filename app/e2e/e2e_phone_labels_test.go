//go:build !wasm

package e2e

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"headroom/estimator"
)

// TestE2EPhoneLineLabels: at 390 px the nine line labels of a compared
// H100 stacked over the chart's right half and above its top. On a
// narrow chart the legend names the lines and no label is drawn over
// the plot; the band labels, laid out by the same code, still are.
func TestE2EPhoneLineLabels(t *testing.T) {
	tb := newTab(t)
	tb.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	tb.open("?preset=qwen3-next-80b-a3b&gpu=h200&rows=64902&b.capacity_bytes=" + strconv.FormatInt(estimator.H100CapacityBytes, 10))
	tb.waitFor("the band labels laid out", `document.querySelectorAll('#chart-bands .chart-band-label').length >= 1`, 30*time.Second)
	raw := eval[string](tb, `JSON.stringify({
		lines: document.querySelectorAll('#chart-bands .chart-line-label').length,
		width: document.getElementById('chart').getBoundingClientRect().width,
		legend: [...document.querySelectorAll('#chart svg text')].some(e => / required$/.test(e.textContent))})`)
	var got struct {
		Lines  int
		Width  float64
		Legend bool
	}
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatal(err)
	}
	if got.Width >= 480 || got.Lines != 0 || !got.Legend {
		t.Errorf("at 390 px: %s; want no line label over a chart under 480 px wide, the legend naming the lines", raw)
	}
}
