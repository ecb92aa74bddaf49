package mapview

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"strconv"

	"gonum.org/v1/plot/vg"

	"headroom/app/chart"
	"headroom/app/ui/browser"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// mapFrameMs is the map's share of an animation frame: columns are
// computed until it is spent (at least one per frame), so a slider
// input is never queued behind a whole map. A frame that also rendered
// the one-input state (an edit came) gives the map only what that render
// left of it (mapFrameMs - the render's time, at least mapMinMs), so the
// frame budget holds with the map open; a frame with no edit gives it
// all, and the map completes sooner.
const (
	mapFrameMs = 12
	mapMinMs   = 2
)

// Runner is the "Two inputs" view's map as the explorer runs it: the job
// in progress and the map on screen (the last complete one, kept while the
// next is computed). The explorer owns one, steps it once per animation
// frame after its render (Step) and draws the view from it (View); it is
// the map's one way in, as workload.Loader is the Workload panel's.
type Runner struct {
	job      *mapJob
	shown    *estimator.MapResult
	svg      string
	frame    chart.Frame
	summary  string
	problem  string // why there is no map to draw (every point invalid, a refused axis)
	errs     map[string]string
	drawnKey string
	cfg      estimator.Config // the config of the map on screen
	// seenRenders is the explorer's render count when the map last
	// stepped: a change means the frame also rendered an edit.
	seenRenders int
}

// Step advances the map of cfg over the view's axes by one frame's share
// (mapFrameMs, less the render's renderMs when the explorer's render count
// renders says the frame also rendered an edit), at a w x h drawing. It
// reports whether the map is complete; when not, the explorer asks for
// another frame. It checks ms against cfg first (MapState.Check: the
// ranges that follow the config, the view's own errors).
func (mr *Runner) Step(cfg estimator.Config, ms *page.MapState, w, h, renders int, renderMs float64) (done bool) {
	if mr.Start(cfg, ms, w, h) {
		return true
	}
	budget := float64(mapFrameMs)
	if renders != mr.seenRenders { // this frame rendered an edit
		budget = max(mapMinMs, mapFrameMs-renderMs)
		mr.seenRenders = renders
	}
	if !page.Slice(budget, browser.NowMs, mr.job.column) {
		return false
	}
	mr.finish(cfg, w, h)
	return true
}

// Start checks ms against cfg and sets up the job for the map of cfg at
// a w x h drawing, computing none of its columns: the view then shows the
// map's controls and its progress. It reports whether there is nothing
// to compute (the view's axes are broken, or that map is on screen).
// The server's prerender only starts the map (the browser computes the
// columns): a map's cost grows with its columns (a 71-byte link to 1,000
// of them took 2.3 s of the server's CPU), so a link costs the server
// what any link costs, and four such links cannot hold every prerender
// slot.
func (mr *Runner) Start(cfg estimator.Config, ms *page.MapState, w, h int) (nothing bool) {
	ms.Check(cfg)
	if ms.Broken {
		return true
	}
	x, y, n := ms.Axes()
	key := page.ConfigQuery(cfg, nil).Encode() + "|" + x.Axis + strconv.FormatInt(x.From, 10) + ".." + strconv.FormatInt(x.To, 10) +
		"|" + y.Axis + strconv.FormatInt(y.From, 10) + ".." + strconv.FormatInt(y.To, 10) + "|" + strconv.Itoa(n) +
		"|" + strconv.Itoa(w) + "x" + strconv.Itoa(h)
	if mr.drawnKey == key {
		return true
	}
	if mr.job == nil || mr.job.key != key {
		mr.job = newMapJob(key, cfg, ms)
	}
	return false
}

// Problem is why there is no map to draw ("" when there is one).
func (mr *Runner) Problem() string { return mr.problem }

// Shown is the map on screen; nil before the first.
func (mr *Runner) Shown() *estimator.MapResult { return mr.shown }

// finish draws the complete job's map, or says why there is none.
func (mr *Runner) finish(cfg estimator.Config, w, h int) {
	j := mr.job
	mr.drawnKey, mr.errs, mr.problem = j.key, map[string]string{}, ""
	if j.err != nil {
		for _, e := range estimator.FieldErrors(j.err) {
			k := page.MapErrKey(e.Field)
			if k == "map" {
				mr.problem = "Nothing to draw: " + e.Message + "."
			} else if _, dup := mr.errs[k]; !dup {
				mr.errs[k] = e.Message
			}
		}
		if len(estimator.FieldErrors(j.err)) == 0 {
			mr.problem = "Nothing to draw: " + j.err.Error()
		}
		if mr.problem != "" {
			mr.shown, mr.svg = nil, ""
		}
		return
	}
	res := j.res
	in := chart.NewMapInput(cfg, res)
	// Named by chart-caption and compact, as the chart on the
	// one-input view is; the exports are drawn without.
	svg, frame, err := chart.MapSVGFrame(in, vg.Length(w), vg.Length(h), chart.LabelledBy("chart-caption"), chart.Compact())
	if err != nil {
		mr.problem = "The map could not be drawn: " + err.Error()
		return
	}
	mr.shown, mr.svg, mr.frame, mr.summary, mr.cfg = &res, string(svg), frame, in.Summary, cfg
}

// View is what the map view shows now of the view's state ms.
func (mr *Runner) View(ms *page.MapState) ViewState {
	errs := map[string]string{}
	for k, v := range mr.errs {
		errs[k] = v
	}
	for k, v := range ms.AllErrs() {
		errs[k] = v
	}
	st := ViewState{X: ms.X, Y: ms.Y,
		XFrom: ms.Text(page.KeyMXFrom), XTo: ms.Text(page.KeyMXTo), YFrom: ms.Text(page.KeyMYFrom), YTo: ms.Text(page.KeyMYTo), Cols: ms.Text(page.KeyMCols),
		Errors: errs, SVG: mr.svg, Frame: mr.frame, HasFrame: mr.shown != nil, Result: mr.shown,
		Summary: mr.summary, Problem: mr.problem, Stale: ms.Broken}
	if j := mr.job; j != nil {
		st.Done, st.All = j.progress()
		st.Complete = j.done && mr.drawnKey == j.key && !ms.Broken
	}
	return st
}

// Export writes the map on screen in format: svg, png, csv or json.
func (mr *Runner) Export(format string) (browser.File, error) {
	if mr.shown == nil {
		return browser.File{}, errors.New("there is no map on screen yet")
	}
	res := *mr.shown
	base := "headroom_map_" + res.X.Axis + "_" + res.Y.Axis
	switch format {
	case "svg", "png":
		in := chart.NewMapInput(mr.cfg, res)
		w, h := chart.LogicalSize(chart.DefaultWidth, chart.DefaultHeight)
		svg, err := chart.MapSVG(in, w, h)
		if err != nil {
			return browser.File{}, err
		}
		if format == "png" {
			return browser.File{Name: base + ".png", Mime: "image/png", Data: svg, Width: chart.DefaultWidth, Height: chart.DefaultHeight}, nil
		}
		return browser.File{Name: base + ".svg", Mime: "image/svg+xml", Data: svg}, nil
	case "csv":
		data, err := MapCSV(res)
		return browser.File{Name: base + ".csv", Mime: "text/csv", Data: data}, err
	case "json":
		data, err := json.MarshalIndent(res, "", "  ")
		return browser.File{Name: base + ".json", Mime: "application/json", Data: append(data, '\n')}, err
	}
	return browser.File{}, errors.New("unknown format " + strconv.Quote(format))
}

// MapCSV writes a map as CSV, one row per column, revision and flip: the
// column's index and x, the revision, its decision at y's start, then the
// flip (from and to decisions, the last y of the old decision, the first
// of the new, the message). A revision that does not flip in a column has
// one row with the flip's fields empty, so every column is in the file.
func MapCSV(res estimator.MapResult) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write([]string{"column", res.X.Axis, "revision", "start", "from_decision", "to_decision", "last_" + res.Y.Axis, "first_" + res.Y.Axis, "message"})
	for i := range res.Columns {
		col := &res.Columns[i]
		for rev, name := range []string{"baseline", "candidate"} {
			r := col.Rev(estimator.Revision(rev))
			head := []string{strconv.Itoa(i), strconv.FormatInt(col.X, 10), name, r.Start.String()}
			if len(r.Flips) == 0 {
				_ = w.Write(append(head, "", "", "", "", ""))
			}
			for _, f := range r.Flips {
				_ = w.Write(append(append([]string(nil), head...), f.FromDecision.String(), f.ToDecision.String(),
					strconv.FormatInt(f.Last, 10), strconv.FormatInt(f.First, 10), f.Message))
			}
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}
