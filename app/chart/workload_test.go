package chart

import (
	"strings"
	"testing"

	"headroom/estimator"
)

// TestNewHistogram: bins of equal width from 1, weighted by count, every
// request in one bin.
func TestNewHistogram(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name         string
		rows, counts []int32
		width        int64
		want         map[int]int64 // bin: requests; the rest 0
	}{
		{"one line", []int32{1}, []int32{1}, 1, map[int]int64{0: 1}},
		{"edges", []int32{60, 61, 120, 1}, []int32{2, 3, 4, 5}, 2, map[int]int64{29: 2, 30: 3, 59: 4, 0: 5}},
		{"wide", []int32{1 << 30, 1}, []int32{7, 1 << 30}, (1<<30 + 59) / 60, map[int]int64{59: 7, 0: 1 << 30}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := NewHistogram(tc.rows, tc.counts)
			if h.Width != tc.width || len(h.Requests) != HistogramBins {
				t.Fatalf("width %d, %d bins; want %d, %d", h.Width, len(h.Requests), tc.width, HistogramBins)
			}
			for i, n := range h.Requests {
				if n != tc.want[i] {
					t.Errorf("bin %d: %d requests, want %d", i, n, tc.want[i])
				}
			}
		})
	}
}

// TestWorkloadSVG draws a workload over the pressure config's decisions:
// one <svg>, the bars, the three bands, no inline style; a sweep along
// another axis is refused.
func TestWorkloadSVG(t *testing.T) {
	t.Parallel()
	cfg := estimator.Default()
	cfg.Request.Rows = 200000
	cfg.Budget.InUseBytes = 68451041280
	h := NewHistogram([]int32{1000, 150000, 230000, 400000, 900000}, []int32{5, 3, 2, 1, 1})
	in, err := Build(cfg, "rows", 1, h.To(), 64)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := WorkloadSVG(h, in, 720, 320)
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	if !strings.HasPrefix(s, "<svg") || strings.Count(s, "<svg") != 1 || strings.Contains(s, " style=") {
		t.Errorf("not one <svg> without inline styles: %.200s", s)
	}
	for _, want := range []string{"requests", "admit", "split", "refuse", "candidate flip", "baseline flip"} {
		if !strings.Contains(s, ">"+want) {
			t.Errorf("the SVG has no text %q", want)
		}
	}
	other, _ := Build(cfg, "vocab_size", 1, 1000, 16)
	if _, err := WorkloadSVG(h, other, 720, 320); err == nil {
		t.Error("a sweep along vocab_size was drawn under a histogram along rows")
	}
}
