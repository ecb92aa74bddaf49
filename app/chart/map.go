package chart

import (
	"errors"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"headroom/estimator"
)

// MapInput is everything the map picture shows: the map the
// estimator computed, the config's own x and y (marked when inside the
// plane), a title and the summary sentence. The map command and the page
// both build it with NewMapInput, so they show the same picture.
type MapInput struct {
	Title   string
	Summary string // shown under the title; "" for none
	Map     estimator.MapResult
	// CurrentX and CurrentY are the config's values of the two axes;
	// HasCurrent is false when they are not known.
	CurrentX, CurrentY int64
	HasCurrent         bool
}

// NewMapInput is the picture of res, a map of cfg: its summary at the
// config's x, and the config's point marked.
func NewMapInput(cfg estimator.Config, res estimator.MapResult) MapInput {
	in := MapInput{Map: res}
	if r, err := cfg.Resolve(); err == nil {
		in.CurrentX, in.CurrentY = currentDerived(r, res.X.Axis), currentDerived(r, res.Y.Axis)
		in.HasCurrent = true
	}
	in.Summary = res.Summary(in.CurrentX)
	if !in.HasCurrent {
		in.Summary = res.Summary(-1)
	}
	return in
}

// MapSVG draws in as an SVG document of width x height points, as SVG
// draws the one-axis chart (one root element that scales to
// its container, presentation attributes only). It never panics.
func MapSVG(in MapInput, width, height vg.Length) (svg []byte, err error) {
	defer recoverChart(&err)
	if err := CheckSize(float64(width), float64(height)); err != nil {
		return nil, err
	}
	c := newSVGCanvas(width, height)
	if err := drawMap(in, draw.New(c), nil); err != nil {
		return nil, err
	}
	return c.bytes(), nil
}

// mapAxes are the fields of the map's axes, or an error for a map that
// cannot be drawn.
func mapAxes(m *estimator.MapResult) (x, y *estimator.Field, err error) {
	x, okx := estimator.FieldByKey(m.X.Axis)
	y, oky := estimator.FieldByKey(m.Y.Axis)
	switch {
	case !okx || !oky:
		return nil, nil, errors.New("map chart: unknown axis " + m.X.Axis + " or " + m.Y.Axis)
	case len(m.Columns) == 0:
		return nil, nil, errors.New("map chart: no columns to draw")
	case m.X.From > m.X.To || m.Y.From > m.Y.To:
		return nil, nil, errors.New("map chart: empty range")
	}
	return x, y, nil
}

// drawMap lays out and draws the whole picture on dc: the title and the
// summary above, the plane, the legend below; frame, when not nil, gets
// the plane's coordinate mapping (MapSVGFrame).
func drawMap(in MapInput, dc draw.Canvas, frame *Frame) error {
	m := &in.Map
	xf, yf, err := mapAxes(m)
	if err != nil {
		return err
	}
	w, h := dc.Size().X, dc.Size().Y
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())

	title := in.Title
	if title == "" {
		title = "Decision map: " + yf.Key + " against " + xf.Key + " (colour: the candidate's decision)"
	}
	header := mapHeader(title, in.Summary, w)
	legend := mapLegend(m, w)
	legendH := legend.layout(w)
	headerH := header.height()
	if legendH+headerH > h/2 { // a thumbnail: the plane alone
		legend.entries, legendH = nil, 0
		header.lines, headerH = nil, 0
	}

	p := plot.New()
	p.BackgroundColor = nil
	xmin, xmax := float64(m.X.From), float64(m.X.To)
	if xmin == xmax {
		xmin, xmax = xmin-0.5, xmax+0.5
	}
	ymin, ymax := float64(m.Y.From), float64(m.Y.To)
	if ymin == ymax {
		ymin, ymax = ymin-0.5, ymax+0.5
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xmin, xmax, ymin, ymax
	styleAxes(p, xf, 1)
	p.Y.Label.Text = yf.Key
	if byteAxis(yf) {
		p.Y.Label.Text += " (GiB)"
	}
	plotC := draw.Crop(dc, 2, -12, legendH, -headerH-4)
	dataW, dataH := float64(w)-60, float64(plotC.Size().Y)-40
	p.X.Tick.Marker = plot.ConstantTicks(niceTicks(xmin, xmax, unitOf(xf), clampInt(dataW/65, 2, 8)))
	p.Y.Tick.Marker = plot.ConstantTicks(niceTicks(ymin, ymax, unitOf(yf), clampInt(dataH/36, 2, 8)))

	cells := mapCells(m, xmin, xmax)
	p.Add(&mapRegions{cells: cells})
	p.Add(&mapHatch{cells: cells})
	p.Add(&mapBoundaries{cells: cells, rev: 0, style: lineStyle(colBaseline, 1.6, 5, 3)})
	p.Add(&mapBoundaries{cells: cells, rev: 1, style: lineStyle(colCandidate, 1.6)})
	if in.HasCurrent && in.CurrentX >= m.X.From && in.CurrentX <= m.X.To && in.CurrentY >= m.Y.From && in.CurrentY <= m.Y.To {
		p.Add(&mapCurrent{x: float64(in.CurrentX), y: float64(in.CurrentY),
			label: currentLabel(xf, in.CurrentX) + ", " + currentLabel(yf, in.CurrentY)})
	}
	if frame != nil {
		*frame = newFrame(p, plotC, w, h)
	}
	p.Draw(plotC)
	header.draw(draw.Crop(dc, 0, 0, h-headerH, 0))
	legend.draw(draw.Crop(dc, 0, 0, 0, legendH-h))
	return nil
}

// unitOf is the tick unit of an axis: GiB for bytes.
func unitOf(f *estimator.Field) float64 {
	if byteAxis(f) {
		return 1 << 30
	}
	return 1
}

// textBlock is the title and the summary, wrapped to the picture's width.
type textBlock struct {
	lines []textLine
}

type textLine struct {
	text string
	sty  text.Style
}

const headerPad = 6

// mapHeader wraps the title (12 points) and the summary (10 points) to
// width w.
func mapHeader(title, summary string, w vg.Length) *textBlock {
	b := &textBlock{}
	for _, part := range []struct {
		s    string
		size vg.Length
	}{{title, 12}, {summary, 10}} {
		sty := textStyle(part.size)
		sty.YAlign = draw.YTop
		for _, line := range breakWords(sty, part.s, w-2*headerPad) {
			b.lines = append(b.lines, textLine{line, sty})
		}
	}
	return b
}

func (b *textBlock) height() vg.Length {
	if len(b.lines) == 0 {
		return 0
	}
	h := vg.Length(2 * headerPad)
	for _, l := range b.lines {
		h += l.sty.Font.Size * 1.3
	}
	return h
}

func (b *textBlock) draw(c draw.Canvas) {
	y := c.Max.Y - headerPad
	for _, l := range b.lines {
		c.FillText(l.sty, vg.Point{X: c.Min.X + headerPad, Y: y}, l.text)
		y -= l.sty.Font.Size * 1.3
	}
}

// mapLegend lists the decisions the candidate takes on the plane, the
// hatching, both boundaries and the current config's marker.
func mapLegend(m *estimator.MapResult, w vg.Length) *legendBox {
	lb := &legendBox{sty: textStyle(10), thumb: 18, sep: 12}
	if w < 600 {
		lb.sty, lb.thumb, lb.sep = textStyle(9), 14, 8
	}
	lb.sty.YAlign = draw.YCenter
	add := func(label string, thumb func(draw.Canvas, vg.Rectangle)) {
		lb.entries = append(lb.entries, legendEntry{label: label, thumb: thumb})
	}
	var shown [estimator.Invalid + 1]bool
	for i := range m.Columns {
		r := &m.Columns[i].Candidate
		shown[r.Start] = true
		for _, f := range r.Flips {
			shown[f.ToDecision] = true
		}
	}
	for d, ok := range shown {
		if ok {
			col := colDecision[d]
			label := "candidate " + estimator.Decision(d).String() + "s"
			if estimator.Decision(d) == estimator.Invalid {
				label = "invalid config"
			}
			add(label, func(c draw.Canvas, r vg.Rectangle) {
				c.SetColor(col)
				c.Fill(rectPath(r.Min.X, r.Min.Y, r.Max.X, r.Max.Y))
			})
		}
	}
	add("decisions differ", func(c draw.Canvas, r vg.Rectangle) { hatch(c, r) })
	for _, b := range []struct {
		label string
		style draw.LineStyle
	}{{"candidate boundary", lineStyle(colCandidate, 1.6)}, {"baseline boundary", lineStyle(colBaseline, 1.6, 5, 3)}} {
		add(b.label, func(c draw.Canvas, r vg.Rectangle) {
			y := (r.Min.Y + r.Max.Y) / 2
			c.StrokeLine2(b.style, r.Min.X, y, r.Max.X, y)
		})
	}
	add("current config", func(c draw.Canvas, r vg.Rectangle) {
		currentMarker(c, vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2})
	})
	return lb
}

// currentDerived is the resolved value of an axis (0 for one Resolved
// does not carry).
func currentDerived(r estimator.Resolved, axis string) int64 {
	if p := r.AxisField(axis); p != nil {
		return *p
	}
	return 0
}
