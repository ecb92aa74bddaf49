package chart

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"headroom/estimator"
)

// chartLine is one line of the chart; NaN in ys is a gap.
type chartLine struct {
	label  string
	style  draw.LineStyle
	xs, ys []float64
}

// Plot implements plot.Plotter.
func (l *chartLine) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	pts := make([]vg.Point, 0, len(l.xs))
	var runs [][]vg.Point
	start := 0
	for i := range l.xs {
		if math.IsNaN(l.ys[i]) {
			if len(pts)-start > 1 {
				runs = append(runs, pts[start:])
			}
			start = len(pts)
			continue
		}
		pts = append(pts, vg.Point{X: trX(l.xs[i]), Y: trY(l.ys[i])})
	}
	if len(pts)-start > 1 {
		runs = append(runs, pts[start:])
	}
	c.StrokeLines(l.style, c.ClipLinesXY(runs...)...)
}

// chartBands shades the candidate's decision regions behind everything
// and draws the horizontal grid over them.
type chartBands struct {
	regions []region
	grid    []plot.Tick
	pal     *Palette
}

// Plot implements plot.Plotter.
func (b *chartBands) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, r := range b.regions {
		x0, x1 := max(trX(r.x0), c.Min.X), min(trX(r.x1), c.Max.X)
		if x1 > x0 {
			c.SetColor(b.pal.Decision[r.d])
			c.Fill(rectPath(x0, c.Min.Y, x1, c.Max.Y))
		}
	}
	var grid vg.Path
	for _, t := range b.grid {
		if y := trY(t.Value); y > c.Min.Y && y < c.Max.Y {
			grid.Move(vg.Point{X: c.Min.X, Y: y})
			grid.Line(vg.Point{X: c.Max.X, Y: y})
		}
	}
	c.SetLineStyle(lineStyle(b.pal.Grid, 0.6))
	c.Stroke(grid)
}

func rectPath(x0, y0, x1, y1 vg.Length) vg.Path {
	var p vg.Path
	p.Move(vg.Point{X: x0, Y: y0})
	p.Line(vg.Point{X: x1, Y: y0})
	p.Line(vg.Point{X: x1, Y: y1})
	p.Line(vg.Point{X: x0, Y: y1})
	p.Close()
	return p
}

// chartHatch marks where the baseline and the candidate decide differently
// with violet hatching, which leaves the decision's shade readable.
type chartHatch struct {
	spans []region
	col   color.Color
}

// Plot implements plot.Plotter.
func (h *chartHatch) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	for _, s := range h.spans {
		x0, x1 := max(trX(s.x0), c.Min.X), min(trX(s.x1), c.Max.X)
		if x1-x0 < 3 { // too narrow to hatch: a solid sliver
			c.SetColor(h.col)
			c.Fill(rectPath(x0-1, c.Min.Y, x1+1, c.Max.Y))
			continue
		}
		hatchIn(c, vg.Rectangle{Min: vg.Point{X: x0, Y: c.Min.Y}, Max: vg.Point{X: x1, Y: c.Max.Y}}, h.col)
	}
}

// hatch fills r with the Light palette's hatching.
func hatch(c draw.Canvas, r vg.Rectangle) { hatchIn(c, r, colDiffer) }

// hatchIn fills r with 45-degree lines of colour col, at most about 150
// of them however wide r is, so the path stays short.
func hatchIn(c draw.Canvas, r vg.Rectangle, col color.Color) {
	w, ht := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
	step := max(6, (w+ht)/150)
	var path vg.Path
	for o := r.Min.X - ht; o < r.Max.X; o += step {
		t0, t1 := max(0, (r.Min.X-o)/ht), min(1, (r.Max.X-o)/ht)
		if t1 > t0 {
			path.Move(vg.Point{X: o + t0*ht, Y: r.Min.Y + t0*ht})
			path.Line(vg.Point{X: o + t1*ht, Y: r.Min.Y + t1*ht})
		}
	}
	c.SetLineStyle(lineStyle(col, 0.8))
	c.Stroke(path)
}

// chartFlips draws one revision's flips as verticals with a triangle at
// the top (candidate) or the bottom (baseline), so coinciding flips of
// both revisions stay distinct.
type chartFlips struct {
	flips []estimator.Flip
	style draw.LineStyle
	top   bool
}

// Plot implements plot.Plotter.
func (f *chartFlips) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	var lines, marks vg.Path
	for _, fl := range f.flips {
		x := trX(float64(fl.Last) + 0.5)
		if !c.ContainsX(x) {
			continue
		}
		lines.Move(vg.Point{X: x, Y: c.Min.Y})
		lines.Line(vg.Point{X: x, Y: c.Max.Y})
		triangle(&marks, x, c.Min.Y, c.Max.Y, f.top)
	}
	c.SetLineStyle(f.style)
	c.Stroke(lines)
	c.SetColor(f.style.Color)
	c.Fill(marks)
}

// triangle adds to p a 5-point marker at x pointing into the data area
// from its top edge (top) or its bottom edge.
func triangle(p *vg.Path, x, ymin, ymax vg.Length, top bool) {
	y, d := ymin, vg.Length(7)
	if top {
		y, d = ymax, -7
	}
	p.Move(vg.Point{X: x - 4.5, Y: y})
	p.Line(vg.Point{X: x + 4.5, Y: y})
	p.Line(vg.Point{X: x, Y: y + d})
	p.Close()
}

// chartCurrent marks the axis input's current value with a labelled
// vertical.
type chartCurrent struct {
	x     float64
	label string
	scale vg.Length // textScale of the drawing
	pal   *Palette
}

// Plot implements plot.Plotter.
func (m *chartCurrent) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(m.x)
	c.StrokeLine2(lineStyle(m.pal.Ink, 1.2, 2, 2), x, c.Min.Y, x, c.Max.Y)
	sty := m.pal.text(10 * max(1, m.scale))
	sty.YAlign = draw.YTop
	tw, th := sty.Width(m.label), sty.Height(m.label)
	tx := x + 4
	if tx+tw > c.Max.X-2 { // no room on the right: label on the left
		tx = x - 4 - tw
	}
	ty := c.Max.Y - 10
	c.SetColor(m.pal.LabelBack)
	c.Fill(rectPath(tx-2, ty-th-1, tx+tw+2, ty+1))
	c.FillText(sty, vg.Point{X: tx, Y: ty}, m.label)
}
