package chart

import (
	"strconv"
	"strings"
	"testing"

	"headroom/estimator"
)

// labelled is the page's edit of a finished SVG that LabelledBy and
// Compact replace, kept as their reference: line breaks after '>' out,
// aria-labelledby after role="img".
func labelled(svg []byte, id string, compact bool) string {
	s := string(svg)
	if compact {
		s = string(compactSVG(append([]byte(nil), svg...)))
	}
	const role = `role="img"`
	if i := strings.Index(s, role); i >= 0 {
		return s[:i] + role + ` aria-labelledby="` + id + `"` + s[i+len(role):]
	}
	return s
}

// sized is the edit Sized replaces: width 100% becomes a size in pixels.
func sized(svg []byte, w, h int) string {
	const prefix = `<svg width="100%"`
	if !strings.HasPrefix(string(svg), prefix) {
		return string(svg)
	}
	return `<svg width="` + strconv.Itoa(w) + `" height="` + strconv.Itoa(h) + `"` + string(svg[len(prefix):])
}

// TestSVGOptions: each option writes what the edit of the finished SVG
// wrote, byte for byte, for the chart, the map and the timeline; without
// options the SVG is as before (the goldens).
func TestSVGOptions(t *testing.T) {
	t.Parallel()
	cfg := estimator.Default()
	in, err := Build(cfg, "rows", 1, 600000, 64)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := SVG(in, 720, 360)
	if err != nil {
		t.Fatal(err)
	}
	page, err := SVG(in, 720, 360, LabelledBy("chart-caption"), Compact())
	if err != nil {
		t.Fatal(err)
	}
	if want := labelled(plain, "chart-caption", true); string(page) != want {
		t.Errorf("LabelledBy and Compact differ from the edit of the plain SVG")
	}
	png, _ := SVG(in, 720, 360, Sized(1200, 600))
	if want := sized(plain, 1200, 600); string(png) != want {
		t.Errorf("Sized differs from the edit of the plain SVG")
	}
	if strings.Contains(string(page), ">\n") || !strings.Contains(string(plain), ">\n") {
		t.Errorf("Compact left a line break after an element, or the plain SVG has none to leave")
	}
	x, y, n := estimator.MapAxis{Axis: "rows", From: 1, To: 600000}, estimator.MapAxis{Axis: "in_use_bytes", From: 0, To: 60 << 30}, 8
	res, err := estimator.Map(cfg, x, y, n)
	if err != nil {
		t.Fatal(err)
	}
	mi := NewMapInput(cfg, res)
	mplain, _, err := MapSVGFrame(mi, 720, 360)
	if err != nil {
		t.Fatal(err)
	}
	mpage, _, _ := MapSVGFrame(mi, 720, 360, LabelledBy("chart-caption"), Compact())
	if want := labelled(mplain, "chart-caption", true); string(mpage) != want {
		t.Errorf("the map: LabelledBy and Compact differ from the edit of the plain SVG")
	}
}

// TestCompactSVG: a line break after an element goes, one inside a text
// stays.
func TestCompactSVG(t *testing.T) {
	t.Parallel()
	got := string(compactSVG([]byte("<svg\n\trole=\"img\">\n<g>\n<text>a &gt;\nb</text>\n</g>\n</svg>\n")))
	if want := "<svg\n\trole=\"img\"><g><text>a &gt;\nb</text></g></svg>"; got != want {
		t.Errorf("compactSVG kept or lost line breaks:\n got %q\nwant %q", got, want)
	}
}
