package ui

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"time"

	"headroom/app/chart"
	"headroom/app/report"
	"headroom/app/ui/browser"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// shareSink carries the share bar's and the import panel's requests to the
// explorer. Like widget.Sink, the components get the explorer's one pointer
// as a prop, which go-app finds equal from one render to the next.
type shareSink struct {
	link   func() string                             // the URL of the page's state
	export func(format string) (browser.File, error) // one of exportFormats
	load   func(data []byte) page.ImportReport       // applies a file; the report says what changed
}

// The export formats, in the share bar's order.
var exportFormats = []string{"svg", "png", "csv", "json"}

// newShareSink wires the share bar and the import panel to c.
func (c *explorer) newShareSink() *shareSink {
	return &shareSink{link: c.shareLink, export: c.exportFile, load: c.importFile}
}

// shareLink writes the state into the address bar now (not after the
// throttle) and returns the page's URL, so the link copied is the link
// shown.
func (c *explorer) shareLink() string {
	c.url.Set(c.addressText(), browser.NowMs())
	c.writeURL()
	return browser.PageURL(c.url.Last)
}

// shownSweep is the sweep behind the chart on screen.
func (c *explorer) shownSweep() (chart.Input, error) {
	in, ok := c.sweeps.Last()
	if !c.shown.ready || !ok || in.Axis == nil { // the cache holds the shown sweep: renderNow drew it
		return chart.Input{}, errors.New("the chart is not drawn yet")
	}
	in.Current = estimator.AxisValue(in.Axis.Key, c.shown.config)
	if _, err := in.AddObserved(c.shown.config); err != nil { // the exported chart has the points the page draws
		return chart.Input{}, err
	}
	return in, nil
}

// exportFile makes the file of one export format from what the page
// shows: the last valid render, not fields still in error.
func (c *explorer) exportFile(format string) (out browser.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			c.fail("exporting "+format, r, debug.Stack())
			err = fmt.Errorf("the export failed: %v", r)
		}
	}()
	in, err := c.shownSweep()
	if err != nil {
		return browser.File{}, err
	}
	preset := page.MatchPreset(c.list, c.shown.config)
	out.Name = browser.FileName(preset, in.Axis.Key, format)
	switch format {
	case "svg", "png":
		w, h := chart.LogicalSize(chart.DefaultWidth, chart.DefaultHeight)
		var opts []chart.SVGOption
		if format == "png" {
			// The picture the plot command's PNG is: the SVG of the
			// PNG's logical size, drawn at chart.DefaultWidth x DefaultHeight
			// (an <img> needs the size to draw it so).
			opts = append(opts, chart.Sized(chart.DefaultWidth, chart.DefaultHeight))
			out.Width, out.Height = chart.DefaultWidth, chart.DefaultHeight
		}
		out.Data, err = chart.SVG(captioned(in, c.shown.config, presetIDName(c.list, preset), exportDate()), w, h, opts...)
		out.Mime = "image/svg+xml"
	case "csv":
		out.Data, err = report.SweepCSV(c.shown.config, SweepOf(in))
		out.Mime = "text/csv"
	case "json":
		out.Data, err = exportJSON(c.shown.config, page.View{Preset: preset, Axis: in.Axis.Key, From: in.From, To: in.To}, in)
		out.Mime = "application/json"
	default:
		err = errors.New("no export format " + strconv.Quote(format))
	}
	if err != nil {
		return browser.File{}, err
	}
	return out, nil
}

// exportDate is the date in an exported chart's caption: today, UTC.
// Tests replace it.
var exportDate = func() string { return time.Now().UTC().Format("2006-01-02") }

// importFile reads a file pasted, picked or dropped and
// applies it through the state, as an edit would: the state validates,
// the page renders and the URL follows. A refused file leaves the state
// as it was.
func (c *explorer) importFile(data []byte) (rep page.ImportReport) {
	defer func() {
		if r := recover(); r != nil {
			c.fail("importing a file", r, debug.Stack())
			rep = page.ImportReport{Err: "the import failed; see the message at the top of the page"}
		}
	}()
	c.edits++
	defer c.requestRender() // a refused file changes nothing, but data-edits follows
	rep, ok := c.state.Import(data, c.list)
	if ok {
		c.hist.Note("import", true) // an import is a gesture of its own: Back undoes it
	}
	return rep
}

// exportSummary names what a file holds, for the share bar's status.
func exportSummary(format string) string {
	switch format {
	case "svg":
		return "the chart as SVG"
	case "png":
		return "the chart as a " + strconv.Itoa(chart.DefaultWidth) + "x" + strconv.Itoa(chart.DefaultHeight) + " PNG"
	case "csv":
		return "the sweep as CSV (one row per x and per exact flip point, exact bytes)"
	case "json":
		return "the config, its estimate and both revisions' flips as JSON"
	}
	return format
}
