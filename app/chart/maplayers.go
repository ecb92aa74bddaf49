package chart

import (
	"cmp"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"headroom/estimator"
)

// mapCell is one column of the map as drawn: the x it stands for, from x0
// to x1 in data units (the integers nearest its x, see
// MapResult.ColumnWidths), each revision's segments along y and the
// ranges where they differ.
type mapCell struct {
	x0, x1 float64
	segs   [2][]estimator.Segment
	diffs  []estimator.Difference
	flips  [2][]estimator.Flip
}

// mapCells lays the columns side by side over [xmin, xmax].
func mapCells(m *estimator.MapResult, xmin, xmax float64) []mapCell {
	cells := make([]mapCell, len(m.Columns))
	lo := m.X.From
	for i, w := range m.ColumnWidths() {
		col := &m.Columns[i]
		c := &cells[i]
		c.x0, c.x1 = max(float64(lo)-0.5, xmin), min(float64(lo+w-1)+0.5, xmax)
		lo += w
		c.segs[0] = col.Baseline.AppendSegments(nil, m.Y.From, m.Y.To)
		c.segs[1] = col.Candidate.AppendSegments(nil, m.Y.From, m.Y.To)
		c.diffs = col.AppendDifferences(nil, m.Y.From, m.Y.To)
		c.flips = [2][]estimator.Flip{col.Baseline.Flips, col.Candidate.Flips}
	}
	return cells
}

// yRange is the drawn extent of the integers from..to: half a unit either
// side, within the data area.
func yRange(trY func(float64) vg.Length, c draw.Canvas, from, to int64) (vg.Length, vg.Length) {
	return max(trY(float64(from)-0.5), c.Min.Y), min(trY(float64(to)+0.5), c.Max.Y)
}

// shadeOverlap is how far a shade runs on under its neighbours.
const shadeOverlap = 2

// mapRegions shades each column's segments by the candidate's decision
// (invalid points grey).
type mapRegions struct{ cells []mapCell }

// Plot implements plot.Plotter.
func (r *mapRegions) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i, cell := range r.cells {
		x0, x1 := max(trX(cell.x0), c.Min.X), min(trX(cell.x1), c.Max.X)
		// Each shade runs on under the next column and the next segment,
		// which cover it: edges that meet inside a pixel would leave a
		// light seam where the anti-aliasing lets the white through.
		if i+1 < len(r.cells) {
			x1 = min(x1+shadeOverlap, c.Max.X)
		}
		for _, s := range cell.segs[1] {
			y0, y1 := yRange(trY, c, s.From, s.To)
			if x1 > x0 && y1 > y0 {
				c.SetColor(colDecision[s.Decision])
				c.Fill(rectPath(x0, y0, x1, min(y1+shadeOverlap, c.Max.Y)))
			}
		}
	}
}

// mapHatch hatches where the revisions differ, with 45-degree lines
// whose phase is the picture's, not the column's, so they run on across
// columns; a range too thin to hatch is a solid sliver.
type mapHatch struct{ cells []mapCell }

// hatchSeg is a piece of hatch line k between x0 and x1 (canvas units).
type hatchSeg struct {
	k      int
	x0, x1 vg.Length
}

const hatchStep = 6

// Plot implements plot.Plotter.
func (h *mapHatch) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var segs []hatchSeg
	var slivers vg.Path
	for _, cell := range h.cells {
		x0, x1 := max(trX(cell.x0), c.Min.X), min(trX(cell.x1), c.Max.X)
		for _, d := range cell.diffs {
			y0, y1 := yRange(trY, c, d.From, d.To)
			if x1 <= x0 || y1 < y0 {
				continue
			}
			if y1-y0 < 3 {
				mid := (y0 + y1) / 2
				slivers.Move(vg.Point{X: x0, Y: mid - 1})
				slivers.Line(vg.Point{X: x1, Y: mid - 1})
				slivers.Line(vg.Point{X: x1, Y: mid + 1})
				slivers.Line(vg.Point{X: x0, Y: mid + 1})
				slivers.Close()
				continue
			}
			// Line k: y - c.Min.Y = x - c.Min.X - k step.
			kmin := int((x0 - c.Min.X - (y1 - c.Min.Y)) / hatchStep)
			kmax := int((x1-c.Min.X-(y0-c.Min.Y))/hatchStep) + 1
			for k := kmin; k <= kmax; k++ {
				off := c.Min.X + vg.Length(k)*hatchStep - c.Min.Y // x = y + off
				a, b := max(x0, y0+off), min(x1, y1+off)
				if b > a {
					segs = append(segs, hatchSeg{k, a, b})
				}
			}
		}
	}
	slices.SortFunc(segs, func(a, b hatchSeg) int {
		return cmp.Or(cmp.Compare(a.k, b.k), cmp.Compare(a.x0, b.x0))
	})
	var path vg.Path
	for i := 0; i < len(segs); {
		s := segs[i]
		j := i + 1
		for j < len(segs) && segs[j].k == s.k && segs[j].x0-s.x1 < 1e-6 {
			s.x1 = max(s.x1, segs[j].x1)
			j++
		}
		off := c.Min.X + vg.Length(s.k)*hatchStep - c.Min.Y
		path.Move(vg.Point{X: s.x0, Y: s.x0 - off})
		path.Line(vg.Point{X: s.x1, Y: s.x1 - off})
		i = j
	}
	c.SetLineStyle(lineStyle(colDiffer, 0.8))
	c.Stroke(path)
	c.SetColor(colDiffer)
	c.Fill(slivers)
}

// mapBoundaries draws one revision's boundaries: across each column at
// each flip (halfway between its last and first y), joined at the
// column's edge to the same flip of the next column (the same change of
// decision, counted from the bottom), so each boundary is one stepped
// line and its dashes run on from column to column.
type mapBoundaries struct {
	cells []mapCell
	rev   int
	style draw.LineStyle
}

// Plot implements plot.Plotter.
func (b *mapBoundaries) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	flipY := func(f estimator.Flip) vg.Length { return trY(float64(f.Last) + 0.5) }
	// joined[i][j]: flip j of column i continues a line from column i-1.
	joined := make([][]bool, len(b.cells))
	for i := range b.cells {
		joined[i] = make([]bool, len(b.cells[i].flips[b.rev]))
	}
	var path vg.Path
	for i := range b.cells {
		for j := range b.cells[i].flips[b.rev] {
			if joined[i][j] {
				continue
			}
			// Follow the line from column i to where it ends.
			ci, cj := i, j
			y := flipY(b.cells[ci].flips[b.rev][cj])
			path.Move(vg.Point{X: max(trX(b.cells[ci].x0), c.Min.X), Y: y})
			for {
				x1 := min(trX(b.cells[ci].x1), c.Max.X)
				path.Line(vg.Point{X: x1, Y: y})
				if ci+1 == len(b.cells) {
					break
				}
				nj, ok := sameFlip(b.cells[ci].flips[b.rev], cj, b.cells[ci+1].flips[b.rev])
				if !ok {
					break
				}
				ci, cj = ci+1, nj
				joined[ci][cj] = true
				y = flipY(b.cells[ci].flips[b.rev][cj])
				path.Line(vg.Point{X: x1, Y: y})
			}
		}
	}
	c.SetLineStyle(b.style)
	c.Stroke(path)
}

// sameFlip finds the index in next of the flip that continues flips[j]:
// the same change of decision, the same count of such changes below it.
func sameFlip(flips []estimator.Flip, j int, next []estimator.Flip) (int, bool) {
	f := flips[j]
	nth := 0
	for _, g := range flips[:j] {
		if g.FromDecision == f.FromDecision && g.ToDecision == f.ToDecision {
			nth++
		}
	}
	for k, g := range next {
		if g.FromDecision == f.FromDecision && g.ToDecision == f.ToDecision {
			if nth == 0 {
				return k, true
			}
			nth--
		}
	}
	return 0, false
}

// mapCurrent marks the config's own point, with its values.
type mapCurrent struct {
	x, y  float64
	label string
}

// Plot implements plot.Plotter.
func (m *mapCurrent) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	pt := vg.Point{X: trX(m.x), Y: trY(m.y)}
	currentMarker(c, pt)
	sty := textStyle(10)
	sty.YAlign = draw.YCenter
	tw, th := sty.Width(m.label), sty.Height(m.label)
	tx := pt.X + 9
	if tx+tw > c.Max.X-2 { // no room on the right: label on the left
		tx = pt.X - 9 - tw
	}
	c.SetColor(color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xd8})
	c.Fill(rectPath(tx-2, pt.Y-th/2-1, tx+tw+2, pt.Y+th/2+1))
	c.FillText(sty, vg.Point{X: tx, Y: pt.Y}, m.label)
}

// currentMarker is a ringed dot: dark on any shade, white-edged on the
// boundaries.
func currentMarker(c draw.Canvas, pt vg.Point) {
	var ring vg.Path
	ring.Move(vg.Point{X: pt.X + 5, Y: pt.Y})
	ring.Arc(pt, 5, 0, 2*math.Pi)
	ring.Close()
	c.SetLineStyle(lineStyle(color.White, 3.5))
	c.Stroke(ring)
	c.SetLineStyle(lineStyle(colInk, 1.6))
	c.Stroke(ring)
	var dot vg.Path
	dot.Move(vg.Point{X: pt.X + 1.8, Y: pt.Y})
	dot.Arc(pt, 1.8, 0, 2*math.Pi)
	dot.Close()
	c.SetColor(colInk)
	c.Fill(dot)
}
