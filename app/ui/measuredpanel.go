package ui

import (
	"io"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/browser"
	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
	"headroom/measure"
)

// measuredPanel is the measured truth in the Observed peaks panel (issue
// 26): a PyTorch memory snapshot or ART's planner-miss reports, picked
// (id measured-file) or dropped anywhere on the panel (observed-panel).
// While a file is read: a progress bar (measured-progress) and a cancel
// button (measured-cancel); the status (measured-status, data-state
// idle, reading, done, failed or cancelled) says where it is or why
// nothing changed. A snapshot shows, per device N: the peak
// (measured-peak-N, data-peak-bytes), the revisions beside it
// (measured-compare-N), the timeline (measured-chart-N) and the blocks
// live at the peak (measured-live-N); reports show their comparisons
// (measured-reports) and the skipped ones (measured-skipped). The
// buttons measured-use-points and measured-use-profile put the points in
// the panel's box and the learned profile in the config.
type measuredPanel struct {
	app.Compo

	Config estimator.Config // the config shown: the last valid render
	Ready  bool
	Sink   *widget.Sink

	gen       int    // the current read; a callback of an older one does nothing
	reading   bool   // a read runs
	source    string // the file(s) being read, or read last
	size      int64  // bytes to read
	read      int64  // bytes read
	feed      *sliceFeed
	err       string
	cancelled bool
	status    string // what the last button did
	failed    bool

	snap    *snapshotResult
	reports *measure.PlannerImport

	viewKey string // the config and result the views are for
	views   []deviceView
	release func()
}

// OnMount makes the Observed peaks panel a drop target for files.
func (p *measuredPanel) OnMount(ctx app.Context) {
	defer p.Sink.Catch("opening the measured peaks")
	ctx.Defer(func(ctx app.Context) {
		defer p.Sink.Catch("watching for dropped measurements")
		p.release = browser.WatchFileDropsOn(ctx, "observed-panel", p.onFiles)
	})
}

// OnDismount stops watching for drops and stops a read: its callbacks
// find a newer generation and do nothing.
func (p *measuredPanel) OnDismount() {
	if p.release != nil {
		p.release()
		p.release = nil
	}
	p.stop(errCancelled)
}

// stop ends the running read, if any.
func (p *measuredPanel) stop(end error) {
	p.gen++
	p.reading = false
	if p.feed != nil {
		p.feed.close(end)
		p.feed = nil
	}
}

func (p *measuredPanel) onPick(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("reading the chosen measurements")
	input := ctx.JSSrc()
	files := browser.FilesOf(input)
	browser.ClearFileInput(input)
	if len(files) > 0 {
		p.onFiles(ctx, files)
	}
}

func (p *measuredPanel) onCancel(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("cancelling the read")
	if !p.reading {
		return
	}
	p.stop(errCancelled)
	p.cancelled, p.err = true, ""
}

// fail ends a read with a message; what was shown stays.
func (p *measuredPanel) fail(msg string) {
	p.stop(errCancelled)
	p.err, p.cancelled = msg, false
}

// onFiles starts reading dropped or picked files: one snapshot, or one
// or more planner-miss reports.
func (p *measuredPanel) onFiles(ctx app.Context, files []app.Value) {
	defer p.Sink.Catch("reading the measurements")
	p.stop(errCancelled)
	p.err, p.cancelled, p.status = "", false, ""
	gen := p.gen
	names := make([]string, len(files))
	for i, f := range files {
		names[i], _ = browser.FileInfo(f)
	}
	p.source = strings.Join(names, ", ")
	if len(files) > 1 {
		p.readReports(ctx, gen, files, names)
		return
	}
	name, size := browser.FileInfo(files[0])
	if err := checkSnapshotSize(size); err != nil {
		p.err = name + ": " + err.Error()
		return
	}
	p.reading, p.size, p.read = true, size, 0
	browser.ReadSlice(ctx, files[0], 0, min(size, sliceBytes), func(ctx app.Context, head []byte, err error) {
		defer p.Sink.Catch("reading " + name)
		if gen != p.gen {
			return
		}
		if err != nil {
			p.fail(name + " could not be read: " + err.Error() + ".")
			return
		}
		if looksLikeReport(head) {
			p.reading = false
			p.readReports(ctx, gen, files, names)
			return
		}
		p.readSnapshot(ctx, gen, files[0], name, head)
	})
}

// readSnapshot feeds the snapshot's slices, from head on, to its reader
// in a goroutine of its own, and shows what it makes of them.
func (p *measuredPanel) readSnapshot(ctx app.Context, gen int, file app.Value, name string, head []byte) {
	feed := newSliceFeed()
	p.feed = feed
	go func() {
		res, err := readSnapshot(name, feed)
		feed.done()
		ctx.Dispatch(func(ctx app.Context) {
			defer p.Sink.Catch("showing the snapshot " + name)
			if gen != p.gen {
				return
			}
			p.reading, p.feed = false, nil
			if err != nil {
				p.err = name + " is not a snapshot the page reads: " + err.Error() + ". Nothing changed."
				return
			}
			p.snap, p.reports, p.viewKey = res, nil, ""
		})
	}()
	var next func(ctx app.Context, data []byte, err error)
	next = func(ctx app.Context, data []byte, err error) {
		defer p.Sink.Catch("reading " + name)
		if gen != p.gen {
			return
		}
		if err != nil {
			feed.close(err)
			p.fail(name + " could not be read: " + err.Error() + ". Nothing changed.")
			return
		}
		p.read += int64(len(data))
		if !feed.push(data) {
			return // the reader stopped: its result says why
		}
		if p.read >= p.size || len(data) == 0 {
			feed.close(io.EOF)
			return
		}
		browser.ReadSlice(ctx, file, p.read, min(p.size, p.read+sliceBytes), next)
	}
	next(ctx, head, nil)
}

// readReports reads every file whole as a planner-miss report and
// imports them together.
func (p *measuredPanel) readReports(ctx app.Context, gen int, files []app.Value, names []string) {
	raws := make([][]byte, len(files))
	p.reading, p.size, p.read = true, 0, 0
	for _, f := range files {
		name, size := browser.FileInfo(f)
		if size > measure.MaxReportBytes {
			p.fail(name + ": " + estimator.Group(size) + " bytes, more than the " + estimator.Group(measure.MaxReportBytes) +
				" of a planner-miss report (several files are read as reports; drop a snapshot alone). Nothing changed.")
			return
		}
		p.size += size
	}
	var readFile func(ctx app.Context, i int)
	readFile = func(ctx app.Context, i int) {
		if i == len(files) {
			p.reading = false
			imp, err := importReports(names, raws, p.Config.Budget.InUseBytes)
			if err != nil {
				p.err = "The reports were not imported: " + err.Error() + ". Nothing changed."
				return
			}
			p.reports, p.snap, p.viewKey = imp, nil, ""
			return
		}
		_, size := browser.FileInfo(files[i])
		browser.ReadSlice(ctx, files[i], 0, size, func(ctx app.Context, data []byte, err error) {
			defer p.Sink.Catch("reading " + names[i])
			if gen != p.gen {
				return
			}
			if err != nil {
				p.fail(names[i] + " could not be read: " + err.Error() + ". Nothing changed.")
				return
			}
			raws[i] = data
			p.read += int64(len(data))
			readFile(ctx, i+1)
		})
	}
	readFile(ctx, 0)
}

// deviceViews are the snapshot's views for the config shown, made again
// only when the config or the snapshot changed.
func (p *measuredPanel) deviceViews() []deviceView {
	if p.snap == nil {
		return nil
	}
	key := page.ConfigQuery(p.Config, nil).Encode() + "|" + strconv.FormatBool(p.Ready)
	if key != p.viewKey {
		p.viewKey, p.views = key, snapshotViews(p.snap, p.Config, p.Ready)
	}
	return p.views
}

// points are the observed points the measurement gives.
func (p *measuredPanel) points() []estimator.ObservedPoint {
	if p.reports != nil {
		return p.reports.Points
	}
	var pts []estimator.ObservedPoint
	for _, v := range p.deviceViews() {
		pts = append(pts, v.Points...)
	}
	return pts
}

// profile is the learned profile the measurement gives.
func (p *measuredPanel) profile() *measure.LearnedProfile {
	if p.reports != nil {
		return p.reports.Profile
	}
	return profileOfPoints(p.points(), p.Config.Budget.InUseBytes)
}

func (p *measuredPanel) onUsePoints(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("using the measured points")
	pts := p.points()
	if len(pts) == 0 {
		return
	}
	if len(pts) > estimator.MaxObserved {
		pts = pts[:estimator.MaxObserved]
	}
	p.failed, p.status = false, "The "+strconv.Itoa(len(pts))+" measured points replace the box's points above; the table compares them with both revisions."
	p.Sink.Send(ctx, page.Edit{For: page.ForObserved, Kind: page.EditObserved, Key: page.KeyObserved, Text: page.FormatObserved(pts), Settle: true})
}

func (p *measuredPanel) onUseProfile(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("using the learned profile")
	text := profileJSON(p.profile())
	if text == "" {
		return
	}
	switchArt := !page.UsesArt(p.Config)
	if _, err := page.WithProfileMemory(p.Config, text, switchArt); err != nil {
		p.failed, p.status = true, "The learned profile was not applied: "+err.Error()+"."
		return
	}
	p.failed, p.status = false, "The config's profile_memory is now "+text+": the decisions are ART's warm admission."
	if switchArt {
		p.status += ` The trainer was switched to ART ("profile": "art").`
	}
	p.Sink.Send(ctx, page.Edit{For: page.ForObserved, Kind: page.EditProfile, Text: text, On: switchArt, Settle: true})
}

// Render draws the measured part of the panel.
func (p *measuredPanel) Render() (ui app.UI) {
	defer p.Sink.CatchRender("drawing the measured peaks", &ui)
	return app.Div().ID("measured").Class("measured").Body(
		app.Div().Class("import-actions").Body(
			app.Label().For("measured-file").Class("share-button", "file-pick").Text("Import a snapshot or reports…"),
			app.Input().ID("measured-file").Class("visually-hidden").Type("file").Multiple(true).
				Accept(".pickle,.pkl,.json,.gz,application/json,application/octet-stream").OnChange(p.onPick),
			app.Span().Class("import-hint").Text("or drop them on this panel: a PyTorch memory snapshot (torch.cuda.memory._dump_snapshot's pickle, "+
				"or its JSON) or ART's planner-miss reports. They stay in this page."),
		),
		p.renderStatus(),
		p.renderSnapshot(),
		p.renderReports(),
		p.renderUse(),
	)
}

// stateName is the state for data-state.
func (p *measuredPanel) stateName() string {
	switch {
	case p.reading:
		return "reading"
	case p.err != "":
		return "failed"
	case p.cancelled:
		return "cancelled"
	case p.snap != nil || p.reports != nil:
		return "done"
	}
	return "idle"
}

func (p *measuredPanel) renderStatus() app.UI {
	box := app.Div().ID("measured-status").Class("workload-status", widget.ClassIf(p.err != "", "failed")).
		Role("status").Aria("live", "polite").DataSet("state", p.stateName())
	var text string
	switch {
	case p.reading:
		text = "Reading " + p.source + "…"
	case p.err != "":
		text = p.err
	case p.cancelled:
		text = "The read of " + p.source + " was cancelled; nothing changed."
	case p.snap != nil:
		text = "From " + p.snap.File + " (" + p.snap.Format + "):"
	case p.reports != nil:
		text = "From " + p.source + ":"
	}
	if !p.reading {
		return box.Body(app.P().Class("workload-status-text").Text(text))
	}
	permille := 0
	if p.size > 0 {
		permille = int(p.read * 1000 / p.size)
	}
	return box.Body(
		app.P().Class("workload-status-text").Text(text),
		app.Div().Class("workload-progress-row").Body(
			app.Progress().ID("measured-progress").Class("workload-progress").Max(1000).Value(permille).
				Aria("label", "read progress").DataSet("bytes", p.read),
			app.Button().ID("measured-cancel").Type("button").Class("share-button").Text("Cancel").OnClick(p.onCancel),
		),
	)
}

// gibOf writes bytes as the page does elsewhere: GiB with the exact
// figure.
func gibOf(b int64) string {
	return estimator.Bytes(b).String() + " (" + estimator.Group(b) + " bytes)"
}

func (p *measuredPanel) renderSnapshot() app.UI {
	views := p.deviceViews()
	if len(views) == 0 {
		return nil
	}
	out := make([]app.UI, 0, len(views))
	for i, v := range views {
		d := v.Dev
		id := strconv.Itoa(i)
		title := app.H4().Text("cuda:" + strconv.Itoa(d.Device))
		if !d.History {
			out = append(out, app.Div().Class("measured-device").Body(title,
				app.P().ID("measured-peak-"+id).Class("measured-peak").DataSet("peak-bytes", 0).
					Text("No peak: "+d.Note+". Allocated at the snapshot: "+gibOf(d.CurrentBytes)+".")))
			continue
		}
		at := "before the first trace entry"
		if d.PeakEvent >= 0 {
			at = "at trace entry " + strconv.Itoa(d.PeakEvent) + " (time_us " + strconv.FormatInt(d.PeakTimeUS, 10) + ")"
		}
		peak := app.P().ID("measured-peak-"+id).Class("measured-peak").DataSet("peak-bytes", d.PeakBytes).Text(
			"Allocated peak " + gibOf(d.PeakBytes) + " " + at + ", of " + estimator.Group(int64(d.Events)) + " entries; " +
				gibOf(d.InitialBytes) + " allocated before the trace began; the allocator's rounding at the peak " +
				estimator.Group(d.RoundingBytes) + " bytes. An allocation ends at its " + d.FreeEvent + " entry." + noteOf(d))
		var chartBody, chartErr app.UI
		if v.SVG != "" {
			chartBody = app.Raw(v.SVG)
		}
		if v.SVGErr != "" {
			chartErr = app.P().Class("chart-error").Text("The timeline could not be drawn: " + v.SVGErr)
		}
		out = append(out, app.Div().Class("measured-device").Body(
			title, peak,
			p.renderCompare(id, v),
			app.Figure().Class("chart-figure", "measured-figure").Body(
				app.Div().ID("measured-chart-"+id).Class("chart").Body(chartBody),
				chartErr,
				app.FigCaption().ID("measured-caption-"+id).Text("Allocated bytes after each trace entry (block sizes), the peak marked, each window's peak "+
					"(between snapshot or annotate markers), and each revision's predicted peak for the piece its plan runs."),
			),
			p.renderLive(id, v),
		))
	}
	return app.Div().ID("measured-snapshot").Body(out...)
}

func (p *measuredPanel) renderCompare(id string, v deviceView) app.UI {
	if v.MatchEr != "" {
		return app.P().Class("control-error").Text("The config shown does not price: " + v.MatchEr)
	}
	if v.Match == nil {
		return nil
	}
	rows := make([]app.UI, 0, 2)
	for _, m := range v.Match {
		rows = append(rows, app.Tr().DataSet("revision", m.Revision).Body(
			app.Th().Scope("row").Text(m.Revision),
			numCell(m.Rows), numCell(m.PredictedBytes), numCell(m.ResidualBytes),
			app.Td().Class("measured-summary").Text(m.Best.Summary),
		))
	}
	return app.Div().Class("table-scroll").TabIndex(0).Role("region").Aria("label", "the measured peak beside the estimates").Body(app.Table().ID("measured-compare-"+id).Class("obs-table").Body(
		app.Caption().Text("The measured peak beside each revision's prediction for the piece its plan runs (in use + retained + ephemeral, no safety, no reserve), in bytes; residual = measured − predicted"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("revision"), app.Th().Scope("col").Text("piece rows"),
			app.Th().Scope("col").Text("predicted"), app.Th().Scope("col").Text("residual"),
			app.Th().Scope("col").Text("at the peak"),
		)),
		app.TBody().Body(rows...),
	))
}

// liveShown is how many live blocks the table lists.
const liveShown = 50

func (p *measuredPanel) renderLive(id string, v deviceView) app.UI {
	d := v.Dev
	n := min(len(d.LiveAtPeak), liveShown)
	rows := make([]app.UI, 0, n)
	for _, l := range d.LiveAtPeak[:n] {
		size := estimator.Group(l.Size)
		if !l.SizeExact {
			size = "≈ " + size
		}
		rows = append(rows, app.Tr().DataSet("size", l.Size).Body(
			app.Td().Class("num").Text(size), numCell(l.RequestedSize), numCell(l.RoundingBytes),
			app.Td().Class("measured-frame").Text(l.Frame),
			app.Td().Class("measured-priced").Text(v.Priced[l.Addr]),
		))
	}
	caption := "Live at the peak: " + estimator.Group(int64(len(d.LiveAtPeak))) + " blocks, largest first"
	if len(d.LiveAtPeak) > n {
		caption += " (the first " + strconv.Itoa(n) + ")"
	}
	caption += "; ≈ marks a requested size rounded to 512 bytes (the trace records requested sizes). \"Priced as\" is the candidate's tensor of the same size."
	return app.Div().Class("table-scroll").TabIndex(0).Role("region").Aria("label", "the blocks live at the peak").Body(app.Table().ID("measured-live-"+id).Class("obs-table").Body(
		app.Caption().Text(caption),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("size"), app.Th().Scope("col").Text("requested"), app.Th().Scope("col").Text("rounding"),
			app.Th().Scope("col").Text("allocated at"), app.Th().Scope("col").Text("priced as"),
		)),
		app.TBody().Body(rows...),
	))
}

func (p *measuredPanel) renderReports() app.UI {
	r := p.reports
	if r == nil {
		return nil
	}
	rows := make([]app.UI, 0, len(r.Comparisons))
	for _, c := range r.Comparisons {
		errPct := ""
		if c.ErrorPct != nil {
			errPct = strconv.FormatFloat(*c.ErrorPct, 'f', 1, 64) + " %"
		}
		rows = append(rows, app.Tr().Body(
			app.Th().Scope("row").Text(c.File),
			app.Td().Text(c.Phase), numCell(c.Children), numCell(c.PackedTokens),
			numCell(c.PredictedPeakBytes), numCell(c.ObservedPeakBytes), app.Td().Class("num").Text(errPct),
		))
	}
	var skipped app.UI
	if len(r.Skipped) > 0 {
		items := make([]app.UI, len(r.Skipped))
		for i, s := range r.Skipped {
			items[i] = app.Li().Text(s.File + " (" + s.Event + "): " + s.Reason)
		}
		skipped = app.Div().ID("measured-skipped").Class("import-list").Body(
			app.H4().Text("Skipped ("+strconv.Itoa(len(r.Skipped))+")"), app.Ul().Body(items...))
	}
	return app.Div().ID("measured-planner").Body(
		app.Div().Class("table-scroll").TabIndex(0).Role("region").Aria("label", "the planner-miss reports").Body(app.Table().ID("measured-reports").Class("obs-table").Body(
			app.Caption().Text("ART's planner misses: each plan's predicted and observed peak, in bytes (docs/model.md §13.9)"),
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("report"), app.Th().Scope("col").Text("phase"), app.Th().Scope("col").Text("children"),
				app.Th().Scope("col").Text("packed tokens"), app.Th().Scope("col").Text("predicted"),
				app.Th().Scope("col").Text("observed"), app.Th().Scope("col").Text("error"),
			)),
			app.TBody().Body(rows...),
		)),
		skipped,
	)
}

// renderUse is the two buttons and what they would apply.
func (p *measuredPanel) renderUse() app.UI {
	if p.snap == nil && p.reports == nil {
		return nil
	}
	pts := p.points()
	prof := p.profile()
	art := page.UsesArt(p.Config)
	profLabel := "Use as learned profile"
	if !art {
		profLabel = "Switch to ART and use as learned profile"
	}
	var profNote app.UI
	if prof != nil {
		note := "Learned profile: profile_memory " + profileJSON(prof) + " (ART's running maxima of (peak − in_use_bytes − outputs) / packed tokens, and of packed tokens)."
		if p.snap != nil {
			note += " From a snapshot the outputs count as 0 and each point's rows as its packed tokens."
		}
		if !art {
			note += ` A learned profile is priced only under ART's warm admission: it needs "profile": "art" on some revision, and this config prices with the seeds' arithmetic; the button switches the trainer to ART.`
		}
		profNote = app.P().ID("measured-profile").Class("workload-note").Text(note)
	}
	return app.Div().Class("measured-use").Body(
		profNote,
		app.Div().Class("import-actions").Body(
			app.Button().ID("measured-use-points").Type("button").Class("share-button", "primary").
				Disabled(len(pts) == 0).DataSet("points", len(pts)).
				Title("Replace the box's points with the "+strconv.Itoa(len(pts))+" measured ones").
				Text("Use as observed points").OnClick(p.onUsePoints),
			app.Button().ID("measured-use-profile").Type("button").Class("share-button").
				Disabled(prof == nil).Text(profLabel).OnClick(p.onUseProfile),
		),
		app.P().ID("measured-use-status").Class("share-status", widget.ClassIf(p.failed, "failed")).
			Role("status").Aria("live", "polite").Text(p.status),
	)
}

// noteOf is a device's note (why its peak says little), as a sentence.
func noteOf(d *measure.DeviceReport) string {
	if d.Note == "" {
		return ""
	}
	return " Note: " + d.Note + "."
}
