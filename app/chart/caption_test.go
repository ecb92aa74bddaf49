package chart

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// TestChartCaption checks that a title and a caption show in the SVG,
// the caption wrapped to the width, and that without them the drawing is
// what it was (the golden test pins that one).
func TestChartCaption(t *testing.T) {
	t.Parallel()
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

// TestChartTextScalesWhenWide: up to 1000 points wide the chart's text has
// its nominal sizes (the goldens pin them); a wider drawing, a chart
// filling a 1920 px screen, gets larger text, so the legend stays
// readable.
func TestChartTextScalesWhenWide(t *testing.T) {
	t.Parallel()
	in := goldenChart(t, 64)
	for _, tc := range []struct {
		name  string
		w     vg.Length
		least float64 // the smallest font size in the drawing
	}{{"laptop", 900, 9.9}, {"wide screen", 1300, 12.9}, {"wider still", 1600, 12.9}} {
		t.Run(tc.name, func(t *testing.T) {
			svg, err := SVG(in, tc.w, 420)
			if err != nil {
				t.Fatal(err)
			}
			sizes := fontSizes(svg)
			if len(sizes) == 0 {
				t.Fatal("no text")
			}
			least := sizes[0]
			for _, s := range sizes {
				least = min(least, s)
			}
			if least < tc.least {
				t.Errorf("at %v points the smallest text is %v, want at least %v", tc.w, least, tc.least)
			}
		})
	}
}

// fontSizes lists the font-size attributes of an SVG.
func fontSizes(svg []byte) []float64 {
	var out []float64
	for _, m := range regexp.MustCompile(`font-size="([0-9.]+)`).FindAllSubmatch(svg, -1) {
		if v, err := strconv.ParseFloat(string(m[1]), 64); err == nil {
			out = append(out, v)
		}
	}
	return out
}
