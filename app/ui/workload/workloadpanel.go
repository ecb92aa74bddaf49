package workload

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/chart"
	"headroom/app/report"
	"headroom/app/ui/browser"
	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

// Timing of the Workload panel's replay: each slice works at most
// sliceMs of lines, then yields to the browser (input, paint) before the
// next; a new config reruns the replay once no edit came for settleMs.
const (
	sliceMs     = 8.0
	sliceLines  = 256 // lines between two looks at the clock
	settleMs    = 300
	histogramW  = 760
	histogramHt = 300
)

// Loader is the Workload panel's way into the explorer; like
// widget.Sink, the panel gets the explorer's one pointer as a prop.
type Loader struct {
	// Load puts a workload line's shape, as the replay applied it to base,
	// into the explorer's fields (the address follows).
	Load func(base estimator.Config, s estimator.Shape) error
}

// Panel replays a workload (CSV or JSON Lines of request shapes)
// against both revisions of the config shown: pasted (id workload-text,
// then workload-replay), picked (workload-file) or dropped on the panel
// (workload-drop). While it runs: a progress bar (workload-progress) and
// a cancel button (workload-cancel); then the transition table
// (workload-table), the sentence (workload-sentence), the histogram
// along rows (workload-chart, its bins in workload-bins), the report's
// copy and exports (workload-copy, workload-export-csv,
// workload-export-json) and the first changed lines (workload-changed),
// each with a button that loads it into the explorer. The status
// (workload-status) says where it is, or why nothing was replayed.
type Panel struct {
	app.Compo

	Config estimator.Config // the config shown: the last valid render
	Ready  bool             // Config is the page's (the first render is done)
	Sink   *widget.Sink
	Loads  *Loader

	st          workloadState
	svg         string          // the histogram of drawnFor
	svgErr      string          // why it could not be drawn
	drawnFor    *workloadResult // the result svg shows
	sliceArmed  bool
	longestMs   float64 // the longest slice of the last run (data-longest-slice-ms)
	shareStatus string
	shareFailed bool
	release     func()
	ctx         app.Context // the panel's own (OnMount): a later callback must not hang on a button the render removes
}

// OnMount makes the panel a drop target and notes the config.
func (p *Panel) OnMount(ctx app.Context) {
	defer p.Sink.Catch("opening the workload panel")
	p.ctx = ctx
	p.noteConfig(ctx)
	ctx.Defer(func(ctx app.Context) {
		defer p.Sink.Catch("watching for dropped workloads")
		p.release = browser.WatchDropsOn(ctx, "workload-drop", p.onDropFile, p.onDropText)
	})
}

// OnDismount stops watching for drops.
func (p *Panel) OnDismount() {
	if p.release != nil {
		p.release()
		p.release = nil
	}
}

// OnUpdate follows the page's config: a new one reruns the replay once it
// settles.
func (p *Panel) OnUpdate(ctx app.Context) {
	defer p.Sink.Catch("following the config in the workload panel")
	p.noteConfig(ctx)
}

func (p *Panel) noteConfig(ctx app.Context) {
	if !p.Ready {
		return
	}
	p.settleLater(ctx, p.st.setConfig(p.Config, page.ConfigQuery(p.Config, nil).Encode()))
}

// onRebase replays against the explorer's config after a line was loaded.
func (p *Panel) onRebase(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("replaying the workload against the explorer's config")
	// The button goes with this render: the rerun is the panel's, on its
	// own context (an event's would be dropped with its element).
	if p.ctx == nil {
		p.ctx = ctx
	}
	p.settleLater(p.ctx, p.st.unpin())
}

// settleLater starts the rerun of generation gen (0: none is due) once
// the config has settled.
func (p *Panel) settleLater(ctx app.Context, gen int) {
	if gen != 0 {
		browser.LaterOnUI(ctx, settleMs, func(ctx app.Context) {
			defer p.Sink.Catch("replaying the workload")
			if p.st.settle(gen) {
				p.schedule(ctx)
			}
		})
	}
}

// load starts replaying a workload.
func (p *Panel) load(ctx app.Context, source string, data []byte) {
	p.shareStatus = ""
	if !p.st.hasCfg {
		p.st.data, p.st.source, p.st.shown, p.st.run = nil, source, nil, nil
		p.st.err = "the page is still loading its config; try again in a moment"
		return
	}
	p.st.load(source, data)
	p.longestMs = 0
	p.schedule(ctx)
}

// schedule runs the next slice of the replay after the browser has had
// its turn.
func (p *Panel) schedule(ctx app.Context) {
	if p.sliceArmed || p.st.run == nil {
		return
	}
	p.sliceArmed = true
	browser.LaterOnUI(ctx, 0, p.slice)
}

// slice works the replay for sliceMs, then yields; once it is done it
// draws the histogram.
func (p *Panel) slice(ctx app.Context) {
	defer p.Sink.Catch("replaying the workload")
	p.sliceArmed = false
	start := browser.NowMs()
	defer func() { p.longestMs = max(p.longestMs, browser.NowMs()-start) }()
	if !page.Slice(sliceMs, browser.NowMs, func() bool { return p.st.step(sliceLines) }) {
		p.schedule(ctx)
		return
	}
	if p.st.shown != nil && p.st.shown != p.drawnFor {
		// The histogram (a sweep along rows and its SVG) is a task of its
		// own: with the run's last slice it would miss a frame.
		browser.LaterOnUI(ctx, 0, func(ctx app.Context) {
			defer p.Sink.Catch("drawing the workload's histogram")
			start := browser.NowMs()
			p.draw()
			p.longestMs = max(p.longestMs, browser.NowMs()-start)
		})
	}
}

// draw makes the histogram of the result on show, once per result; until
// it runs, the result shows without it.
func (p *Panel) draw() {
	r := p.st.shown
	if r == nil || r == p.drawnFor {
		return
	}
	p.drawnFor, p.svg, p.svgErr = r, "", ""
	in, err := chart.Build(r.cfg, "rows", 1, r.hist.To(), page.ChartPoints)
	if err == nil {
		var svg []byte
		svg, err = chart.WorkloadSVG(r.hist, in, histogramW, histogramHt)
		p.svg = string(svg)
	}
	if err != nil {
		p.svgErr = err.Error()
	}
}

func (p *Panel) onReplayText(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("reading the pasted workload")
	text := browser.TextOf("workload-text")
	if strings.TrimSpace(text) == "" {
		p.st.data, p.st.source, p.st.shown, p.st.run = nil, "the text box", nil, nil
		p.st.err = "the text box is empty; paste a workload (CSV with a header row, or JSON Lines) into it first"
		return
	}
	if err := checkWorkloadSize(int64(len(text))); err != nil {
		p.st.data, p.st.source, p.st.shown, p.st.run, p.st.err = nil, "the pasted text", nil, nil, err.Error()
		return
	}
	if len(text) > bigPaste {
		// A text box holding megabytes makes every layout of the page
		// slow: the replay has the text, the box lets it go.
		browser.SetTextOf("workload-text", "")
	}
	p.load(ctx, "the pasted text", []byte(text))
}

// bigPaste is the size past which a pasted workload leaves the text box.
const bigPaste = 1 << 20

func (p *Panel) onCancel(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("cancelling the replay")
	p.st.cancel()
}

func (p *Panel) onPick(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("reading the chosen workload")
	input := ctx.JSSrc()
	if file, ok := browser.FileOf(input); ok {
		p.readAndLoad(ctx, file)
	}
	browser.ClearFileInput(input)
}

func (p *Panel) onDropFile(ctx app.Context, file app.Value) {
	defer p.Sink.Catch("reading the dropped workload")
	p.readAndLoad(ctx, file)
}

func (p *Panel) onDropText(ctx app.Context, text string) {
	defer p.Sink.Catch("reading the dropped workload")
	p.load(ctx, "the dropped text", []byte(text))
}

// readAndLoad reads a file (refused unread past MaxWorkloadBytes) and
// replays it.
func (p *Panel) readAndLoad(ctx app.Context, file app.Value) {
	p.st.cancel()
	p.st.cancelled = false
	browser.ReadTextFile(ctx, file, checkWorkloadSize, func(ctx app.Context, name string, data []byte, err error) {
		defer p.Sink.Catch("reading " + name)
		if err != nil {
			p.st.data, p.st.source, p.st.shown, p.st.run, p.st.err = nil, name, nil, nil, err.Error()
			return
		}
		p.load(ctx, name, data)
	})
}

func (p *Panel) onLoadLine(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("loading a workload line into the explorer")
	r := p.st.shown
	line, err := strconv.ParseInt(ctx.JSSrc().Get("dataset").Get("line").String(), 10, 64)
	if r == nil || err != nil {
		return
	}
	shape, ok := r.shapes[line]
	if !ok {
		return
	}
	if err := p.Loads.Load(r.cfg, shape); err != nil {
		p.shareFailed, p.shareStatus = true, "Could not load line "+strconv.FormatInt(line, 10)+": "+err.Error()
		return
	}
	p.st.pin(line)
	p.shareFailed, p.shareStatus = false, "Loaded line "+strconv.FormatInt(line, 10)+" into the explorer: its fields and the address follow; the replay stays as it was."
}

func (p *Panel) onCopy(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("copying the workload report")
	r := p.st.shown
	if r == nil {
		return
	}
	p.shareFailed, p.shareStatus = false, "Copying the report…"
	browser.WriteClipboard(ctx, r.markdown, func(ctx app.Context, err error) {
		defer p.Sink.Catch("copying the workload report")
		if err != nil {
			p.shareFailed, p.shareStatus = true, "The browser did not let the page copy ("+err.Error()+"): the report is under \"The Markdown report\" below; select it and copy."
			return
		}
		p.shareFailed, p.shareStatus = false, "Report copied: Markdown for a pull-request comment."
	})
}

func (p *Panel) onExport(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("exporting the replay")
	r := p.st.shown
	if r == nil {
		return
	}
	format := ctx.JSSrc().Get("dataset").Get("format").String()
	f := browser.File{Name: browser.FileName(strings.TrimSuffix(p.st.source, "."+r.format), "replay", format)}
	switch format {
	case "csv":
		f.Data, f.Mime = r.csv, "text/csv"
	case "json":
		f.Data, f.Mime = r.json, "application/json"
	default:
		return
	}
	p.shareFailed, p.shareStatus = false, "Saving "+f.Name+"…"
	browser.SaveFile(ctx, f, func(ctx app.Context, err error) {
		defer p.Sink.Catch("exporting the replay")
		if err != nil {
			p.shareFailed, p.shareStatus = true, "Could not save "+f.Name+": "+err.Error()
			return
		}
		p.shareFailed, p.shareStatus = false, "Saved "+f.Name+": what headroom replay -format "+format+" writes."
	})
}

// Render draws the panel.
func (p *Panel) Render() (ui app.UI) {
	defer p.Sink.CatchRender("drawing the workload panel", &ui)
	return app.Section().ID("workload").Class("workload-panel").Aria("label", "workload").Body(
		app.H2().Text("Workload"),
		app.P().Class("workload-intro").Text("Replay a workload against both revisions of the config shown: CSV with a header row, "+
			"or JSON Lines, one request shape a line (rows, required; sequence_rows, projected_rows, target_rows, in_use_bytes, "+
			"count, id; an empty cell takes the config's value). Up to "+estimator.Group(MaxWorkloadLines)+" lines and 64 MiB here; "+
			"past that, the command line: headroom replay -config CONFIG.json -workload FILE -format md."),
		app.P().ID("workload-privacy").Class("workload-note").Text("The workload stays in this page: it is not put in the address "+
			"(it is too big), so a shared link carries the config only. It replays again whenever the config changes."),
		app.Div().ID("workload-drop").Class("workload-drop").Body(
			app.Label().For("workload-text").Class("import-label").Text("Paste a workload, choose a file, or drop one here"),
			app.Textarea().ID("workload-text").Class("import-text", "workload-text").Rows(4).Spellcheck(false).
				Placeholder("%s", widget.Attr("id,rows,sequence_rows,count\nreq-1,73127,,1")),
			app.Div().Class("import-actions").Body(
				app.Button().ID("workload-replay").Type("button").Class("share-button", "primary").
					Text("Replay").OnClick(p.onReplayText),
				app.Label().For("workload-file").Class("share-button", "file-pick").Text("Choose a file…"),
				app.Input().ID("workload-file").Class("visually-hidden").Type("file").
					Accept(".csv,.jsonl,.ndjson,.json,.txt,text/csv").OnChange(p.onPick),
			),
		),
		p.renderStatus(),
		p.renderResult(),
	)
}

// renderStatus is the status line, with the progress bar and the cancel
// button while a replay runs.
func (p *Panel) renderStatus() app.UI {
	st := &p.st
	failed := st.err != ""
	box := app.Div().ID("workload-status").Class("workload-status", widget.ClassIf(failed, "failed")).
		Role("status").Aria("live", "polite").DataSet("state", p.stateName()).
		DataSet("longest-slice-ms", strconv.FormatFloat(p.longestMs, 'f', 1, 64))
	if st.run == nil {
		return box.Body(widget.SomeText(app.P().Class("workload-status-text"), st.status()))
	}
	permille := int(st.run.progress() * 1000)
	return box.Body(
		widget.SomeText(app.P().Class("workload-status-text"), st.status()),
		app.Div().Class("workload-progress-row").Body(
			app.Progress().ID("workload-progress").Class("workload-progress").Max(1000).Value(permille).
				Aria("label", "replay progress").DataSet("lines", st.run.lines()),
			app.Button().ID("workload-cancel").Type("button").Class("share-button").Text("Cancel").OnClick(p.onCancel),
		),
	)
}

// stateName is the panel's state for data-state: idle, running, settling,
// failed, cancelled or done.
func (p *Panel) stateName() string {
	st := &p.st
	switch {
	case st.run != nil:
		return "running"
	case st.pending:
		return "settling"
	case st.err != "":
		return "failed"
	case st.cancelled:
		return "cancelled"
	case st.shown != nil:
		return "done"
	}
	return "idle"
}

// ignoredNote names the workload's ignored columns (id
// workload-ignored); nothing when there are none.
func ignoredNote(ignored []string) app.UI {
	if len(ignored) == 0 {
		return nil
	}
	word := "Ignored column"
	if len(ignored) > 1 {
		word += "s"
	}
	return app.P().ID("workload-ignored").Class("workload-ignored").
		Text(word + " (read as neither a field nor id): " + strings.Join(ignored, ", ") + ".")
}

// renderResult draws a finished replay; nothing when there is none.
func (p *Panel) renderResult() app.UI {
	r := p.st.shown
	if r == nil {
		return nil
	}
	res := &r.res
	var staleNote, chartBody, chartErr app.UI
	if p.st.stale() {
		staleNote = app.P().Class("stale-note").Text("This replay is for the config before your last change; the new one follows.")
	}
	var pinNote, movedNote app.UI
	if p.st.pinned != 0 {
		pinNote = app.P().ID("workload-pinned").Class("workload-note").Body(
			app.Text("Line "+strconv.FormatInt(p.st.pinned, 10)+" is loaded in the explorer. The replay stays against the config it ran with: "+
				"loading a line sets the request's fields, and every line with an empty cell would take them. "),
			app.Button().ID("workload-rebase").Type("button").Class("share-button").
				Text("Replay against the explorer's config").OnClick(p.onRebase),
		)
	}
	if p.st.moved != "" {
		movedNote = app.P().ID("workload-moved").Class("stale-note").Role("status").Text(p.st.moved)
	}
	if p.svg != "" {
		chartBody = app.Raw(p.svg)
	}
	if p.svgErr != "" {
		chartErr = app.P().Class("chart-error").Text("The histogram could not be drawn: " + p.svgErr)
	}
	return app.Div().Class("workload-result", widget.ClassIf(p.st.stale(), "stale")).DataSet("key", r.key).Body(
		staleNote,
		pinNote,
		movedNote,
		transitionTable(res),
		app.P().ID("workload-sentence").Class("change-summary").Text(report.Sentence(*res)),
		app.P().ID("workload-cost").Class("workload-cost").Text(report.CostSentence(*res)),
		ignoredNote(res.Ignored),
		app.Figure().Class("chart-figure", "workload-figure").Body(
			app.Div().ID("workload-chart").Class("chart").Body(chartBody),
			chartErr,
			app.FigCaption().Text("Requests of the workload along rows (weighted by count, "+estimator.Group(r.hist.Width)+
				" rows a bar), over the config's decisions along rows: the candidate's bands, hatched where the baseline "+
				"decides otherwise, and both revisions' flips. Lines with their own sequence_rows or in_use_bytes may flip elsewhere."),
			histogramTable(r.hist),
		),
		app.Div().Class("workload-share").Body(
			app.Button().ID("workload-copy").Type("button").Class("share-button", "primary").
				Title("Copy the Markdown report for a pull-request comment").Text("Copy report").OnClick(p.onCopy),
			app.Button().ID("workload-export-csv").Type("button").Class("share-button").DataSet("format", "csv").
				Title("Download one row per workload line, with both decisions and children").Text("CSV").OnClick(p.onExport),
			app.Button().ID("workload-export-json").Type("button").Class("share-button").DataSet("format", "json").
				Title("Download the replay's result as JSON").Text("JSON").OnClick(p.onExport),
			widget.SomeText(app.P().ID("workload-share-status").Class("share-status", widget.ClassIf(p.shareFailed, "failed")).
				Role("status").Aria("live", "polite"), p.shareStatus),
		),
		app.Details().Class("workload-markdown").Body(
			app.Summary().Text("The Markdown report"),
			widget.TextareaText(app.Textarea().ID("workload-markdown").Class("import-text").Rows(8).ReadOnly(true), r.markdown),
		),
		p.changedTable(r),
	)
}
