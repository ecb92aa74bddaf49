package chart

import (
	"errors"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// HistogramBins is the number of bins of a workload's histogram.
const HistogramBins = 60

// Histogram is a workload's requests along rows, weighted by count: bin i
// holds the requests of i x Width + 1 to (i+1) x Width rows.
type Histogram struct {
	Width    int64   // rows per bin, at least 1
	Requests []int64 // per bin, HistogramBins of them
}

// NewHistogram bins requests of rows[i] rows, counts[i] of each, into
// HistogramBins bins of equal width from 1 to the largest rows (rounded
// up to a whole bin). The slices have one entry per workload line.
func NewHistogram(rows, counts []int32) Histogram {
	var top int64 = 1
	for _, r := range rows {
		top = max(top, int64(r))
	}
	h := Histogram{Width: (top + HistogramBins - 1) / HistogramBins, Requests: make([]int64, HistogramBins)}
	for i, r := range rows {
		h.Requests[(max(int64(r), 1)-1)/h.Width] += int64(counts[i]) // at most 2^31 lines of < 2^31
	}
	return h
}

// To is the histogram's last row: the right end of its last bin.
func (h Histogram) To() int64 { return h.Width * int64(len(h.Requests)) }

// WorkloadSVG draws a workload's histogram (requests per bin of rows)
// over the decisions of the config along rows: sweep is Build's along
// rows over [1, h.To()], whose candidate bands shade the background,
// hatched where the baseline decides differently, with both revisions'
// flips. It draws as SVG does (one <svg> element, no inline styles) and
// never panics.
func WorkloadSVG(h Histogram, sweep Input, width, height vg.Length) (svg []byte, err error) {
	defer recoverChart(&err)
	if err := CheckSize(float64(width), float64(height)); err != nil {
		return nil, err
	}
	if len(h.Requests) == 0 || h.Width < 1 || sweep.Axis == nil || sweep.Axis.Key != "rows" || len(sweep.Points) == 0 {
		return nil, errors.New("chart: no workload to draw")
	}
	c := newSVGCanvas(width, height)
	dc := draw.New(c)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())

	p := plot.New()
	p.BackgroundColor = nil
	xmin, xmax := 0.5, float64(h.To())+0.5
	p.X.Min, p.X.Max = xmin, xmax
	var top int64 = 1
	for _, n := range h.Requests {
		top = max(top, n)
	}
	p.Y.Min, p.Y.Max = 0, float64(top)*1.08

	cand := decisionRegions(sweep.Candidate, sweep.Points, 1, xmin, xmax)
	base := decisionRegions(sweep.Baseline, sweep.Points, 0, xmin, xmax)
	legend := chartLegend(nil, cand, sweep.names(), width, &Light)
	legend.entries = append([]legendEntry{{label: "requests (weighted by count)", thumb: func(c draw.Canvas, r vg.Rectangle) {
		c.SetColor(colBars)
		c.Fill(rectPath(r.Min.X+3, r.Min.Y, r.Max.X-3, r.Max.Y))
	}}}, legend.entries...)
	plotC, legendH, yticks := legend.legendAndTicks(p, dc, width, height, xmin, xmax)
	p.Y.Tick.Marker = plot.ConstantTicks(integerTicks(yticks))
	styleAxes(p, sweep.Axis, textScale(width))
	p.Y.Label.Text = "requests"

	p.Add(&chartBands{regions: cand, grid: yticks, pal: &Light})
	p.Add(&chartHatch{spans: differing(base, cand), col: Light.Differ})
	p.Add(&chartBars{h: h})
	p.Add(&chartFlips{flips: sweep.Baseline, style: lineStyle(colBaseline, 1.2, 4, 3), top: false})
	p.Add(&chartFlips{flips: sweep.Candidate, style: lineStyle(colCandidate, 1.2), top: true})
	p.Draw(plotC)
	legend.draw(draw.Crop(dc, 0, 0, 0, legendH-dc.Size().Y))
	return c.bytes(), nil
}

// integerTicks drops the fractional ticks of a small count axis.
func integerTicks(ticks []plot.Tick) []plot.Tick {
	out := ticks[:0:0]
	for _, t := range ticks {
		if t.Value == float64(int64(t.Value)) {
			out = append(out, t)
		}
	}
	return out
}

// colBars is the histogram's ink: dark enough over every band.
var colBars = color.NRGBA{R: 0x33, G: 0x33, B: 0x44, A: 0xc0}

// chartBars draws the histogram's bins as bars.
type chartBars struct{ h Histogram }

// Plot implements plot.Plotter.
func (b *chartBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var path vg.Path
	for i, n := range b.h.Requests {
		if n == 0 {
			continue
		}
		x0 := trX(float64(int64(i)*b.h.Width) + 0.5)
		x1 := trX(float64(int64(i+1)*b.h.Width) + 0.5)
		gap := min((x1-x0)/8, 1)
		y1 := max(trY(float64(n)), c.Min.Y+1) // a bin of one request stays visible
		r := rectPath(x0+gap, c.Min.Y, x1-gap, y1)
		path = append(path, r...)
	}
	c.SetColor(colBars)
	c.Fill(path)
}
