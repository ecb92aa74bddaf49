package chart

import (
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"image"
	_ "image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"headroom/estimator"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// goldenChart is the golden test's chart: the default config along rows.
func goldenChart(t testing.TB, points int) Input {
	t.Helper()
	in, err := Build(estimator.Default(), "rows", 1, 1_000_000, points)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// goldenSize is the SVG size of the golden file: what the plot command
// draws for its default 1600x900 PNG size, so both share one golden.
func goldenSize() (vg.Length, vg.Length) { return LogicalSize(1600, 900) }

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./app/chart -run Golden -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		lo := max(0, i-80)
		t.Errorf("%s differs at byte %d (go test ./app/chart -run Golden -update refreshes it):\ngot  ...%s\nwant ...%s",
			path, i, clipAt(got, lo, i+80), clipAt(want, lo, i+80))
	}
}

func clipAt(b []byte, lo, hi int) string { return string(b[min(lo, len(b)):min(hi, len(b))]) }

func TestChartGoldenSVG(t *testing.T) {
	t.Parallel()
	w, h := goldenSize()
	got, err := SVG(goldenChart(t, 128), w, h)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "chart_rows.golden.svg", got)
}

// legendLabels are the legend entries the default config shows.
var legendLabels = []string{"candidate required", "baseline required", "lower bound", "available",
	"activations (whole request)", "head (whole request)", "fc2 (whole request)", "gdn (whole request)", "retained (whole request)", "admit", "split", "refuse",
	"decisions differ", "candidate flip", "baseline flip"}

func TestChartSVGIsOneSVGElement(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]vg.Length{{1280, 800}, {390, 300}} {
		svg, err := SVG(goldenChart(t, 128), size[0], size[1])
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(svg, []byte("<svg ")) {
			t.Fatalf("%v: does not start with <svg: %.40q", size, svg)
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
				t.Fatalf("%v: not XML: %v", size, err)
			}
			switch tok := tok.(type) {
			case xml.StartElement:
				if depth == 0 {
					roots++
					if tok.Name.Local != "svg" {
						t.Errorf("%v: root is <%s>", size, tok.Name.Local)
					}
					if attr(tok, "width") != "100%" || attr(tok, "viewBox") == "" {
						t.Errorf("%v: root does not scale: width=%q viewBox=%q", size, attr(tok, "width"), attr(tok, "viewBox"))
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
			t.Errorf("%v: %d root elements, want 1", size, roots)
		}
		all := strings.Join(texts, "\n")
		for _, l := range append(legendLabels, "rows", "GiB", "rows = 64,902") {
			if !strings.Contains(all, l) {
				t.Errorf("%v: no text %q", size, l)
			}
		}
	}
}

func attr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func TestChartPNG(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{1600, 900}, {390, 260}, {1001, 333}} {
		png, err := PNG(goldenChart(t, 128), size[0], size[1])
		if err != nil {
			t.Fatal(err)
		}
		checkPNG(t, png, size[0], size[1])
	}
}

// checkPNG checks a PNG's size and that it is not blank.
func checkPNG(t *testing.T, data []byte, w, h int) {
	t.Helper()
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || format != "png" {
		t.Fatalf("not a PNG (%q): %v", format, err)
	}
	if cfg.Width != w || cfg.Height != h {
		t.Errorf("PNG is %dx%d, want %dx%d", cfg.Width, cfg.Height, w, h)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	colours := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, a := img.At(x, y).RGBA()
			colours[[4]uint32{r, g, bl, a}] = true
		}
	}
	if len(colours) < 8 {
		t.Errorf("PNG looks blank: %d distinct colours", len(colours))
	}
}

// TestChartNeverPanics feeds inputs a broken caller could pass: they
// come back as errors or charts, never as panics.
func TestChartNeverPanics(t *testing.T) {
	t.Parallel()
	good := goldenChart(t, 16)
	invalid, err := Build(estimator.Default(), "capacity_bytes", 1, 200<<30, 64)
	if err != nil {
		t.Fatal(err)
	}
	allInvalid := good
	allInvalid.Points = []estimator.Point{{X: 1, Error: "x: bad"}, {X: 2, Error: "x: bad"}}
	allInvalid.Candidate, allInvalid.Baseline = nil, nil
	single := good
	single.From, single.To, single.Points = 5, 5, good.Points[:1]
	cases := []struct {
		name    string
		in      Input
		w, h    vg.Length
		wantErr bool
	}{
		{"zero input", Input{}, 400, 300, true},
		{"no points", Input{Axis: good.Axis, From: 1, To: 2}, 400, 300, true},
		{"reversed range", Input{Axis: good.Axis, From: 3, To: 2, Points: good.Points}, 400, 300, true},
		{"zero size", good, 0, 0, true},
		{"NaN size", good, vg.Length(math.NaN()), 300, true},
		{"huge size", good, 1e9, 300, true},
		{"tiny", good, 16, 16, false},
		{"invalid points", invalid, 400, 300, false},
		{"all invalid", allInvalid, 400, 300, false},
		{"single x", single, 400, 300, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			svg, err := SVG(c.in, c.w, c.h)
			if (err != nil) != c.wantErr {
				t.Errorf("err = %v, want error %v", err, c.wantErr)
			}
			if err == nil && !bytes.HasPrefix(svg, []byte("<svg")) {
				t.Errorf("not an SVG")
			}
		})
	}
}

// TestChartFlipsKept checks that downsampling keeps the grid points on
// both sides of every decision change.
func TestChartFlipsKept(t *testing.T) {
	t.Parallel()
	in := goldenChart(t, 512)
	keep := flipNeighbours(in.Points)
	xs := make([]float64, len(in.Points))
	for i := range in.Points {
		xs[i] = float64(in.Points[i].X)
	}
	ys, _ := readLine(in.Points, func(p *estimator.Point) (int64, bool) { return p.Rev[1].RequiredBytes, true })
	ox, oy := simplify(xs, ys, keep, 1e-3, 1, 0.25)
	kept := map[float64]bool{}
	for _, x := range ox {
		kept[x] = true
	}
	n := 0
	for i, k := range keep {
		if k {
			n++
			if !kept[xs[i]] {
				t.Errorf("x = %v dropped", xs[i])
			}
		}
	}
	if n == 0 || len(ox) >= len(xs) {
		t.Errorf("%d flip neighbours, %d of %d points kept", n, len(ox), len(xs))
	}
	// Every dropped point lies within the tolerance of the drawn line.
	for i, x := range xs {
		j := sort.SearchFloat64s(ox, x)
		if j == len(ox) || ox[j] == x {
			continue
		}
		at := oy[j-1] + (oy[j]-oy[j-1])*(x-ox[j-1])/(ox[j]-ox[j-1])
		if d := math.Abs(at - ys[i]); d > 0.25+1e-9 {
			t.Errorf("x = %v: drawn %v, value %v (%v GiB off)", x, at, ys[i], d)
		}
	}
}

func TestSimplifyKeepsShape(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	xs := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8}
	ys := []float64{0, 1, 2, 3, nan, 5, 5, 9, 9}
	ox, oy := simplify(xs, ys, make([]bool, len(xs)), 1, 1, 0.25)
	var parts []string
	for i := range ox {
		parts = append(parts, fmt.Sprintf("%g:%g", ox[i], oy[i]))
	}
	got := strings.Join(parts, " ")
	if want := "0:0 3:3 4:NaN 5:5 6:5 7:9 8:9"; got != want {
		t.Errorf("simplify = %q, want %q", got, want)
	}
}

func TestNiceTicks(t *testing.T) {
	t.Parallel()
	cases := []struct {
		lo, hi, unit float64
		n            int
		want         string
	}{
		{1, 1_000_000, 1, 5, "200k 400k 600k 800k 1M"},
		{0, 212.4, 1, 5, "0 50 100 150 200"},
		{0, 1.3, 1, 4, "0.0 0.5 1.0"},
		{1 << 30, 200 << 30, 1 << 30, 4, "50 100 150 200"},
		{0, 20, 1, 8, "0 5 10 15 20"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			var labels []string
			for _, tk := range niceTicks(c.lo, c.hi, c.unit, c.n) {
				labels = append(labels, tk.Label)
			}
			if got := strings.Join(labels, " "); got != c.want {
				t.Errorf("niceTicks(%v, %v, %v, %d) = %q, want %q", c.lo, c.hi, c.unit, c.n, got, c.want)
			}
		})
	}
	for _, c := range []struct {
		v, step float64
		want    string
	}{{1_000_001, 1, "1,000,001"}, {1_250_000, 50_000, "1.25M"}, {0.25, 0.05, "0.25"}, {50, 10, "50"}, {3e9, 1e9, "3G"}} {
		t.Run("compact "+c.want, func(t *testing.T) {
			if got := compactNumber(c.v, c.step); got != c.want {
				t.Errorf("compactNumber(%v, %v) = %q, want %q", c.v, c.step, got, c.want)
			}
		})
	}
	if ticks := niceTicks(3, 3, 1, 5); ticks != nil {
		t.Errorf("empty span: %v", ticks)
	}
}

// BenchmarkChartRenderSVG is the slider's cost: one SVG render of the
// default config along rows at the default grid size.
func BenchmarkChartRenderSVG(b *testing.B) {
	in := goldenChart(b, estimator.DefaultPoints)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SVG(in, 960, 540); err != nil {
			b.Fatal(err)
		}
	}
}
