package chart

import (
	"errors"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"headroom/estimator"
)

// Timeline is one device of a memory snapshot as TimelineSVG draws it:
// the allocated bytes after each kept trace entry, the peak, each
// window's peak and each revision's predicted peak (docs/model.md §12).
// It holds plain numbers so that chart needs nothing of the reader
// (headroom/measure) that makes them.
type Timeline struct {
	Points  []TimelinePoint // in trace order
	Peak    TimelinePoint
	Windows []TimelinePoint // each window's peak, Label its marker's
	// Predicted are the baseline's and the candidate's predicted peaks
	// for the piece compared; 0: not drawn (no config to compare).
	Predicted [2]int64
	Names     [2]string // the revisions' names; "" takes baseline, candidate
}

// TimelinePoint is the allocated total after trace entry Event (-1:
// before the first), at TimeUS.
type TimelinePoint struct {
	Event  int
	TimeUS int64
	Bytes  int64
	Label  string
}

// x is the point's abscissa: milliseconds since the trace's first point
// when the timeline's times move forward, else the trace entry.
func (t *Timeline) x(p TimelinePoint, byTime bool) float64 {
	if byTime {
		return float64(t.timeOf(p)-t.timeOf(t.Points[0])) / 1000
	}
	return float64(p.Event)
}

// timeOf is a point's time. The point before the trace's first entry
// (Event -1) has no time of its own (0): it stands at the first entry's.
// Times are a trace's epoch microseconds, so from 0 the whole trace was
// squeezed into the last pixel of an axis 1.5 billion seconds long.
func (t *Timeline) timeOf(p TimelinePoint) int64 {
	if p.Event < 0 && p.TimeUS == 0 {
		for _, q := range t.Points {
			if q.Event >= 0 {
				return q.TimeUS
			}
		}
	}
	return p.TimeUS
}

// byTime is true when the points' times never go back and the last is
// after the first: then the chart runs along time.
func (t *Timeline) byTime() bool {
	if len(t.Points) < 2 || t.timeOf(t.Points[len(t.Points)-1]) <= t.timeOf(t.Points[0]) {
		return false
	}
	for i := 1; i < len(t.Points); i++ {
		if t.timeOf(t.Points[i]) < t.timeOf(t.Points[i-1]) {
			return false
		}
	}
	return true
}

// TimelineSVG draws the timeline: the allocated bytes as steps, the
// peak as a ringed diamond with its value, each window's peak as a
// diamond, and each revision's predicted peak as a dashed line across.
// It draws as SVG does (one <svg> element, no inline styles) and never
// panics.
func TimelineSVG(t Timeline, width, height vg.Length, opts ...SVGOption) (svg []byte, err error) {
	defer recoverChart(&err)
	if err := CheckSize(float64(width), float64(height)); err != nil {
		return nil, err
	}
	if len(t.Points) == 0 {
		return nil, errors.New("chart: no timeline to draw")
	}
	pal := &Light
	names := t.Names
	for i, def := range revName {
		if names[i] == "" {
			names[i] = def
		}
	}
	c := newSVGCanvas(width, height, opts...)
	dc := draw.New(c)
	dc.SetColor(pal.Background)
	dc.Fill(dc.Rectangle.Path())

	byTime := t.byTime()
	p := plot.New()
	p.BackgroundColor = nil
	xs := make([]float64, 0, 2*len(t.Points))
	ys := make([]float64, 0, 2*len(t.Points))
	top := gib(t.Peak.Bytes)
	for i, pt := range t.Points {
		x, y := t.x(pt, byTime), gib(pt.Bytes)
		if i > 0 { // a step: the total holds until the next entry
			xs, ys = append(xs, x), append(ys, ys[len(ys)-1])
		}
		xs, ys = append(xs, x), append(ys, y)
		top = max(top, y)
	}
	xmin, xmax := xs[0], xs[len(xs)-1]
	if xmax <= xmin {
		xmax = xmin + 1
	}
	var lines []*chartLine
	lines = append(lines, &chartLine{label: "allocated", style: lineStyle(pal.Ink, 1.4), xs: xs, ys: ys})
	for _, rev := range [2]int{1, 0} {
		if b := t.Predicted[rev]; b > 0 {
			y := gib(b)
			top = max(top, y)
			lines = append(lines, &chartLine{label: names[rev] + " predicted peak", style: predictedStyle(pal, estimator.Revision(rev)), xs: []float64{xmin, xmax}, ys: []float64{y, y}})
		}
	}
	if top <= 0 {
		top = 1
	}
	p.X.Min, p.X.Max = xmin, xmax
	p.Y.Min, p.Y.Max = 0, top*1.08

	legend := &legendBox{sty: pal.text(10 * textScale(width)), thumb: 18 * textScale(width), sep: 12}
	if width < 600 {
		legend.sty, legend.thumb, legend.sep = pal.text(9), 14, 8
	}
	legend.sty.YAlign = draw.YCenter
	for _, l := range lines {
		sty := l.style
		legend.entries = append(legend.entries, legendEntry{label: l.label, thumb: func(c draw.Canvas, r vg.Rectangle) {
			y := (r.Min.Y + r.Max.Y) / 2
			c.StrokeLine2(sty, r.Min.X, y, r.Max.X, y)
		}})
	}
	legend.entries = append(legend.entries, legendEntry{label: "peak", thumb: func(c draw.Canvas, r vg.Rectangle) {
		var m vg.Path
		diamond(&m, (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2, 6)
		drawMarker(c, m, pal)
	}})
	if len(t.Windows) > 0 {
		legend.entries = append(legend.entries, legendEntry{label: "a window's peak", thumb: func(c draw.Canvas, r vg.Rectangle) {
			var m vg.Path
			diamond(&m, (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2, 4)
			c.SetLineStyle(lineStyle(pal.Ink, 1.2))
			c.Stroke(m)
		}})
	}
	plotC, legendH, yticks := legend.legendAndTicks(p, dc, width, height, xmin, xmax)
	p.Y.Tick.Marker = plot.ConstantTicks(yticks)
	pal.styleTimelineAxes(p, textScale(width))
	p.X.Label.Text = "trace entry"
	if byTime {
		p.X.Label.Text = "time (ms)"
	}

	p.Add(&chartBands{grid: yticks, pal: pal})
	for _, l := range lines {
		p.Add(l)
	}
	marks := &timelineMarks{peak: t.x(t.Peak, byTime), peakY: gib(t.Peak.Bytes), pal: pal, scale: textScale(width)}
	for _, w := range t.Windows {
		marks.windows = append(marks.windows, [2]float64{t.x(w, byTime), gib(w.Bytes)})
	}
	marks.label = "peak " + gibText(t.Peak.Bytes)
	p.Add(marks)
	p.Draw(plotC)
	legend.draw(draw.Crop(dc, 0, 0, 0, legendH-dc.Size().Y))
	return c.bytes(), nil
}

// gibText writes bytes in GiB with three decimals, for the chart's label.
func gibText(b int64) string {
	return strconv.FormatFloat(gib(b), 'f', 3, 64) + " GiB"
}

// styleTimelineAxes styles the timeline's axes as styleAxes does the
// chart's.
func (pal *Palette) styleTimelineAxes(p *plot.Plot, scale vg.Length) {
	p.Y.Label.Text = "allocated (GiB)"
	pal.styleAxisLines(p, scale)
}

// timelineMarks draws the windows' peaks (hollow diamonds) and the peak
// (a filled diamond, its value beside it).
type timelineMarks struct {
	peak, peakY float64
	windows     [][2]float64
	label       string
	pal         *Palette
	scale       vg.Length
}

// Plot implements plot.Plotter.
func (m *timelineMarks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var hollow vg.Path
	for _, w := range m.windows {
		if math.IsNaN(w[0]) || math.IsNaN(w[1]) {
			continue
		}
		diamond(&hollow, trX(w[0]), trY(w[1]), 4)
	}
	if len(hollow) > 0 {
		c.SetLineStyle(lineStyle(m.pal.Ink, 1.2))
		c.Stroke(hollow)
	}
	x, y := trX(m.peak), trY(m.peakY)
	var peak vg.Path
	diamond(&peak, x, y, 6)
	drawMarker(c, peak, m.pal)
	sty := m.pal.text(10 * m.scale)
	sty.YAlign = draw.YBottom
	sty.XAlign = draw.XLeft
	if x > (c.Min.X+c.Max.X)/2 {
		sty.XAlign = draw.XRight
	}
	c.FillText(sty, vg.Point{X: x, Y: y + 8}, m.label)
}
