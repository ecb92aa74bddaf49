package chart

import (
	"bytes"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// TestChartCaption checks that a title and a caption show in the SVG,
// the caption wrapped to the width, and that without them the drawing is
// what it was (the golden test pins that one).
func TestChartCaption(t *testing.T) {
	w, h := goldenSize()
	plain, err := SVG(goldenChart(t, 128), w, h)
	if err != nil {
		t.Fatal(err)
	}
	in := goldenChart(t, 128)
	in.Title = "Headroom: Qwen3-Next-80B-A3B on H200, along rows"
	in.Caption = "preset Qwen3-Next-80B-A3B · GPU H200 (143,771 MiB) · changes on: head_eager_workspace, fc2_known_storage, gdn_early_release · axis rows 1..1,000,000 · 2026-12-01"
	got, err := SVG(in, w, h)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(got, plain) {
		t.Fatal("the title and caption changed nothing")
	}
	for _, want := range []string{"Headroom: Qwen3-Next-80B-A3B on H200, along rows", "gdn_early_release", "2026-12-01", "axis rows"} {
		if !bytes.Contains(got, []byte(want)) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
	for _, tc := range []struct {
		name  string
		width float64
		min   int
	}{{"wide", 2000, 1}, {"narrow", 200, 4}} {
		t.Run(tc.name, func(t *testing.T) {
			sty := textStyle(9)
			lines := wrapText(sty, in.Caption, vgLen(tc.width))
			if len(lines) < tc.min {
				t.Errorf("%d lines at width %v, want at least %d", len(lines), tc.width, tc.min)
			}
			words := func(s string) string { return strings.Join(strings.Fields(strings.ReplaceAll(s, "·", "")), " ") }
			if words(strings.Join(lines, " ")) != words(in.Caption) {
				t.Errorf("wrapping lost words: %q", lines)
			}
			for _, l := range lines {
				if sty.Width(l) > vgLen(tc.width) && strings.Contains(l, " ") {
					t.Errorf("line %q is wider than %v", l, tc.width)
				}
			}
		})
	}
	// A thumbnail still draws, with what of the caption fits.
	if _, err := SVG(in, 120, 60); err != nil {
		t.Errorf("a small captioned chart: %v", err)
	}
}

func vgLen(v float64) vg.Length { return vg.Length(v) }
