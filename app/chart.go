package main

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"headroom/estimator"
)

// maxChartSide bounds a chart's side (points or pixels): a bigger request
// is a mistake, and a PNG that size would not fit in memory.
const maxChartSide = 16384

// renderChartSVG draws in as an SVG document of width x height points.
// The result is one <svg> element (no XML prolog) whose viewBox is the
// drawing's size and whose width is 100%, so it scales to its container;
// pass the container's size in CSS pixels to keep text at its nominal size.
// It never panics: a failure in the plotting library comes back as an error.
func renderChartSVG(in chartInput, width, height vg.Length) (svg []byte, err error) {
	defer recoverChart(&err)
	if err := checkChartSize(float64(width), float64(height)); err != nil {
		return nil, err
	}
	c := vgsvg.NewWith(vgsvg.UseWH(width, height))
	if err := drawChart(in, draw.New(c)); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(24 << 10)
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return fitSVG(buf.Bytes())
}

// renderChartPNG draws in as a PNG of exactly widthPx x heightPx pixels,
// at the text scale of an SVG of chartLogicalSize points.
func renderChartPNG(in chartInput, widthPx, heightPx int) (png []byte, err error) {
	defer recoverChart(&err)
	if err := checkChartSize(float64(widthPx), float64(heightPx)); err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, widthPx, heightPx))
	c := vgimg.NewWith(vgimg.UseImage(img), vgimg.UseDPI(chartDPI(widthPx)))
	if err := drawChart(in, draw.New(c)); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// chartDPI scales a wide bitmap so its text reads as in a page about 960
// points wide, rather than shrinking the text as the pixels grow.
func chartDPI(widthPx int) int {
	return max(72, (72*widthPx+480)/960)
}

// chartLogicalSize is the size in points that a widthPx x heightPx PNG
// is drawn at, so an SVG of that size looks the same as the PNG.
func chartLogicalSize(widthPx, heightPx int) (w, h vg.Length) {
	dpi := float64(chartDPI(widthPx))
	return vg.Length(float64(widthPx) * 72 / dpi), vg.Length(float64(heightPx) * 72 / dpi)
}

func checkChartSize(w, h float64) error {
	for _, v := range [2]float64{w, h} {
		if !(v >= 16 && v <= maxChartSide) { // also refuses NaN
			return fmt.Errorf("chart size must be in 16..%d, got %gx%g", maxChartSide, w, h)
		}
	}
	return nil
}

// recoverChart turns a panic in the plotting library into an error: in the
// browser a panic would stop the whole app.
func recoverChart(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("chart: %v", r)
	}
}

// fitSVG drops the XML prolog and comment vgsvg writes before <svg> (go-app's
// app.Raw wants one root element), makes the drawing scale to its container,
// and names fallbacks metric-compatible with the Liberation fonts.
func fitSVG(doc []byte) ([]byte, error) {
	start := bytes.Index(doc, []byte("<svg"))
	view := bytes.Index(doc, []byte(" viewBox="))
	if start < 0 || view < start {
		return nil, errors.New("chart: unexpected SVG header")
	}
	out := make([]byte, 0, len(doc)+len(doc)/8)
	out = append(out, `<svg width="100%" preserveAspectRatio="xMidYMid meet" role="img"`...)
	rest := doc[view:]
	family := []byte("font-family:" + chartFamily + ";")
	for {
		i := bytes.Index(rest, family)
		if i < 0 {
			break
		}
		out = append(out, rest[:i]...)
		out = append(out, "font-family:"+chartFamily+",Arial,Helvetica,sans-serif;"...)
		rest = rest[i+len(family):]
	}
	return append(out, rest...), nil
}

// The fixed palette and fonts: the output is a pure function of the input.
var (
	colCandidate = rgb(0x00, 0x72, 0xB2)
	colBaseline  = rgb(0xD5, 0x5E, 0x00)
	colInk       = rgb(0x22, 0x22, 0x22)
	colGrid      = color.NRGBA{A: 0x1c}
	colDiffer    = color.NRGBA{R: 0x7B, G: 0x32, B: 0x94, A: 0xb0}
	colDecision  = [...]color.Color{
		estimator.Admit:   rgb(0xDF, 0xF3, 0xE4),
		estimator.Split:   rgb(0xFC, 0xEB, 0xC0),
		estimator.Refuse:  rgb(0xF9, 0xD6, 0xD5),
		estimator.Invalid: rgb(0xEC, 0xEC, 0xEC),
	}
	colStage = [estimator.NumStages]color.Color{
		rgb(0x56, 0xB4, 0xE9), rgb(0xCC, 0x79, 0xA7), rgb(0x8C, 0x56, 0x4B), rgb(0x4D, 0x9A, 0x3A),
	}
	colRetained = rgb(0x77, 0x77, 0x77)

	chartFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
)

// chartFamily is the family name vgsvg writes for chartFont.
const chartFamily = "Liberation Sans"

func rgb(r, g, b uint8) color.Color { return color.NRGBA{R: r, G: g, B: b, A: 0xff} }

func textStyle(size vg.Length) text.Style {
	return text.Style{Color: colInk, Font: font.From(chartFont, size), Handler: chartText{}}
}

// chartText is gonum's plain text handler with its measurements memoized:
// gonum measures each tick label several times per draw, the labels repeat
// from one slider move to the next, and measuring allocates.
type chartText struct{}

var (
	chartPlain   = text.Plain{Fonts: font.DefaultCache}
	textMu       sync.Mutex
	textWidths   = map[textKey]vg.Length{}
	textExtents  = map[font.Font]font.Extents{}
	textCacheMax = 2048 // the current value's label changes on every move
)

type textKey struct {
	txt  string
	font font.Font
}

// Cache implements text.Handler.
func (chartText) Cache() *font.Cache { return chartPlain.Fonts }

// Lines implements text.Handler.
func (chartText) Lines(txt string) []string { return chartPlain.Lines(txt) }

// Extents implements text.Handler.
func (chartText) Extents(f font.Font) font.Extents {
	textMu.Lock()
	defer textMu.Unlock()
	e, ok := textExtents[f]
	if !ok {
		e = chartPlain.Extents(f)
		textExtents[f] = e
	}
	return e
}

func (chartText) width(txt string, f font.Font) vg.Length {
	k := textKey{txt, f}
	textMu.Lock()
	defer textMu.Unlock()
	w, ok := textWidths[k]
	if !ok {
		if len(textWidths) >= textCacheMax {
			clear(textWidths)
		}
		face := chartPlain.Fonts.Lookup(f, f.Size)
		w = face.Width(txt)
		textWidths[k] = w
	}
	return w
}

// Box implements text.Handler.
func (h chartText) Box(txt string, f font.Font) (width, height, depth vg.Length) {
	e := h.Extents(f)
	return h.width(txt, f), e.Ascent, e.Descent
}

// Draw implements text.Handler as text.Plain does, with memoized widths.
func (h chartText) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	txt = strings.TrimRight(txt, "\n")
	if txt == "" {
		return
	}
	lines := h.Lines(txt)
	fnt := chartPlain.Fonts.Lookup(sty.Font, sty.Font.Size)
	c.SetColor(sty.Color)
	if sty.Rotation != 0 {
		c.Push()
		defer c.Pop()
		c.Rotate(sty.Rotation)
	}
	sin64, cos64 := math.Sincos(sty.Rotation)
	cos, sin := vg.Length(cos64), vg.Length(sin64)
	pt.X, pt.Y = pt.Y*sin+pt.X*cos, pt.Y*cos-pt.X*sin
	pt.Y += sty.Height(txt)*vg.Length(sty.YAlign) - h.Extents(sty.Font).Ascent
	for i, line := range lines {
		xoffs := vg.Length(sty.XAlign) * h.width(line, sty.Font)
		n := vg.Length(len(lines) - i)
		c.FillString(fnt, pt.Add(vg.Point{X: xoffs, Y: n * sty.Font.Size}), line)
	}
}

func lineStyle(c color.Color, width vg.Length, dashes ...vg.Length) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: width, Dashes: dashes}
}

// gib converts exact bytes to the chart's unit, for display only.
func gib(b int64) float64 { return float64(b) / (1 << 30) }

// byteAxis reports whether the swept input is a byte count, shown in GiB.
func byteAxis(f *estimator.Field) bool {
	return f.Key == "capacity_bytes" || f.Key == "in_use_bytes"
}

// lineSpec is one line of the chart: its legend entry and how to read it
// from a point.
type lineSpec struct {
	label string
	style draw.LineStyle
	value func(p *estimator.Point) int64
}

func chartLines() []lineSpec {
	specs := make([]lineSpec, 0, 5+estimator.NumStages)
	specs = append(specs,
		lineSpec{"candidate required", lineStyle(colCandidate, 2), func(p *estimator.Point) int64 { return p.Rev[1].RequiredBytes }},
		lineSpec{"baseline required", lineStyle(colBaseline, 1.6, 5, 3), func(p *estimator.Point) int64 { return p.Rev[0].RequiredBytes }},
		lineSpec{"lower bound", lineStyle(colInk, 1, 1.5, 2), func(p *estimator.Point) int64 { return p.LowerBoundBytes }},
		lineSpec{"available", lineStyle(colInk, 1.4), func(p *estimator.Point) int64 { return p.AvailableBytes }},
	)
	for s := estimator.Stage(0); s < estimator.NumStages; s++ {
		specs = append(specs, lineSpec{s.String(), lineStyle(colStage[s], 1),
			func(p *estimator.Point) int64 { return p.Rev[1].WholeStages[s] }})
	}
	return append(specs, lineSpec{"retained", lineStyle(colRetained, 1, 3, 2),
		func(p *estimator.Point) int64 { return p.Rev[1].WholeRetained }})
}

// drawChart lays out and draws the whole chart on dc: the plot above, the
// legend below it.
func drawChart(in chartInput, dc draw.Canvas) error {
	if in.Axis == nil || len(in.Points) == 0 {
		return errors.New("chart: no points to draw")
	}
	if in.From > in.To {
		return fmt.Errorf("chart: empty range %d..%d", in.From, in.To)
	}
	w, h := dc.Size().X, dc.Size().Y

	dc.SetColor(color.White) // the legend's strip too, whatever the page's colour
	dc.Fill(dc.Rectangle.Path())
	p := plot.New()
	p.BackgroundColor = nil
	xmin, xmax := float64(in.From), float64(in.To)
	if xmin == xmax {
		xmin, xmax = xmin-0.5, xmax+0.5
	}
	p.X.Min, p.X.Max = xmin, xmax

	// Lines, with gaps at invalid points; empty ones are left out.
	xs := make([]float64, len(in.Points))
	for i := range in.Points {
		xs[i] = float64(in.Points[i].X)
	}
	keep := flipNeighbours(in.Points)
	var lines []*chartLine
	ymax := 0.0
	for _, spec := range chartLines() {
		ys, top := readLine(in.Points, spec.value)
		if top <= 0 && spec.label != "available" {
			continue
		}
		ymax = max(ymax, top)
		lines = append(lines, &chartLine{label: spec.label, style: spec.style, xs: xs, ys: ys})
	}
	if ymax <= 0 {
		ymax = 1
	}
	p.Y.Min, p.Y.Max = 0, ymax*1.04

	cand := decisionRegions(in.Candidate, in.Points, 1, xmin, xmax)
	base := decisionRegions(in.Baseline, in.Points, 0, xmin, xmax)
	legend := chartLegend(lines, cand, w)
	legendH := legend.layout(w)
	if legendH > h/2 { // a thumbnail: the plot alone
		legend.entries, legendH = nil, 0
	}
	plotC := draw.Crop(dc, 2, -10, legendH, -8) // room for the flip markers and the last tick label

	// Ticks are computed once, sized to the drawing; gonum asks for them
	// several times per draw.
	xunit := 1.0
	if byteAxis(in.Axis) {
		xunit = 1 << 30
	}
	dataW, dataH := float64(w)-60, float64(plotC.Size().Y)-40
	p.X.Tick.Marker = plot.ConstantTicks(niceTicks(xmin, xmax, xunit, clampInt(dataW/65, 2, 8)))
	yticks := niceTicks(0, p.Y.Max, 1, clampInt(dataH/36, 2, 8))
	p.Y.Tick.Marker = plot.ConstantTicks(yticks)
	styleAxes(p, in.Axis)
	if in.Title != "" {
		p.Title.Text = in.Title
		p.Title.TextStyle = textStyle(12)
		p.Title.TextStyle.XAlign = draw.XCenter
		p.Title.TextStyle.YAlign = draw.YTop
		p.Title.Padding = 4
	}

	// Downsample to what the drawing can show: a conservative scale (the
	// whole canvas) and a quarter point of tolerance, never dropping the
	// points on either side of a decision change.
	for _, l := range lines {
		l.xs, l.ys = simplify(l.xs, l.ys, keep, float64(w)/(xmax-xmin), float64(h)/p.Y.Max, 0.25)
	}

	p.Add(&chartBands{regions: cand, grid: yticks})
	p.Add(&chartHatch{spans: differing(base, cand)})
	for _, l := range lines {
		p.Add(l)
	}
	p.Add(&chartFlips{flips: in.Baseline, style: lineStyle(colBaseline, 1.2, 4, 3), top: false})
	p.Add(&chartFlips{flips: in.Candidate, style: lineStyle(colCandidate, 1.2), top: true})
	if in.Current >= in.From && in.Current <= in.To {
		p.Add(&chartCurrent{x: float64(in.Current), label: currentLabel(in.Axis, in.Current)})
	}
	p.Draw(plotC)
	legend.draw(draw.Crop(dc, 0, 0, 0, legendH-dc.Size().Y))
	return nil
}

func styleAxes(p *plot.Plot, axis *estimator.Field) {
	xlabel := axis.Key
	if byteAxis(axis) {
		xlabel += " (GiB)"
	}
	p.X.Label.Text, p.Y.Label.Text = xlabel, "GiB"
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Padding = 0
		a.Color = colInk
		a.Label.TextStyle = textStyle(11)
		a.Label.TextStyle.XAlign = draw.XCenter
		a.Label.TextStyle.YAlign = draw.YBottom
		a.Label.Padding = 2
		a.Tick.Color = colInk
		a.Tick.Length = 4
		lab := textStyle(10)
		lab.XAlign, lab.YAlign = a.Tick.Label.XAlign, a.Tick.Label.YAlign
		a.Tick.Label = lab
	}
}

func clampInt(v float64, lo, hi int) int {
	return max(lo, min(hi, int(v)))
}

// readLine reads one line's values in GiB, NaN at invalid points, and
// its largest value.
func readLine(pts []estimator.Point, value func(*estimator.Point) int64) ([]float64, float64) {
	ys := make([]float64, len(pts))
	top := 0.0
	for i := range pts {
		if pts[i].Error != "" {
			ys[i] = math.NaN()
			continue
		}
		ys[i] = gib(value(&pts[i]))
		top = max(top, ys[i])
	}
	return ys, top
}

// flipNeighbours marks the grid points on either side of a change of
// either revision's decision (or validity), which downsampling keeps.
func flipNeighbours(pts []estimator.Point) []bool {
	keep := make([]bool, len(pts))
	for i := 1; i < len(pts); i++ {
		a, b := &pts[i-1], &pts[i]
		if (a.Error == "") != (b.Error == "") || a.Rev[0].Decision != b.Rev[0].Decision || a.Rev[1].Decision != b.Rev[1].Decision {
			keep[i-1], keep[i] = true, true
		}
	}
	return keep
}

// region is an interval of x with one decision.
type region struct {
	x0, x1 float64
	d      estimator.Decision
}

// decisionRegions splits [xmin, xmax] at a revision's flips, each boundary
// halfway between the flip's last old x and its first new one.
func decisionRegions(flips []estimator.Flip, pts []estimator.Point, rev int, xmin, xmax float64) []region {
	d := estimator.Invalid
	if len(flips) > 0 {
		d = flips[0].FromDecision
	} else if pts[0].Error == "" {
		d = pts[0].Rev[rev].Decision
	}
	out := make([]region, 0, len(flips)+1)
	x := xmin
	for _, f := range flips {
		b := min(max(float64(f.Last)+0.5, x), xmax)
		out = append(out, region{x, b, d})
		x, d = b, f.ToDecision
	}
	return append(out, region{x, xmax, d})
}

// differing returns the intervals where two revisions' regions decide
// differently, adjacent ones merged.
func differing(a, b []region) []region {
	var out []region
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := max(a[i].x0, b[j].x0), min(a[i].x1, b[j].x1)
		if hi > lo && a[i].d != b[j].d {
			if n := len(out); n > 0 && out[n-1].x1 == lo {
				out[n-1].x1 = hi
			} else {
				out = append(out, region{lo, hi, b[j].d})
			}
		}
		if a[i].x1 < b[j].x1 {
			i++
		} else {
			j++
		}
	}
	return out
}

// simplify drops the points of a line that the straight segment between
// its kept neighbours passes within tol points of, vertically (sx and sy
// are points per unit). As x increases, one pass narrowing a cone of the
// slopes that stay within tol of every skipped point decides, in linear
// time however many points there are. It keeps run ends (a gap is NaN) and
// every point marked in keep; a gap comes back as one NaN.
func simplify(xs, ys []float64, keep []bool, sx, sy, tol float64) ([]float64, []float64) {
	ox, oy := make([]float64, 0, 64), make([]float64, 0, 64)
	emit := func(i int) { ox, oy = append(ox, xs[i]), append(oy, ys[i]) }
	a := -1 // the last kept point of the current run
	var lo, hi float64
	for i := range xs {
		if math.IsNaN(ys[i]) {
			if a >= 0 {
				if a != i-1 {
					emit(i - 1)
				}
				emit(i)
			}
			a = -1
			continue
		}
		if a >= 0 {
			dx, dy := (xs[i]-xs[a])*sx, (ys[i]-ys[a])*sy
			if dx > 0 && dy >= lo*dx && dy <= hi*dx {
				lo, hi = max(lo, (dy-tol)/dx), min(hi, (dy+tol)/dx)
				if !keep[i] {
					continue
				}
			} else if a != i-1 { // i is out of reach: keep i-1 and go on from it
				emit(i - 1)
				a = i - 1
				dx, dy = (xs[i]-xs[a])*sx, (ys[i]-ys[a])*sy
				if dx > 0 && !keep[i] {
					lo, hi = (dy-tol)/dx, (dy+tol)/dx
					continue
				}
			}
		}
		emit(i)
		a, lo, hi = i, math.Inf(-1), math.Inf(1)
	}
	if a >= 0 && a != len(xs)-1 {
		emit(len(xs) - 1)
	}
	return ox, oy
}

// niceTicks returns about n labelled ticks in [lo, hi] at 1, 2 or 5 times a
// power of ten, in units of unit (1 << 30 labels bytes in GiB).
func niceTicks(lo, hi, unit float64, n int) []plot.Tick {
	a, b := lo/unit, hi/unit
	span := b - a
	if !(span > 0) || math.IsInf(span, 0) {
		return nil
	}
	mag := math.Pow(10, math.Floor(math.Log10(span/float64(n))))
	step := 10 * mag
	for _, m := range [...]float64{1, 2, 5} {
		if m*mag >= span/float64(n) {
			step = m * mag
			break
		}
	}
	var ticks []plot.Tick
	for k := math.Ceil(a / step); k*step <= b; k++ {
		v := k * step
		ticks = append(ticks, plot.Tick{Value: v * unit, Label: compactNumber(v, step)})
	}
	return ticks
}

// compactNumber writes a tick value v (a multiple of step) briefly:
// 200k, 1.5M, 0.25, or with digit groups when a suffix would need more
// than two decimals (1,000,001).
func compactNumber(v, step float64) string {
	for _, s := range [...]struct {
		div    float64
		suffix string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if dec := decimals(step / s.div); math.Abs(v) >= s.div && dec <= 2 {
			return trimZeros(strconv.FormatFloat(v/s.div, 'f', dec, 64)) + s.suffix
		}
	}
	if dec := decimals(step); dec > 0 {
		return strconv.FormatFloat(v, 'f', dec, 64)
	}
	if math.Abs(v) < 1<<62 {
		return estimator.Group(int64(math.Round(v)))
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// decimals is the number of decimals that shows multiples of step exactly.
func decimals(step float64) int {
	return max(0, int(-math.Floor(math.Log10(step)+1e-9)))
}

func trimZeros(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// currentLabel names the axis input's current value.
func currentLabel(axis *estimator.Field, v int64) string {
	if byteAxis(axis) {
		return axis.Key + " = " + estimator.Bytes(v).GiBString() + " GiB"
	}
	return axis.Key + " = " + estimator.Group(v)
}

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
}

// Plot implements plot.Plotter.
func (b *chartBands) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, r := range b.regions {
		x0, x1 := max(trX(r.x0), c.Min.X), min(trX(r.x1), c.Max.X)
		if x1 > x0 {
			c.SetColor(colDecision[r.d])
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
	c.SetLineStyle(lineStyle(colGrid, 0.6))
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
type chartHatch struct{ spans []region }

// Plot implements plot.Plotter.
func (h *chartHatch) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	for _, s := range h.spans {
		x0, x1 := max(trX(s.x0), c.Min.X), min(trX(s.x1), c.Max.X)
		if x1-x0 < 3 { // too narrow to hatch: a solid sliver
			c.SetColor(colDiffer)
			c.Fill(rectPath(x0-1, c.Min.Y, x1+1, c.Max.Y))
			continue
		}
		hatch(c, vg.Rectangle{Min: vg.Point{X: x0, Y: c.Min.Y}, Max: vg.Point{X: x1, Y: c.Max.Y}})
	}
}

// hatch fills r with 45-degree lines, at most about 150 of them however
// wide r is, so the path stays short.
func hatch(c draw.Canvas, r vg.Rectangle) {
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
	c.SetLineStyle(lineStyle(colDiffer, 0.8))
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
}

// Plot implements plot.Plotter.
func (m *chartCurrent) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(m.x)
	c.StrokeLine2(lineStyle(colInk, 1.2, 2, 2), x, c.Min.Y, x, c.Max.Y)
	sty := textStyle(10)
	sty.YAlign = draw.YTop
	tw, th := sty.Width(m.label), sty.Height(m.label)
	tx := x + 4
	if tx+tw > c.Max.X-2 { // no room on the right: label on the left
		tx = x - 4 - tw
	}
	ty := c.Max.Y - 10
	c.SetColor(color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xd8})
	c.Fill(rectPath(tx-2, ty-th-1, tx+tw+2, ty+1))
	c.FillText(sty, vg.Point{X: tx, Y: ty}, m.label)
}

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
// band and the flip markers, a size smaller on a phone-sized width w.
func chartLegend(lines []*chartLine, regions []region, w vg.Length) *legendBox {
	lb := &legendBox{sty: textStyle(10), thumb: 18, sep: 12}
	if w < 600 {
		lb.sty, lb.thumb, lb.sep = textStyle(9), 14, 8
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
			col := colDecision[d]
			add(estimator.Decision(d).String(), func(c draw.Canvas, r vg.Rectangle) {
				c.SetColor(col)
				c.Fill(rectPath(r.Min.X, r.Min.Y, r.Max.X, r.Max.Y))
			})
		}
	}
	add("decisions differ", func(c draw.Canvas, r vg.Rectangle) { hatch(c, r) })
	for _, f := range []struct {
		label string
		style draw.LineStyle
		top   bool
	}{{"candidate flip", lineStyle(colCandidate, 1.2), true}, {"baseline flip", lineStyle(colBaseline, 1.2, 2, 1.5), false}} {
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
