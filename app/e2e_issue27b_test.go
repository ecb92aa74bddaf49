//go:build !wasm

package main

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"headroom/estimator"
)

// TestE2EObservedTableFits: issue 27, defect 7. With four observed points
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
