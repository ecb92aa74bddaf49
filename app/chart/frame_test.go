package chart

import (
	"math"
	"regexp"
	"strconv"
	"testing"

	"gonum.org/v1/plot/vg"

	"headroom/estimator"
)

// near reports whether a and b agree to the SVG's five significant digits.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-4*math.Max(1, math.Abs(b)) }

// TestFrameCorners checks the mapping at the plot's corners, its round
// trips, and that it is the drawing's: the current value's marker, a
// vertical drawn by the chart through gonum's own transform, sits at
// XToPixel(Current) and spans the data area's top and bottom exactly.
func TestFrameCorners(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		w, h     vg.Length
		axis     string
		from, to int64
		title    string
	}{
		{"page size along rows", 720, 360, "rows", 1, 1_000_000, ""},
		{"golden size with a title", 1200, 675, "rows", 1, 1_000_000, "a title"},
		{"phone along vocab", 300, 240, "vocab_size", 1, 2_000_000, ""},
		{"one point wide", 720, 360, "rows", 64_902, 64_902, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, err := Build(estimator.Default(), tc.axis, tc.from, tc.to, 64)
			if err != nil {
				t.Fatal(err)
			}
			in.Title = tc.title
			in.Current = (tc.from + tc.to) / 2
			svg, f, err := SVGFrame(in, tc.w, tc.h)
			if err != nil {
				t.Fatal(err)
			}
			plain, err := SVG(in, tc.w, tc.h)
			if err != nil || string(plain) != string(svg) {
				t.Fatalf("SVG and SVGFrame differ (err %v)", err)
			}
			if f.Width != float64(tc.w) || f.Height != float64(tc.h) {
				t.Errorf("frame size %gx%g, want %gx%g", f.Width, f.Height, float64(tc.w), float64(tc.h))
			}
			r := f.Plot
			if !(0 < r.Left && r.Left < r.Right && r.Right < f.Width && 0 < r.Top && r.Top < r.Bottom && r.Bottom < f.Height) {
				t.Fatalf("plot area %+v is not inside %gx%g", r, f.Width, f.Height)
			}
			lo, hi := float64(tc.from), float64(tc.to)
			if lo == hi {
				lo, hi = lo-0.5, hi+0.5
			}
			corners := []struct {
				name      string
				got, want float64
			}{
				{"XToPixel(from)", f.XToPixel(lo), r.Left},
				{"XToPixel(to)", f.XToPixel(hi), r.Right},
				{"PixelToX(left)", f.PixelToX(r.Left), lo},
				{"PixelToX(right)", f.PixelToX(r.Right), hi},
				{"YToPixel(ymin)", f.YToPixel(f.YMin), r.Bottom},
				{"YToPixel(ymax)", f.YToPixel(f.YMax), r.Top},
			}
			for _, c := range corners {
				if math.Abs(c.got-c.want) > 1e-9*math.Max(1, math.Abs(c.want)) {
					t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
				}
			}
			for _, x := range []float64{lo, hi, (lo + hi) / 2, lo + (hi-lo)/3} {
				if got := f.PixelToX(f.XToPixel(x)); math.Abs(got-x) > 1e-9*math.Max(1, math.Abs(x)) {
					t.Errorf("PixelToX(XToPixel(%v)) = %v", x, got)
				}
			}
			for _, px := range []float64{r.Left, r.Right, (r.Left + r.Right) / 2} {
				if got := f.XToPixel(f.PixelToX(px)); math.Abs(got-px) > 1e-9 {
					t.Errorf("XToPixel(PixelToX(%v)) = %v", px, got)
				}
			}
			if !f.InPlot(r.Left, r.Top) || !f.InPlot(r.Right, r.Bottom) || f.InPlot(r.Left-1, r.Top) || f.InPlot(r.Left, r.Bottom+1) {
				t.Errorf("InPlot disagrees with the plot area %+v", r)
			}
			// The marker of the current value: M x,y0L x,y1 in the
			// drawing's bottom-up coordinates, dashed 2,2.
			re := regexp.MustCompile(`<path d="M([0-9.e+-]+),([0-9.e+-]+)L([0-9.e+-]+),([0-9.e+-]+)" fill="none" stroke="#222222" stroke-width="1.2" stroke-dasharray="2,2"`)
			m := re.FindSubmatch(svg)
			if m == nil {
				t.Fatal("no current-value marker in the SVG")
			}
			var v [4]float64
			for i := range v {
				v[i], _ = strconv.ParseFloat(string(m[i+1]), 64)
			}
			h := f.Height
			if !near(v[0], f.XToPixel(float64(in.Current))) || !near(v[2], v[0]) {
				t.Errorf("marker at x %v..%v, XToPixel(%d) = %v", v[0], v[2], in.Current, f.XToPixel(float64(in.Current)))
			}
			if !near(v[1], h-r.Bottom) || !near(v[3], h-r.Top) { // compared as written, to five digits
				t.Errorf("marker spans y %v..%v (top-down), plot area %v..%v", h-v[3], h-v[1], r.Top, r.Bottom)
			}
			if len(f.Lines) < 4 || f.Lines[0].Label != "candidate required" || f.Lines[0].X != float64(in.Points[len(in.Points)-1].X) ||
				f.Lines[0].Y != gib(in.Points[len(in.Points)-1].Rev[1].RequiredBytes) {
				t.Errorf("line ends %+v: the first is not the candidate's last required bytes", f.Lines)
			}
			if len(f.Bands) == 0 || f.Bands[0].X0 != lo || f.Bands[len(f.Bands)-1].X1 != hi {
				t.Errorf("bands %+v do not cover %v..%v", f.Bands, lo, hi)
			}
		})
	}
}
