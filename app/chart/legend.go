package chart

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"headroom/estimator"
)

// legendEntry is one item of the legend: a thumbnail and a label.
type legendEntry struct {
	label string
	thumb func(c draw.Canvas, r vg.Rectangle)
	x     vg.Length // set by layout
	row   int
}

// legendBox is a legend that flows its entries into rows under the plot,
// so it stays readable on a narrow screen without covering the data.
type legendBox struct {
	entries    []legendEntry
	sty        text.Style
	rowH       vg.Length
	thumb, sep vg.Length // thumbnail width, space between entries
}

const (
	legendPad = 6
	legendGap = 4
)

// chartLegend lists the drawn lines, the decision shades, the differing
// band and the flip markers (named for the revisions, baseline first), a
// size smaller on a phone-sized width w.
func chartLegend(lines []*chartLine, regions []region, names [2]string, w vg.Length, pal *Palette) *legendBox {
	lb := &legendBox{sty: pal.text(10 * textScale(w)), thumb: 18 * textScale(w), sep: 12}
	if w < 600 { // a phone: text of 11 px at the least, a smaller thumb
		lb.sty, lb.thumb, lb.sep = pal.text(11), 14, 8
	}
	lb.sty.YAlign = draw.YCenter
	add := func(label string, thumb func(draw.Canvas, vg.Rectangle)) {
		lb.entries = append(lb.entries, legendEntry{label: label, thumb: thumb})
	}
	for _, l := range lines {
		sty := l.style
		add(l.label, func(c draw.Canvas, r vg.Rectangle) {
			y := (r.Min.Y + r.Max.Y) / 2
			c.StrokeLine2(sty, r.Min.X, y, r.Max.X, y)
		})
	}
	shown := [estimator.Invalid + 1]bool{true, true, true, false}
	for _, r := range regions {
		shown[r.d] = true
	}
	for d, ok := range shown {
		if ok {
			col := pal.Decision[d]
			add(estimator.Decision(d).String(), func(c draw.Canvas, r vg.Rectangle) {
				c.SetColor(col)
				c.Fill(rectPath(r.Min.X, r.Min.Y, r.Max.X, r.Max.Y))
			})
		}
	}
	add("decisions differ", func(c draw.Canvas, r vg.Rectangle) { hatchIn(c, r, pal.Differ) })
	for _, f := range []struct {
		label string
		style draw.LineStyle
		top   bool
	}{{names[1] + " flip", lineStyle(pal.Candidate, 1.2), true}, {names[0] + " flip", lineStyle(pal.Baseline, 1.2, 2, 1.5), false}} {
		add(f.label, func(c draw.Canvas, r vg.Rectangle) {
			x := (r.Min.X + r.Max.X) / 2
			c.StrokeLine2(f.style, x, r.Min.Y, x, r.Max.Y)
			var m vg.Path
			triangle(&m, x, r.Min.Y, r.Max.Y, f.top)
			c.SetColor(f.style.Color)
			c.Fill(m)
		})
	}
	return lb
}

// layout places the entries in rows across width w and returns the
// legend's height.
func (lb *legendBox) layout(w vg.Length) vg.Length {
	lb.rowH = lb.sty.Font.Size * 1.5
	x, row := vg.Length(legendPad), 0
	for i := range lb.entries {
		e := &lb.entries[i]
		ew := lb.thumb + legendGap + lb.sty.Width(e.label)
		if x > legendPad && x+ew > w-legendPad {
			x, row = legendPad, row+1
		}
		e.x, e.row = x, row
		x += ew + lb.sep
	}
	return vg.Length(row+1)*lb.rowH + 2*legendPad
}

// draw draws the laid-out legend in c.
func (lb *legendBox) draw(c draw.Canvas) {
	for _, e := range lb.entries {
		top := c.Max.Y - legendPad - vg.Length(e.row)*lb.rowH
		mid := top - lb.rowH/2
		x := c.Min.X + e.x
		e.thumb(c, vg.Rectangle{Min: vg.Point{X: x, Y: mid - 5}, Max: vg.Point{X: x + lb.thumb, Y: mid + 5}})
		c.FillText(lb.sty, vg.Point{X: x + lb.thumb + legendGap, Y: mid}, e.label)
	}
}

// legendAndTicks lays the legend out under a plot of width x height (none
// when it would take more than half the height), crops dc to the plot's
// part and sets the x ticks over [xmin, xmax] and the y ticks over
// [0, p.Y.Max] for that room: the timeline and the workload histogram
// share this frame. It returns the plot's canvas, the legend's height and
// the y ticks.
func (l *legendBox) legendAndTicks(p *plot.Plot, dc draw.Canvas, width, height vg.Length, xmin, xmax float64) (plotC draw.Canvas, legendH vg.Length, yticks []plot.Tick) {
	legendH = l.layout(width)
	if legendH > height/2 {
		l.entries, legendH = nil, 0
	}
	plotC = draw.Crop(dc, 2, -10, legendH, -8)
	dataW, dataH := float64(width)-60, float64(plotC.Size().Y)-40
	p.X.Tick.Marker = plot.ConstantTicks(niceTicks(xmin, xmax, 1, clampInt(dataW/65, 2, 8)))
	yticks = niceTicks(0, p.Y.Max, 1, clampInt(dataH/36, 2, 8))
	return plotC, legendH, yticks
}
