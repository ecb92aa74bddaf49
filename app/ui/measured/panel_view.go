package measured

// How the measured panel draws itself: the status, a snapshot's devices,
// the reports and the buttons that use them.

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
	"headroom/measure"
)

// Render draws the measured part of the panel.
func (p *Panel) Render() (ui app.UI) {
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
		p.renderPickB(),
		p.renderSnapshot(),
		p.renderRuns(),
		p.renderReports(),
		p.renderUse(),
	)
}

// stateName is the state for data-state.
func (p *Panel) stateName() string {
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

func (p *Panel) renderStatus() app.UI {
	box := app.Div().ID("measured-status").Class("workload-status", widget.ClassIf(p.err != "", "failed")).
		Role("status").Aria("live", "polite").DataSet("state", p.stateName())
	var text string
	switch {
	case p.reading && p.readingB && p.snap != nil:
		text = "Reading " + p.source + " to compare with " + p.snap.File + p.passText() + "…"
	case p.reading:
		text = "Reading " + p.source + p.passText() + "…"
	case p.err != "":
		text = p.err
	case p.cancelled:
		text = "The read of " + p.source + " was cancelled; nothing changed."
	case p.snap != nil && p.snapB != nil:
		text = "From " + p.snap.File + " (" + p.snap.Format + "), compared with " + p.snapB.File + " (" + p.snapB.Format + ") below:"
	case p.snap != nil:
		text = "From " + p.snap.File + " (" + p.snap.Format + "):"
	case p.reports != nil:
		text = "From " + p.source + ":"
	}
	if !p.reading {
		return box.Body(widget.SomeText(app.P().Class("workload-status-text"), text))
	}
	// One bar over both passes of a snapshot: the first fills its first
	// half, the second the rest. Reports are read once.
	permille := 0
	switch {
	case p.size > 0 && p.pass > 0:
		permille = int((int64(p.pass-1)*p.size + p.read) * 500 / p.size)
	case p.size > 0:
		permille = int(p.read * 1000 / p.size)
	}
	return box.Body(
		widget.SomeText(app.P().Class("workload-status-text"), text),
		app.Div().Class("workload-progress-row").Body(
			app.Progress().ID("measured-progress").Class("workload-progress").Max(1000).Value(permille).
				Aria("label", "read progress").DataSet("bytes", p.read).DataSet("pass", p.pass),
			app.Button().ID("measured-cancel").Type("button").Class("share-button").Text("Cancel").OnClick(p.onCancel),
		),
	)
}

// passText says which pass of a snapshot is read.
func (p *Panel) passText() string {
	if p.pass == 0 {
		return ""
	}
	return " (pass " + strconv.Itoa(p.pass) + " of 2)"
}

// gibOf writes bytes as the page does elsewhere, the exact figure with
// GiB, once (estimator.Bytes.String; the exact figure was written twice).
func gibOf(b int64) string {
	return estimator.Bytes(b).String()
}

func (p *Panel) renderSnapshot() app.UI {
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

func (p *Panel) renderCompare(id string, v deviceView) app.UI {
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
			widget.NumCell(estimator.Group(m.Rows)), widget.NumCell(estimator.Group(m.PredictedBytes)), widget.NumCell(estimator.Group(m.ResidualBytes)),
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

func (p *Panel) renderLive(id string, v deviceView) app.UI {
	d := v.Dev
	n := min(len(d.LiveAtPeak), liveShown)
	rows := make([]app.UI, 0, n)
	for _, l := range d.LiveAtPeak[:n] {
		size := estimator.Group(l.Size)
		if !l.SizeExact {
			size = "≈ " + size
		}
		rows = append(rows, app.Tr().DataSet("size", l.Size).Body(
			app.Td().Class("num").Text(size), widget.NumCell(estimator.Group(l.RequestedSize)), widget.NumCell(estimator.Group(l.RoundingBytes)),
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

func (p *Panel) renderReports() app.UI {
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
			app.Td().Text(c.Phase), widget.NumCell(estimator.Group(c.Children)), widget.NumCell(estimator.Group(c.PackedTokens)),
			widget.NumCell(estimator.Group(c.PredictedPeakBytes)), widget.NumCell(estimator.Group(c.ObservedPeakBytes)), app.Td().Class("num").Text(errPct),
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
func (p *Panel) renderUse() app.UI {
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
		widget.SomeText(app.P().ID("measured-use-status").Class("share-status", widget.ClassIf(p.failed, "failed")).
			Role("status").Aria("live", "polite"), p.status),
	)
}

// noteOf is a device's note (why its peak says little), as a sentence.
func noteOf(d *measure.DeviceReport) string {
	if d.Note == "" {
		return ""
	}
	return " Note: " + d.Note + "."
}
