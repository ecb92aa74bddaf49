package chart

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"headroom/estimator"
)

// chartObserved is what the rows chart adds for a config's observed peaks
// (docs/model.md §12): the measured points, drawn as markers, and
// each revision's predicted peak (in_use + retained + ephemeral of a piece
// of x rows, no safety, no reserve) along the grid, drawn as lines beside
// the required ones.
//
// The predicted lines are the points' own predictions: a piece of x rows
// of the config as given (p and t from its N, P and T), so each line
// passes through its revision's prediction at every marker's rows. They
// are not re-resolved with rows = x, as the required lines are.
type chartObserved struct {
	points    []estimator.ObservedPoint
	predicted [2][]float64 // GiB at each grid x, by revision; NaN on overflow
	// ceiling is the candidate's available bytes plus its memory in use
	// at each grid x (GiB; NaN at an invalid point): the line a predicted
	// or observed peak meets, since peaks count the memory in use and the
	// "available" line does not. Without it a candidate's predicted peak
	// crossed "available" near 170,000 rows while it admitted up to
	// 279,234.
	ceiling []float64
}

// AddObserved adds cfg's observed peaks to the chart: markers at the
// points and each revision's predicted-peak line. The points are drawn
// along rows only: on another axis it returns a note saying so and leaves
// in unchanged, as it does for a config without points.
func (in *Input) AddObserved(cfg estimator.Config) (note string, err error) {
	if len(cfg.Observed) == 0 {
		return "", nil
	}
	if in.Axis == nil {
		return "", nil
	}
	if in.Axis.Key != "rows" {
		return fmt.Sprintf("the %d observed points are drawn along rows only; this chart (along %s) leaves them out", len(cfg.Observed), in.Axis.Key), nil
	}
	pr, err := estimator.NewPredictor(cfg)
	if err != nil {
		return "", err
	}
	o := &chartObserved{points: cfg.Observed}
	for rev := range o.predicted {
		o.predicted[rev] = make([]float64, len(in.Points))
	}
	if rv, err := cfg.ResolveRevisions(); err == nil {
		inUse := rv.Rev[1].InUse
		o.ceiling = make([]float64, len(in.Points))
		for i := range in.Points {
			o.ceiling[i] = math.NaN()
			if pt := &in.Points[i]; pt.Error == "" && pt.Rev[1].Error == "" {
				o.ceiling[i] = gib(pt.Rev[1].AvailableBytes + inUse)
			}
		}
	}
	for i := range in.Points {
		peaks, err := pr.Peaks(in.Points[i].X)
		for rev := range o.predicted {
			o.predicted[rev][i] = math.NaN()
			if err == nil {
				o.predicted[rev][i] = gib(peaks[rev])
			}
		}
	}
	in.observed = o
	return "", nil
}

// lines are the predicted-peak lines over the grid xs, and the top of
// what the layer draws within [from, to] (markers included), for the y
// range. A nil layer draws nothing.
func (o *chartObserved) lines(xs []float64, from, to int64, pal *Palette) ([]*chartLine, float64) {
	if o == nil {
		return nil, 0
	}
	top := 0.0
	for _, pt := range o.points {
		if pt.Rows >= from && pt.Rows <= to {
			top = max(top, gib(pt.PeakBytes))
		}
	}
	var out []*chartLine
	for _, rev := range [2]estimator.Revision{estimator.CandidateRev, estimator.BaselineRev} {
		ys := o.predicted[rev]
		for _, y := range ys {
			if !math.IsNaN(y) {
				top = max(top, y)
			}
		}
		out = append(out, &chartLine{label: revName[rev] + " predicted peak", style: predictedStyle(pal, rev), xs: xs, ys: ys})
	}
	if o.ceiling != nil {
		for _, y := range o.ceiling {
			if !math.IsNaN(y) {
				top = max(top, y)
			}
		}
		out = append(out, &chartLine{label: CeilingLabel, style: lineStyle(pal.Ink, 1, 1, 3), xs: xs, ys: o.ceiling})
	}
	return out, top
}

// CeilingLabel names the line the peaks are read against: the
// candidate's available bytes plus its memory in use.
const CeilingLabel = "available + in use (the peaks' scale)"

var revName = [2]string{"baseline", "candidate"}

// predictedStyle is revision rev's predicted-peak line.
func predictedStyle(pal *Palette, rev estimator.Revision) draw.LineStyle {
	col := [2]color.Color{pal.Baseline, pal.Candidate}[rev]
	return lineStyle(col, 1.3, 6, 2, 1.5, 2)
}

// plotter draws the markers; nil when there is no layer.
func (o *chartObserved) plotter(pal *Palette) plot.Plotter {
	if o == nil {
		return nil
	}
	return &chartMarkers{points: o.points, pal: pal}
}

// legend adds the markers' entry to lb.
func (o *chartObserved) legend(lb *legendBox, pal *Palette) {
	if o == nil {
		return
	}
	lb.entries = append(lb.entries, legendEntry{label: "observed peak", thumb: func(c draw.Canvas, r vg.Rectangle) {
		var m vg.Path
		diamond(&m, (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2, 5)
		drawMarker(c, m, pal)
	}})
}

// chartMarkers draws the observed points as diamonds, leaving out those
// outside the chart's range.
type chartMarkers struct {
	points []estimator.ObservedPoint
	pal    *Palette
}

// Plot implements plot.Plotter.
func (m *chartMarkers) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var path vg.Path
	for _, pt := range m.points {
		x, y := trX(float64(pt.Rows)), trY(gib(pt.PeakBytes))
		if c.ContainsX(x) && c.ContainsY(y) {
			diamond(&path, x, y, 5)
		}
	}
	drawMarker(c, path, m.pal)
}

// drawMarker fills the diamonds in ink with a white rim, so a marker on a
// line stays visible.
func drawMarker(c draw.Canvas, path vg.Path, pal *Palette) {
	c.SetLineStyle(lineStyle(pal.Rim, 1.2))
	c.Stroke(path)
	c.SetColor(pal.Ink)
	c.Fill(path)
}

// diamond adds to p a diamond of half-width r centred on (x, y).
func diamond(p *vg.Path, x, y, r vg.Length) {
	p.Move(vg.Point{X: x, Y: y + r})
	p.Line(vg.Point{X: x + r, Y: y})
	p.Line(vg.Point{X: x, Y: y - r})
	p.Line(vg.Point{X: x - r, Y: y})
	p.Close()
}
