package chart

import (
	"bytes"
	"errors"
	"image/color"
	"math"
	"testing"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"headroom/app/ui/page"
	"headroom/estimator"
	"headroom/estimator/urlquery"
)

// renderVgsvg is SVG as it was: gonum's vgsvg, then fitSVG.
func renderVgsvg(in Input, width, height vg.Length) ([]byte, error) {
	c := vgsvg.NewWith(vgsvg.UseWH(width, height))
	if _, err := drawChart(in, draw.New(c)); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return fitSVG(buf.Bytes())
}

// TestSVGCanvasMatchesVgsvg: svgCanvas writes, byte for byte, what vgsvg
// and fitSVG wrote, for charts along several axes, at several sizes, of
// several configs, with and without a title.
func TestSVGCanvasMatchesVgsvg(t *testing.T) {
	t.Parallel()
	pressure := estimator.Default()
	pressure.Budget.InUseBytes = 63<<30 + 3<<28
	noMoE := estimator.Default()
	noMoE.Model.NumExpertsPerTok = 0
	for _, cfg := range []estimator.Config{estimator.Default(), pressure, noMoE} {
		for _, axis := range []string{"rows", "vocab_size", "chunk_rows", "hidden_size", "capacity_bytes", "in_use_bytes"} {
			from, to := page.DefaultRange(axis, cfg)
			in, err := Build(cfg, axis, from, to, estimator.DefaultPoints)
			if err != nil {
				t.Fatal(err)
			}
			for _, title := range []string{"", "a <title> & more"} {
				in.Title = title
				for _, size := range [][2]vg.Length{{960, 540}, {720, 360}, {320, 240}, {1600, 420}, {100, 50}} {
					want, err := renderVgsvg(in, size[0], size[1])
					if err != nil {
						t.Fatal(err)
					}
					got, err := SVG(in, size[0], size[1])
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want) {
						i := 0
						for i < min(len(got), len(want)) && got[i] == want[i] {
							i++
						}
						t.Errorf("%s along %s, %v, title %q: differs from vgsvg at byte %d:\n got ...%s...\nwant ...%s...",
							urlquery.Encode(cfg).Encode(), axis, size, title, i,
							got[max(0, i-80):min(len(got), i+80)], want[max(0, i-80):min(len(want), i+80)])
					}
				}
			}
		}
	}
}

// TestSVGCanvasShapes draws what the chart does not (arcs, circles,
// curves, transparent and translucent colours, dashes with an offset,
// rotations, scales, black fills, escaped text) on both canvases.
func TestSVGCanvasShapes(t *testing.T) {
	t.Parallel()
	draws := func(c vg.Canvas) {
		fnt := font.From(chartFont, 10)
		face := chartPlain.Fonts.Lookup(fnt, fnt.Size)
		var p vg.Path
		p.Move(vg.Point{X: 10, Y: 10})
		p.Line(vg.Point{X: 20.123456, Y: 30.5})
		p.Arc(vg.Point{X: 50, Y: 50}, 10, 0, math.Pi/3)
		p.Arc(vg.Point{X: 80, Y: 50}, 5, 1, -2*math.Pi)
		p.Arc(vg.Point{X: 90, Y: 50}, 5, 0, 3*math.Pi)
		p.QuadTo(vg.Point{X: 1, Y: 2}, vg.Point{X: 3, Y: 4})
		p.CubeTo(vg.Point{X: 1, Y: 2}, vg.Point{X: 3, Y: 4}, vg.Point{X: 5e-7, Y: 1e9})
		p.Close()
		for _, col := range []color.Color{color.Black, nil, color.NRGBA{R: 10, G: 200, B: 30, A: 0x80},
			color.NRGBA{R: 255, A: 0}, color.Gray{Y: 7}} {
			c.SetColor(col)
			c.Fill(p)
			c.SetLineWidth(1)
			c.Stroke(p)
			c.SetLineWidth(0)
			c.Stroke(p)
			c.SetLineWidth(2.5)
			c.SetLineDash([]vg.Length{3, 1.5}, 0.75)
			c.Stroke(p)
			c.SetLineDash(nil, 0)
			c.FillString(face, vg.Point{X: 1, Y: -2}, `<a & "b">`)
		}
		c.Push()
		c.Rotate(math.Pi / 7)
		c.Translate(vg.Point{X: 1.5, Y: -2})
		c.Scale(2, 0.5)
		c.FillString(face, vg.Point{X: 3, Y: 4}, "rotated")
		c.Push()
		c.Rotate(1)
		c.Pop()
		c.Pop()
		c.Rotate(-1)
	}
	v := vgsvg.NewWith(vgsvg.UseWH(200, 100))
	draws(v)
	var buf bytes.Buffer
	if _, err := v.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	want, err := fitSVG(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	s := newSVGCanvas(200, 100)
	draws(s)
	if got := s.bytes(); !bytes.Equal(got, want) {
		t.Errorf("svgCanvas:\n%s\nvgsvg and fitSVG:\n%s", got, want)
	}
}

// fitSVG turns vgsvg's document into what SVG returns: no XML
// prolog and comment before <svg>, a drawing that scales to its container,
// each style="..." attribute written as presentation attributes, and
// fallbacks after the Liberation family. The chart rendered this way
// until svgCanvas replaced vgsvg; it stays as the test's reference.
func fitSVG(doc []byte) ([]byte, error) {
	start := bytes.Index(doc, []byte("<svg"))
	view := bytes.Index(doc, []byte(" viewBox="))
	if start < 0 || view < start {
		return nil, errors.New("chart: unexpected SVG header")
	}
	out := make([]byte, 0, len(doc)+len(doc)/8)
	out = append(out, `<svg width="100%" preserveAspectRatio="xMidYMid meet" role="img"`...)
	rest := doc[view:]
	for {
		i := bytes.Index(rest, styleAttr)
		if i < 0 {
			break
		}
		out = append(out, rest[:i]...)
		rest = rest[i+len(styleAttr):]
		end := bytes.IndexByte(rest, '"')
		if end < 0 {
			return nil, errors.New("chart: unterminated style attribute")
		}
		out = appendPresentation(out, rest[:end])
		rest = rest[end+1:]
	}
	return append(out, rest...), nil
}

var styleAttr = []byte(`style="`)

// appendPresentation appends the declarations of a style attribute
// ("fill:#FFFFFF;stroke:none") as presentation attributes
// (fill="#FFFFFF" stroke="none"). vgsvg writes only properties that are
// SVG presentation attributes, and values without quotes.
func appendPresentation(out, decls []byte) []byte {
	first := true
	for len(decls) > 0 {
		d := decls
		if i := bytes.IndexByte(decls, ';'); i >= 0 {
			d, decls = decls[:i], decls[i+1:]
		} else {
			decls = nil
		}
		name, value, ok := bytes.Cut(d, []byte{':'})
		if !ok {
			continue
		}
		if !first {
			out = append(out, ' ')
		}
		first = false
		out = append(out, bytes.TrimSpace(name)...)
		out = append(out, '=', '"')
		if value = bytes.TrimSpace(value); string(name) == "font-family" && string(value) == chartFamily {
			out = append(out, chartFamily+",Arial,Helvetica,sans-serif"...)
		} else {
			out = append(out, value...)
		}
		out = append(out, '"')
	}
	return out
}

func TestAppendPresentation(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ style, want string }{
		{"fill:#FFFFFF", `fill="#FFFFFF"`},
		{"fill:none;stroke:#222222;stroke-width:0.5", `fill="none" stroke="#222222" stroke-width="0.5"`},
		{"fill:none;stroke:#D55E00;stroke-width:1.6;stroke-dasharray:5,3", `fill="none" stroke="#D55E00" stroke-width="1.6" stroke-dasharray="5,3"`},
		{"font-family:Liberation Sans;font-size:10px;fill:#222222",
			`font-family="Liberation Sans,Arial,Helvetica,sans-serif" font-size="10px" fill="#222222"`},
		{"font-family:Other Sans", `font-family="Other Sans"`},
		{" fill : #000 ;; stroke:none;", `fill="#000" stroke="none"`},
		{"", ""},
	} {
		t.Run(c.style, func(t *testing.T) {
			if got := string(appendPresentation(nil, []byte(c.style))); got != c.want {
				t.Errorf("style %q: got %s, want %s", c.style, got, c.want)
			}
		})
	}
}

// TestChartHasNoStyleAttribute: the server's Content-Security-Policy
// refuses inline styles, so no chart may carry one, whatever it shows.
func TestChartHasNoStyleAttribute(t *testing.T) {
	t.Parallel()
	for _, axis := range []string{"rows", "vocab_size", "capacity_bytes"} {
		cfg := estimator.Default()
		from, to := page.DefaultRange(axis, cfg)
		in, err := Build(cfg, axis, from, to, 128)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range [][2]float64{{960, 540}, {320, 240}} {
			svg, err := SVG(in, vg.Length(size[0]), vg.Length(size[1]))
			if err != nil {
				t.Fatal(err)
			}
			for _, bad := range []string{` style=`, "\tstyle=", "\nstyle=", "<style"} {
				i := bytes.Index(svg, []byte(bad))
				if i < 0 {
					continue
				}
				t.Errorf("%s at %v: the SVG has a style: ...%s...", axis, size, svg[max(0, i-40):min(len(svg), i+60)])
			}
		}
	}
}
