package chartview

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"

	"headroom/app/chart"
	"headroom/app/report"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// The chart's pointer and keyboard. The page draws the chart
// once per state; what follows the pointer (a crosshair, the read-out, a
// drag's selection, the bands' labels) is an overlay over the SVG,
// positioned from the chart's own coordinate mapping (chart.Frame), so a
// pointer move draws nothing again. Drawing is what the overlay needs
// of one rendered chart: the explorer's render makes a new one with each
// drawing. Its read-outs come from the estimator (Revisions.Set and
// Estimate, as the sweep moves the axis), never from arithmetic here.
//
// A map view can reuse the overlay: it needs a Frame (its x mapping), the
// x values to snap to, and a read-out per x.

// Drawing is one rendered chart as the overlay sees it. Made on the
// UI goroutine and then only read, except memo, which only the pointer's
// handlers (one at a time: the browser's events) touch.
type Drawing struct {
	frame    chart.Frame
	field    *estimator.Field
	cfg      estimator.Config
	rv       estimator.Revisions
	from, to int64
	current  int64
	grid     []int64 // the sweep's x values, increasing
	flips    []int64 // the first x of every flip of either revision, increasing, unique
	snaps    []int64 // grid and both sides of every flip, increasing, unique
	memo     map[int64]readout
}

// NewDrawing describes the chart drawn from in with frame f for cfg.
func NewDrawing(cfg estimator.Config, in chart.Input, f chart.Frame) (*Drawing, error) {
	rv, err := cfg.ResolveRevisions()
	if err != nil {
		return nil, err
	}
	v := &Drawing{frame: f, field: in.Axis, cfg: cfg, rv: rv, from: in.From, to: in.To,
		current: in.Current, memo: map[int64]readout{}}
	v.grid = make([]int64, 0, len(in.Points))
	for i := range in.Points {
		v.grid = append(v.grid, in.Points[i].X)
	}
	v.snaps = append([]int64(nil), v.grid...)
	for _, fl := range append(append([]estimator.Flip(nil), in.Baseline...), in.Candidate...) {
		v.flips = append(v.flips, fl.First)
		v.snaps = append(v.snaps, fl.Last, fl.First)
	}
	v.flips, v.snaps = uniqueSorted(v.flips), uniqueSorted(v.snaps)
	return v, nil
}

func uniqueSorted(xs []int64) []int64 {
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}

// snap is the x under SVG x px: the nearest sweep point or flip, within
// the range.
func (v *Drawing) snap(px float64) int64 {
	x := v.frame.PixelToX(px)
	i := sort.Search(len(v.snaps), func(i int) bool { return float64(v.snaps[i]) >= x })
	switch {
	case i == 0:
		return v.snaps[0]
	case i == len(v.snaps):
		return v.snaps[len(v.snaps)-1]
	}
	if x-float64(v.snaps[i-1]) <= float64(v.snaps[i])-x {
		return v.snaps[i-1]
	}
	return v.snaps[i]
}

// rangeOf is the range [from, to] that a drag from SVG x a to b selects,
// rounded to whole values inside the current range; ok is false when it
// holds fewer than two values.
func (v *Drawing) rangeOf(a, b float64) (from, to int64, ok bool) {
	if a > b {
		a, b = b, a
	}
	clamp := func(x float64) int64 {
		return max(v.from, min(v.to, int64(x+0.5)))
	}
	from, to = clamp(v.frame.PixelToX(a)), clamp(v.frame.PixelToX(b))
	return from, to, to > from
}

// Keys the chart answers, as KeyboardEvent.key names them.
const (
	keyLeft     = "ArrowLeft"
	keyRight    = "ArrowRight"
	keyPageUp   = "PageUp"
	keyPageDown = "PageDown"
	keyHome     = "Home"
	keyEnd      = "End"
)

// step is where a key moves the current value cur: one sweep point left
// or right (ten with shift), the previous (PageUp) or next (PageDown)
// flip of either revision, the range's ends (Home, End). ok is false for
// a key the chart does not take; the value may stay where it is (no flip
// beyond it).
func (v *Drawing) step(cur int64, key string, shift bool) (x int64, ok bool) {
	n := 1
	if shift {
		n = 10
	}
	g := v.grid
	switch key {
	case keyRight: // the n-th grid point above cur
		i := sort.Search(len(g), func(i int) bool { return g[i] > cur })
		return g[min(i+n-1, len(g)-1)], true
	case keyLeft:
		i := sort.Search(len(g), func(i int) bool { return g[i] >= cur }) // g[i-1] < cur
		return g[max(i-n, 0)], true
	case keyPageDown:
		if i := sort.Search(len(v.flips), func(i int) bool { return v.flips[i] > cur }); i < len(v.flips) {
			return v.flips[i], true
		}
		return cur, true
	case keyPageUp:
		if i := sort.Search(len(v.flips), func(i int) bool { return v.flips[i] >= cur }); i > 0 {
			return v.flips[i-1], true
		}
		return cur, true
	case keyHome:
		return v.from, true
	case keyEnd:
		return v.to, true
	}
	return 0, false
}

// readout is what the read-out shows at one x.
type readout struct {
	X     int64
	XText string
	Rev   [2]revReadout // baseline, candidate
	// Texts and Data are each revision's line and its numbers as JSON
	// (the element's data-readout, which the browser tests read), written
	// once per x.
	Texts, Data [2]string
}

// revReadout is one revision at x; Error is set when it cannot be priced.
type revReadout struct {
	Decision string `json:"decision"`
	Dominant string `json:"dominant"`
	Children int64  `json:"children,string"` // strings: JavaScript's numbers would round bytes past 2^53
	Required int64  `json:"required,string"`
	Margin   int64  `json:"margin,string"`
	Error    string `json:"error,omitempty"`
}

// readoutAt is the estimate at x, as the sweep moves the axis
// (Revisions.Set: sweeping rows carries projected and target rows), kept
// per chart: the estimator prices each x once.
func (v *Drawing) readoutAt(x int64) readout {
	if r, ok := v.memo[x]; ok {
		return r
	}
	r := readout{X: x, XText: v.field.Key + " " + v.field.FormatValue(x, &v.cfg)}
	rv := v.rv
	res, err := estimatedAt(&rv, v.field.Key, x)
	for i, o := range [2]*estimator.Outcome{&res.Baseline, &res.Candidate} {
		if err != nil {
			r.Rev[i].Error = page.MessageOf(err)
			continue
		}
		// What dominates, in the decision panel's words (report.Dominates).
		r.Rev[i] = revReadout{Decision: o.Decision.String(), Dominant: report.Dominates(*o, rv.Rev[i].Art), Children: o.Children,
			Required: int64(o.RequiredBytes), Margin: int64(o.MarginBytes)}
	}
	for i, name := range [2]string{"Baseline", "Candidate"} {
		r.Texts[i] = r.Rev[i].Text(name)
		data, _ := json.Marshal(r.Rev[i]) // ints and strings: it cannot fail
		r.Data[i] = string(data)
	}
	if len(v.memo) > 4096 {
		clear(v.memo)
	}
	v.memo[x] = r
	return r
}

// estimatedAt prices rv with the axis at x.
func estimatedAt(rv *estimator.Revisions, axis string, x int64) (estimator.Result, error) {
	if err := rv.Set(axis, x); err != nil {
		return estimator.Result{}, err
	}
	return rv.Estimate()
}

// Text is the revision's line of the read-out.
func (r revReadout) Text(name string) string {
	if r.Error != "" {
		return name + ": cannot be priced here: " + r.Error
	}
	children := strconv.FormatInt(r.Children, 10) + " children"
	if r.Children == 1 {
		children = "1 child"
	}
	return name + ": " + r.Decision + ", " + children + ", required " + estimator.FormatBytes(r.Required) +
		", margin " + estimator.FormatBytes(r.Margin) + ", dominates " + r.Dominant
}

// axisEdit is the edit that sets the axis input to x: in_use_bytes is
// typed in GiB (exactly: GiBText reads back the same bytes).
func axisEdit(axis string, x int64) page.Edit {
	if axis == estimator.KeyInUseBytes {
		return page.Edit{Kind: page.EditText, Key: page.KeyInUseGiB, Text: page.GiBText(x)}
	}
	return page.Edit{Kind: page.EditText, Key: axis, Text: strconv.FormatInt(x, 10)}
}

// lineLabelGap is the height, in CSS pixels, a line's label takes.
const lineLabelGap = 13

// bandLabelRow is the height, in CSS pixels, the band labels take at the
// plot's bottom (11 px text, 4 px above the axis): no line label goes
// there.
const bandLabelRow = 20

// leaderRoom is the room, in CSS pixels, between a line's end and its
// label's right edge, where a leader runs.
const leaderRoom = 6

// lineLabelTops places the lines' labels, whose lines end at heights ends
// (CSS pixels, y down), between the plot's top and the band labels' row
// above its bottom, at least lineLabelGap apart (spreadLabels): the
// centre of each label.
func lineLabelTops(ends []float64, top, bottom float64) []float64 {
	return spreadLabels(ends, lineLabelGap, top+lineLabelGap/2, bottom-bandLabelRow-lineLabelGap/2)
}

// narrowChart is the chart width, in CSS pixels, below which the lines
// are named by the legend alone: at 390 px the nine labels of a compared
// setup, each up to half the width, stacked over the plot's right half
// and above its top.
const narrowChart = 480

// shownLineLabels is how many of n lines' labels the chart draws (the
// first ones, in the frame's order): none on a narrow chart, else as
// many as fit lineLabelGap apart between the plot's top and the band
// labels' row, so that none is pushed above the plot. The legend names
// every line either way.
func shownLineLabels(n int, chartW, top, bottom float64) int {
	if chartW < narrowChart {
		return 0
	}
	room := bottom - bandLabelRow - top
	return max(0, min(n, int(room/lineLabelGap)))
}

// leaderSpan is the vertical leader joining a line's end at height end to
// its label centred at y: its top and height; none when the label sits
// within 3 px of the end.
func leaderSpan(end, y float64) (top, height float64, ok bool) {
	if math.Abs(end-y) <= 3 {
		return 0, 0, false
	}
	return min(end, y), math.Abs(end - y), true
}

// spreadLabels places labels wanted at heights ys (CSS pixels, y down),
// at least gap apart, within [top, bottom] when they fit: each keeps its
// order and moves as little as a pass down then a pass up moves it. The
// result is in the order of ys.
func spreadLabels(ys []float64, gap, top, bottom float64) []float64 {
	idx := make([]int, len(ys))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return ys[idx[a]] < ys[idx[b]] })
	out := make([]float64, len(ys))
	prev := top - gap
	for _, i := range idx { // down: each at least gap below the one above
		out[i] = max(ys[i], prev+gap)
		prev = out[i]
	}
	next := bottom + gap
	for k := len(idx) - 1; k >= 0; k-- { // up: none below bottom
		i := idx[k]
		out[i] = min(out[i], next-gap)
		next = out[i]
	}
	return out
}
