package ui

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

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

// mapRun is the explorer's map: the job in progress and the map on
// screen (the last complete one, kept while the next is computed).
type mapRun struct {
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

// mapConfig is the config the map is computed for: the state's when it can
// be priced, else the last valid one on screen.
func (c *explorer) mapConfig() (estimator.Config, bool) {
	if c.state.CfgOK {
		return c.state.Cfg, true
	}
	return c.shown.config, c.shown.ready
}

// stepMap advances the map view's computation by one frame's share; the
// frame callback runs it after the one-input render (renderNow defers
// it). While the map is not complete it asks for another frame.
func (c *explorer) stepMap() {
	defer c.catch("computing the map")
	ms := &c.state.Map
	if !ms.On {
		return
	}
	cfg, ok := c.mapConfig()
	if !ok {
		return
	}
	ms.Check(cfg)
	if ms.Broken {
		return
	}
	mr := &c.maps
	w, h := c.chartSize()
	x, y, n := ms.Axes()
	key := page.ConfigQuery(cfg, nil).Encode() + "|" + x.Axis + strconv.FormatInt(x.From, 10) + ".." + strconv.FormatInt(x.To, 10) +
		"|" + y.Axis + strconv.FormatInt(y.From, 10) + ".." + strconv.FormatInt(y.To, 10) + "|" + strconv.Itoa(n) +
		"|" + strconv.Itoa(w) + "x" + strconv.Itoa(h)
	if mr.drawnKey == key {
		return
	}
	if mr.job == nil || mr.job.key != key {
		mr.job = newMapJob(key, cfg, ms)
	}
	// The server's prerender draws the map's controls and its progress
	// (none of its columns): the browser computes the columns. A map's
	// cost grows with its columns (a 71-byte link to 1,000 of them took
	// 2.3 s of the server's CPU), so a link costs the server what any
	// link costs, and four such links cannot hold every prerender slot.
	if c.prerendering {
		return
	}
	budget := float64(mapFrameMs)
	if c.renders != mr.seenRenders { // this frame rendered an edit
		budget = max(mapMinMs, mapFrameMs-c.renderMs)
		mr.seenRenders = c.renders
	}
	start := browser.NowMs()
	if !mr.job.step(func() bool { return browser.NowMs()-start < budget }) {
		c.requestRender()
		return
	}
	c.finishMap(cfg, w, h)
}

// finishMap draws the complete job's map, or says why there is none.
func (c *explorer) finishMap(cfg estimator.Config, w, h int) {
	mr := &c.maps
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
	svg, frame, err := chart.MapSVGFrame(in, vg.Length(w), vg.Length(h))
	if err != nil {
		mr.problem = "The map could not be drawn: " + err.Error()
		return
	}
	mr.shown, mr.svg, mr.frame, mr.summary, mr.cfg = &res, labelSVG(svg), frame, in.Summary, cfg
}

// applyMap handles an edit of the map view: the view, an axis, a range,
// the columns, or a click on the map.
func (c *explorer) applyMap(e page.Edit) {
	ms := &c.state.Map
	cfg, _ := c.mapConfig()
	if e.Kind == page.EditMapClick {
		c.moveTo(e.Text)
	} else {
		ms.Set(e.Key, e.Text, cfg)
	}
	c.hist.Note(e.Key, e.Settle)
	c.state.Validate()
	ms.Check(c.state.Cfg)
	c.requestRender()
}

// moveTo sets the map's two fields to "x,y", as typing each value would
// (in_use_bytes exactly, not through its GiB text).
func (c *explorer) moveTo(xy string) {
	ms := &c.state.Map
	parts := strings.Split(xy, ",")
	if len(parts) != 2 {
		return
	}
	for i, key := range []string{ms.X, ms.Y} {
		v, err := strconv.ParseInt(parts[i], 10, 64)
		if err != nil {
			return
		}
		if key == "in_use_bytes" {
			c.state.Forget(page.KeyInUseGiB)
			c.state.Cfg.Budget.InUseBytes = v
			continue
		}
		c.state.SetText(key, strconv.FormatInt(v, 10))
	}
}

// mapViewState is what the map view shows now.
func (c *explorer) mapViewState() mapViewState {
	ms := &c.state.Map
	mr := &c.maps
	errs := map[string]string{}
	for k, v := range mr.errs {
		errs[k] = v
	}
	for k, v := range ms.AllErrs() {
		errs[k] = v
	}
	st := mapViewState{X: ms.X, Y: ms.Y,
		XFrom: ms.Text(page.KeyMXFrom), XTo: ms.Text(page.KeyMXTo), YFrom: ms.Text(page.KeyMYFrom), YTo: ms.Text(page.KeyMYTo), Cols: ms.Text(page.KeyMCols),
		Errors: errs, SVG: mr.svg, Frame: mr.frame, HasFrame: mr.shown != nil, Result: mr.shown,
		Summary: mr.summary, Problem: mr.problem, Stale: ms.Broken}
	if j := mr.job; j != nil {
		st.Done, st.All = j.progress()
		st.Complete = j.done && mr.drawnKey == j.key && !ms.Broken
	}
	return st
}

// exportMap writes the map on screen in format: svg, png, csv or json.
func (c *explorer) exportMap(format string) (browser.File, error) {
	mr := &c.maps
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
