package chart

import (
	"math"

	"headroom/estimator"
)

// readLine reads one line's values in GiB, NaN at invalid points (and
// where value has none: a revision invalid alone), and its largest value.
func readLine(pts []estimator.Point, value func(*estimator.Point) (int64, bool)) ([]float64, float64) {
	ys := make([]float64, len(pts))
	top := 0.0
	for i := range pts {
		v, ok := value(&pts[i])
		if pts[i].Error != "" || !ok {
			ys[i] = math.NaN()
			continue
		}
		ys[i] = gib(v)
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
func decisionRegions(flips []estimator.Flip, pts []estimator.Point, rev estimator.Revision, xmin, xmax float64) []region {
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
