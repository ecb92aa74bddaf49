package chart

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"headroom/estimator"
)

// Frame is the coordinate mapping of a rendered chart, in the SVG's own
// coordinates: the viewBox's units (points), origin at the top left, y
// downwards, as a browser reads a pointer over the <svg> once it divides
// by the element's scale. SVGFrame returns it with the SVG; it is taken
// from the same gonum/plot layout (Plot.DataCanvas and Plot.Transforms)
// that places every line of the drawing, so a pixel the overlay computes
// is the pixel the chart drew. An overlay (a crosshair, a read-out, a
// selection) is positioned from it without drawing the chart again, and
// a map view can do the same with its own Frame.
type Frame struct {
	Width, Height float64 // the SVG's viewBox
	Plot          Rect    // the plot's data area
	// XMin and XMax are the data values at Plot.Left and Plot.Right;
	// YMin and YMax those at Plot.Bottom and Plot.Top (GiB on the
	// one-input chart).
	XMin, XMax float64
	YMin, YMax float64
	// Bands are the candidate's decision regions, in data units, as the
	// chart shades them: the overlay labels them, so the bands read
	// without their colours.
	Bands []Band
	// Lines are the drawn lines' last points, in data units, with their
	// legend labels: the overlay names each line where it ends, so the
	// lines read without their colours.
	Lines []LineEnd
}

// LineEnd is where a line of the chart ends.
type LineEnd struct {
	Label string
	X, Y  float64
}

// Rect is a rectangle in SVG coordinates (y downwards): Top < Bottom.
type Rect struct {
	Left, Top, Right, Bottom float64
}

// Band is an interval of x, [X0, X1] in data units, with one decision.
type Band struct {
	X0, X1   float64
	Decision estimator.Decision
}

// XToPixel is the SVG x of the data value x (linear, as the chart's axis).
func (f Frame) XToPixel(x float64) float64 {
	return f.Plot.Left + (x-f.XMin)/(f.XMax-f.XMin)*(f.Plot.Right-f.Plot.Left)
}

// PixelToX is the data value at SVG x px, the inverse of XToPixel.
func (f Frame) PixelToX(px float64) float64 {
	return f.XMin + (px-f.Plot.Left)/(f.Plot.Right-f.Plot.Left)*(f.XMax-f.XMin)
}

// YToPixel is the SVG y of the data value y.
func (f Frame) YToPixel(y float64) float64 {
	return f.Plot.Bottom - (y-f.YMin)/(f.YMax-f.YMin)*(f.Plot.Bottom-f.Plot.Top)
}

// InPlot reports whether the SVG point (px, py) is in the data area.
func (f Frame) InPlot(px, py float64) bool {
	return px >= f.Plot.Left && px <= f.Plot.Right && py >= f.Plot.Top && py <= f.Plot.Bottom
}

// newFrame reads the frame of p drawn in plotC on a canvas of height h:
// the data area Plot.Draw will use, its corners mapped through
// Plot.Transforms and flipped to y downwards.
func newFrame(p *plot.Plot, plotC draw.Canvas, w, h vg.Length) Frame {
	dataC := p.DataCanvas(plotC)
	trX, trY := p.Transforms(&dataC)
	return Frame{
		Width: float64(w), Height: float64(h),
		Plot: Rect{
			Left: float64(trX(p.X.Min)), Right: float64(trX(p.X.Max)),
			Top: float64(h - trY(p.Y.Max)), Bottom: float64(h - trY(p.Y.Min)),
		},
		XMin: p.X.Min, XMax: p.X.Max, YMin: p.Y.Min, YMax: p.Y.Max,
	}
}
