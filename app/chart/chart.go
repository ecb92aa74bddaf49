package chart

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"headroom/estimator"
)

// DefaultWidth and DefaultHeight are the size, in pixels, of an exported
// chart: the plot command's default PNG and the page's PNG export. An SVG
// gets the same aspect and text scale (see LogicalSize), so both formats
// show the same picture.
const (
	DefaultWidth  = 1600
	DefaultHeight = 900
)

// maxChartSide bounds a chart's side (points or pixels): a bigger request
// is a mistake, and a PNG that size would not fit in memory.
const maxChartSide = 16384

// SVG draws in as an SVG document of width x height points.
// The result is one <svg> element (no XML prolog: go-app's app.Raw wants
// one root element) whose viewBox is the drawing's size and whose width is
// 100%, so it scales to its container; pass the container's size in CSS
// pixels to keep text at its nominal size. It is drawn with presentation
// attributes, never style="..." (the server's CSP refuses inline styles),
// and names fallbacks metric-compatible with the Liberation fonts.
// It never panics: a failure in the plotting library comes back as an error.
func SVG(in Input, width, height vg.Length, opts ...SVGOption) (svg []byte, err error) {
	svg, _, err = SVGFrame(in, width, height, opts...)
	return svg, err
}

// SVGFrame is SVG with the drawing's coordinate mapping (Frame), for a
// page that lays an overlay over the SVG.
func SVGFrame(in Input, width, height vg.Length, opts ...SVGOption) (svg []byte, f Frame, err error) {
	defer recoverChart(&err)
	if err := CheckSize(float64(width), float64(height)); err != nil {
		return nil, Frame{}, err
	}
	c := newSVGCanvas(width, height, opts...)
	if f, err = drawChart(in, draw.New(c)); err != nil {
		return nil, Frame{}, err
	}
	return c.bytes(), f, nil
}

// chartDPI scales a wide bitmap so its text reads as in a page about 960
// points wide, rather than shrinking the text as the pixels grow.
func chartDPI(widthPx int) int {
	return max(72, (72*widthPx+480)/960)
}

// LogicalSize is the size in points that a widthPx x heightPx PNG
// is drawn at, so an SVG of that size looks the same as the PNG.
func LogicalSize(widthPx, heightPx int) (w, h vg.Length) {
	dpi := float64(chartDPI(widthPx))
	return vg.Length(float64(widthPx) * 72 / dpi), vg.Length(float64(heightPx) * 72 / dpi)
}

// CheckSize refuses a chart side outside 16..maxChartSide (points or pixels).
func CheckSize(w, h float64) error {
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
func lineStyle(c color.Color, width vg.Length, dashes ...vg.Length) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: width, Dashes: dashes}
}

// gib converts exact bytes to the chart's unit, for display only.
func gib(b int64) float64 { return float64(b) / (1 << 30) }

// byteAxis reports whether the swept input is a byte count, shown in GiB.
func byteAxis(f *estimator.Field) bool {
	return f.Key == estimator.KeyCapacityBytes || f.Key == estimator.KeyInUseBytes
}

// lineSpec is one line of the chart: its legend entry and how to read it
// from a point (ok false: no value there, a gap).
type lineSpec struct {
	label string
	style draw.LineStyle
	value func(p *estimator.Point) (v int64, ok bool)
}

// revValue reads one revision's figure; a revision invalid at a point
// (its own config, while the other's is valid) has none there.
func revValue(rev estimator.Revision, f func(r *estimator.PointRevision) int64) func(p *estimator.Point) (int64, bool) {
	return func(p *estimator.Point) (int64, bool) {
		r := &p.Rev[rev]
		if r.Error != "" {
			return 0, false
		}
		return f(r), true
	}
}

// revisionsDiffer reports whether the revisions' figure f differs at a
// point where both are valid: each revision gets its own line then.
func revisionsDiffer(pts []estimator.Point, f func(r *estimator.PointRevision) int64) bool {
	for i := range pts {
		b, c := &pts[i].Rev[0], &pts[i].Rev[1]
		if b.Error == "" && c.Error == "" && f(b) != f(c) {
			return true
		}
	}
	return false
}

// names are the revisions' legend names: in.Names, else "baseline" and
// "candidate".
func (in *Input) names() [2]string {
	if in.Names[0] == "" || in.Names[1] == "" {
		return [2]string{"baseline", "candidate"}
	}
	return in.Names
}

// chartLines are the chart's lines. Available and lower-bound bytes are
// one line each when the revisions share them, as without a baseline of
// one's own; a baseline with another capacity, memory in use or model
// gets its own line, named.
func chartLines(in *Input, pal *Palette) []lineSpec {
	names := in.names()
	avail := func(r *estimator.PointRevision) int64 { return r.AvailableBytes }
	lower := func(r *estimator.PointRevision) int64 { return r.LowerBoundBytes }
	specs := make([]lineSpec, 0, 7+estimator.NumStages)
	specs = append(specs,
		lineSpec{names[1] + " required", lineStyle(pal.Candidate, 2), revValue(1, func(r *estimator.PointRevision) int64 { return r.RequiredBytes })},
		lineSpec{names[0] + " required", lineStyle(pal.Baseline, 1.6, 5, 3), revValue(0, func(r *estimator.PointRevision) int64 { return r.RequiredBytes })},
	)
	if revisionsDiffer(in.Points, lower) {
		specs = append(specs,
			lineSpec{names[1] + " lower bound", lineStyle(pal.Ink, 1, 1.5, 2), revValue(1, lower)},
			lineSpec{names[0] + " lower bound", lineStyle(colBaseline, 1, 1.5, 2), revValue(0, lower)})
	} else {
		specs = append(specs, lineSpec{"lower bound", lineStyle(pal.Ink, 1, 1.5, 2), revValue(1, lower)})
	}
	if revisionsDiffer(in.Points, avail) {
		specs = append(specs,
			lineSpec{names[1] + " available", lineStyle(pal.Ink, 1.4), revValue(1, avail)},
			lineSpec{names[0] + " available", lineStyle(colBaseline, 1.4, 6, 2), revValue(0, avail)})
	} else {
		specs = append(specs, lineSpec{"available", lineStyle(pal.Ink, 1.4), revValue(1, avail)})
	}
	// The stage and retained lines are the candidate's whole request,
	// before any split, as the estimator's sweep prices them (not the
	// chosen plan's largest child, which the table shows): their labels
	// say so, or a reader takes them for the plan the table shows.
	for s := estimator.Stage(0); s < estimator.NumStages; s++ {
		specs = append(specs, lineSpec{stageLabel(s, in.Art) + WholeSuffix, lineStyle(pal.Stage[s], 1),
			revValue(1, func(r *estimator.PointRevision) int64 { return r.WholeStages[s] })})
	}
	retained := "retained"
	if in.Art { // WholeRetained is the outputs under ART's code
		retained = "outputs (ART)"
	}
	return append(specs, lineSpec{retained + WholeSuffix, lineStyle(pal.Retained, 1, 3, 2),
		revValue(1, func(r *estimator.PointRevision) int64 { return r.WholeRetained })})
}

// WholeSuffix marks a line of the whole request's bytes, before any
// split: the stage and retained lines.
const WholeSuffix = " (whole request)"

// artStageLabels name the WholeStages slots under ART's code: the whole
// request's activation floor, head workspace, MoE workspace and GDN
// pending floor (estimator's artPriceRevision); the other slots are 0
// and their lines left out.
var artStageLabels = map[estimator.Stage]string{
	estimator.StageActivations: "activations (ART)",
	estimator.StageHead:        "checkpoint: head (ART)",
	estimator.StageFC2:         "moe (ART)",
	estimator.StageGDN:         "checkpoint: gdn_floor (ART)",
}

// stageLabel is a stage line's name in the legend.
func stageLabel(s estimator.Stage, art bool) string {
	if l, ok := artStageLabels[s]; ok && art {
		return l
	}
	return s.String()
}

// drawChart lays out and draws the whole chart on dc: the plot above, the
// legend below it. It returns the plot's coordinate mapping.
func drawChart(in Input, dc draw.Canvas) (Frame, error) {
	if in.Axis == nil || len(in.Points) == 0 {
		return Frame{}, errors.New("chart: no points to draw")
	}
	if in.From > in.To {
		return Frame{}, fmt.Errorf("chart: empty range %d..%d", in.From, in.To)
	}
	w, h := dc.Size().X, dc.Size().Y
	pal := in.palette()

	dc.SetColor(pal.Background) // the legend's strip too, whatever the page's colour
	dc.Fill(dc.Rectangle.Path())
	if in.Caption != "" {
		dc = drawCaption(dc, in.Caption)
		h = dc.Size().Y
	}
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
	for _, spec := range append(chartLines(&in, pal), termLines(&in)...) {
		ys, top := readLine(in.Points, spec.value)
		if top <= 0 && !strings.HasSuffix(spec.label, "available") {
			continue
		}
		ymax = max(ymax, top)
		lines = append(lines, &chartLine{label: spec.label, style: spec.style, xs: xs, ys: ys})
	}
	obsLines, obsTop := in.observed.lines(xs, in.From, in.To, pal)
	lines, ymax = append(lines, obsLines...), max(ymax, obsTop)
	if ymax <= 0 {
		ymax = 1
	}
	p.Y.Min, p.Y.Max = 0, ymax*1.04

	cand := decisionRegions(in.Candidate, in.Points, 1, xmin, xmax)
	base := decisionRegions(in.Baseline, in.Points, 0, xmin, xmax)
	legend := chartLegend(lines, cand, in.names(), w, pal)
	in.observed.legend(legend, pal)
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
	pal.styleAxes(p, in.Axis, textScale(w))
	if in.Title != "" {
		p.Title.Text = in.Title
		p.Title.TextStyle = pal.text(12)
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

	p.Add(&chartBands{regions: cand, grid: yticks, pal: pal})
	p.Add(&chartHatch{spans: differing(base, cand), col: pal.Differ})
	for _, l := range lines {
		p.Add(l)
	}
	if m := in.observed.plotter(pal); m != nil {
		p.Add(m)
	}
	p.Add(&chartFlips{flips: in.Baseline, style: lineStyle(pal.Baseline, 1.2, 4, 3), top: false})
	p.Add(&chartFlips{flips: in.Candidate, style: lineStyle(pal.Candidate, 1.2), top: true})
	if in.Current >= in.From && in.Current <= in.To {
		p.Add(&chartCurrent{x: float64(in.Current), label: currentLabel(in.Axis, in.Current), scale: textScale(w), pal: pal})
	}
	frame := newFrame(p, plotC, w, h)
	for _, l := range lines {
		for i := len(l.ys) - 1; i >= 0; i-- {
			if !math.IsNaN(l.ys[i]) {
				frame.Lines = append(frame.Lines, LineEnd{Label: l.label, X: l.xs[i], Y: l.ys[i]})
				break
			}
		}
	}
	for _, r := range cand {
		frame.Bands = append(frame.Bands, Band{X0: r.x0, X1: r.x1, Decision: r.d})
	}
	p.Draw(plotC)
	legend.draw(draw.Crop(dc, 0, 0, 0, legendH-dc.Size().Y))
	return frame, nil
}

// textScale is the factor of the chart's text on a drawing w points wide:
// 1 up to 1000 points (a phone, a laptop, the exported 1600x900 PNG, which
// is drawn 960 points wide, and the goldens), then growing with the width
// to 1.3 at 1300 points, so that a chart filling a 1920 px screen keeps
// its legend and labels readable rather than small beside it.
func textScale(w vg.Length) vg.Length {
	return max(1, min(1.3, w/1000))
}

// styleAxes styles the axes in the Light palette.
func styleAxes(p *plot.Plot, axis *estimator.Field, scale vg.Length) { Light.styleAxes(p, axis, scale) }

func (pal *Palette) styleAxes(p *plot.Plot, axis *estimator.Field, scale vg.Length) {
	xlabel := axis.Key
	if byteAxis(axis) {
		xlabel += " (GiB)"
	}
	p.X.Label.Text, p.Y.Label.Text = xlabel, "GiB"
	pal.styleAxisLines(p, scale)
}

// styleAxisLines gives both axes of p the palette's ink and text sizes:
// the look every chart of the package shares.
func (pal *Palette) styleAxisLines(p *plot.Plot, scale vg.Length) {
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Padding = 0
		a.Color = pal.Ink
		a.Label.TextStyle = pal.text(11 * scale)
		a.Label.TextStyle.XAlign = draw.XCenter
		a.Label.TextStyle.YAlign = draw.YBottom
		a.Label.Padding = 2
		a.Tick.Color = pal.Ink
		a.Tick.Length = 4
		lab := pal.text(10 * scale)
		lab.XAlign, lab.YAlign = a.Tick.Label.XAlign, a.Tick.Label.YAlign
		a.Tick.Label = lab
	}
}

func clampInt(v float64, lo, hi int) int {
	return max(lo, min(hi, int(v)))
}
