package chart

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"headroom/estimator"
)

// Axes of the golden map: the README's.
var (
	goldenMapX = estimator.MapAxis{Axis: "rows", From: 1, To: 600_000}
	goldenMapY = estimator.MapAxis{Axis: "in_use_bytes", From: 0, To: 120_000_000_000}
)

// pressureConfig is the FC2 seed's pressure run (examples/pressure.json):
// 63.75 GiB already in use, so the decisions flip within the map.
func pressureConfig() estimator.Config {
	c := estimator.Default()
	c.Request.Rows = 200000
	c.Budget.InUseBytes = 68451041280
	return c
}

// goldenMap is the golden test's map: the pressure config, rows across,
// memory in use up, in the default 128 columns.
func goldenMap(t testing.TB) MapInput {
	t.Helper()
	cfg := pressureConfig()
	res, err := estimator.Map(cfg, goldenMapX, goldenMapY, estimator.DefaultColumns)
	if err != nil {
		t.Fatal(err)
	}
	return NewMapInput(cfg, res)
}

func TestMapChartGoldenSVG(t *testing.T) {
	t.Parallel()
	w, h := goldenSize()
	got, err := MapSVG(goldenMap(t), w, h)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "map_rows_in_use.golden.svg", got)
}

// mapLegendLabels are the legend entries of the golden map.
var mapLegendLabels = []string{"candidate admits", "candidate splits", "candidate refuses", "decisions differ",
	"candidate boundary", "baseline boundary", "current config"}

// svgTexts checks that svg is one scalable <svg> element and returns its
// text.
func svgTexts(t *testing.T, svg []byte) string {
	t.Helper()
	if !bytes.HasPrefix(svg, []byte("<svg ")) {
		t.Fatalf("does not start with <svg: %.40q", svg)
	}
	var texts []string
	roots, depth := 0, 0
	dec := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				if tok.Name.Local != "svg" || attr(tok, "width") != "100%" || attr(tok, "viewBox") == "" {
					t.Errorf("root <%s> width=%q viewBox=%q", tok.Name.Local, attr(tok, "width"), attr(tok, "viewBox"))
				}
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			texts = append(texts, string(tok))
		}
	}
	if roots != 1 {
		t.Errorf("%d root elements, want 1", roots)
	}
	return strings.Join(texts, "\n")
}

// TestMapChartText: the title, the summary (wrapped, so checked word by
// word), the axes, the legend and the current config's label are in the
// picture, at a desktop size and a phone's.
func TestMapChartText(t *testing.T) {
	t.Parallel()
	in := goldenMap(t)
	if !strings.HasPrefix(in.Summary, "The candidate differs on 5.1 % of this plane: at rows 198,425 it splits") {
		t.Fatalf("summary %q", in.Summary)
	}
	for _, size := range [][2]vg.Length{{1280, 800}, {390, 700}} {
		svg, err := MapSVG(in, size[0], size[1])
		if err != nil {
			t.Fatal(err)
		}
		all := svgTexts(t, svg)
		want := append([]string{"Decision map: in_use_bytes against rows", "rows", "in_use_bytes (GiB)",
			"rows = 200,000, in_use_bytes = 63.750 GiB"}, mapLegendLabels...)
		want = append(want, strings.Fields(in.Summary)...)
		for _, s := range want {
			if !strings.Contains(all, s) {
				t.Errorf("%v: no text %q", size, s)
			}
		}
	}
}

// TestMapChartPNG: the PNG has the size asked for and is not blank.
func TestMapChartPNG(t *testing.T) {
	t.Parallel()
	in := goldenMap(t)
	for _, size := range [][2]int{{1600, 900}, {390, 260}} {
		png, err := MapPNG(in, size[0], size[1])
		if err != nil {
			t.Fatal(err)
		}
		checkPNG(t, png, size[0], size[1])
	}
}

// TestMapCellsCoverThePlane: the columns' cells tile [x.From, x.To]
// without gaps or overlaps, in order.
func TestMapCellsCoverThePlane(t *testing.T) {
	t.Parallel()
	in := goldenMap(t)
	m := &in.Map
	cells := mapCells(m, float64(m.X.From), float64(m.X.To))
	if cells[0].x0 != float64(m.X.From) || cells[len(cells)-1].x1 != float64(m.X.To) {
		t.Fatalf("cells cover %v..%v", cells[0].x0, cells[len(cells)-1].x1)
	}
	for i := 1; i < len(cells); i++ {
		if cells[i].x0 != cells[i-1].x1 || cells[i].x1 <= cells[i].x0 {
			t.Fatalf("cell %d: %v..%v after %v..%v", i, cells[i].x0, cells[i].x1, cells[i-1].x0, cells[i-1].x1)
		}
		if x := float64(m.Columns[i].X); x < cells[i].x0 || x > cells[i].x1 {
			t.Fatalf("column %d at %v outside its cell %v..%v", i, x, cells[i].x0, cells[i].x1)
		}
	}
}

// TestMapChartBadInput: what a broken caller could pass comes back as an
// error, never a panic; odd but valid maps draw.
func TestMapChartBadInput(t *testing.T) {
	t.Parallel()
	good := goldenMap(t)
	noCols := good
	noCols.Map.Columns = nil
	badAxis := good
	badAxis.Map.X.Axis = "colour"
	empty := good
	empty.Map.Y.From, empty.Map.Y.To = 10, 5
	for _, tc := range []struct {
		name string
		in   MapInput
		w, h vg.Length
		want string
	}{
		{"no columns", noCols, 960, 540, "no columns"},
		{"unknown axis", badAxis, 960, 540, "unknown axis"},
		{"empty range", empty, 960, 540, "empty range"},
		{"zero size", good, 0, 540, "chart size"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := MapSVG(tc.in, tc.w, tc.h)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
	one, err := estimator.Map(pressureConfig(), estimator.MapAxis{Axis: "rows", From: 5, To: 5},
		estimator.MapAxis{Axis: "vocab_size", From: 7, To: 7}, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   MapInput
		w, h vg.Length
	}{
		{"thumbnail", good, 100, 60},
		{"one point", NewMapInput(pressureConfig(), one), 480, 320},
		{"no current", MapInput{Map: good.Map}, 480, 320},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := MapSVG(tc.in, tc.w, tc.h); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestMapSVGFrame: the frame's plane is inside the picture and maps the
// map's ranges, and the SVG is MapSVG's.
func TestMapSVGFrame(t *testing.T) {
	t.Parallel()
	cfg := estimator.Default()
	res, err := estimator.Map(cfg, estimator.MapAxis{Axis: "rows", From: 1, To: 600000},
		estimator.MapAxis{Axis: "in_use_bytes", From: 0, To: 120000000000}, 16)
	if err != nil {
		t.Fatal(err)
	}
	in := NewMapInput(cfg, res)
	svg, f, err := MapSVGFrame(in, 720, 420)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := MapSVG(in, 720, 420)
	if err != nil {
		t.Fatal(err)
	}
	if string(svg) != string(plain) {
		t.Error("MapSVGFrame's SVG differs from MapSVG's")
	}
	if !(f.Plot.Left > 0 && f.Plot.Right < 720 && f.Plot.Top > 0 && f.Plot.Bottom < 420 && f.Plot.Left < f.Plot.Right && f.Plot.Top < f.Plot.Bottom) {
		t.Errorf("plane %+v is not inside 720x420", f.Plot)
	}
	if f.XMin != 1 || f.XMax != 600000 || f.YMin != 0 || f.YMax != 120000000000 {
		t.Errorf("frame ranges %v..%v, %v..%v", f.XMin, f.XMax, f.YMin, f.YMax)
	}
}
