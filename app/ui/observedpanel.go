package ui

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/browser"
	"headroom/app/ui/measured"
	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

// observedView is what the observed-peaks panel shows: the box's text and
// its message, and the comparison of the last valid render.
type observedView struct {
	Text    string // the box: the text in error, or the points as the page reads them
	Error   string // why the text was not taken; the points are as they were
	Axis    string // the shown chart's axis
	Rows    []observedRow
	Fit     *estimator.Fit
	Summary string // ObservedSentence
}

// observedRow is one point of the table: the point, each revision's
// prediction and residual, and the warning beside it.
type observedRow struct {
	Label     string
	Rows      int64
	Peak      int64
	Predicted [2]int64 // baseline, candidate
	Residual  [2]int64
	Warning   string
}

// observedViewOf builds the panel's view from the state (the box) and the
// last valid render (the table). A point whose peak is below a revision's
// in_use_bytes is valid, and gets a warning naming that revision's
// in-use bytes.
func observedViewOf(s *page.State, sh *shownState, axis string) observedView {
	v := observedView{Text: s.ObservedText(), Error: s.Errs[page.KeyObserved], Axis: axis}
	if !sh.ready || len(sh.result.Observed) == 0 {
		return v
	}
	var inUse [2]int64
	if rv, err := sh.config.ResolveRevisions(); err == nil {
		inUse = [2]int64{rv.Rev[0].InUse, rv.Rev[1].InUse}
	}
	for _, o := range sh.result.Observed {
		r := observedRow{Label: o.Label, Rows: o.Rows, Peak: int64(o.PeakBytes),
			Predicted: [2]int64{int64(o.Baseline.PredictedBytes), int64(o.Candidate.PredictedBytes)},
			Residual:  [2]int64{int64(o.Baseline.ResidualBytes), int64(o.Candidate.ResidualBytes)}}
		r.Warning = belowInUse(r.Peak, inUse)
		v.Rows = append(v.Rows, r)
	}
	v.Fit = sh.result.Fit
	v.Summary = ObservedSentence(sh.result.Fit, len(sh.result.Observed))
	return v
}

// belowInUse is the warning for a peak below the in-use bytes of either
// revision (inUse: baseline, candidate), or "".
func belowInUse(peak int64, inUse [2]int64) string {
	switch lo, hi := min(inUse[0], inUse[1]), max(inUse[0], inUse[1]); {
	case peak >= hi:
		return ""
	case lo == hi:
		return "below the memory in use (in_use_bytes " + estimator.Group(hi) + " bytes)"
	case peak < lo:
		return "below the memory in use (in_use_bytes " + estimator.Group(inUse[0]) + " bytes for the baseline, " +
			estimator.Group(inUse[1]) + " bytes for the candidate)"
	}
	rev := "baseline"
	if inUse[1] > inUse[0] {
		rev = "candidate"
	}
	return "below the " + rev + "'s memory in use (in_use_bytes " + estimator.Group(max(inUse[0], inUse[1])) + " bytes)"
}

// ObservedSentence compares the revisions' largest errors before and after
// the fit, the sentence a hold is decided on: "The candidate is within
// 3.1 % of the measurements, the baseline within 17.2 %; after a fitted
// static and per-row correction, 0.4 % and 2.0 %." Percents have one
// decimal (errorPercentText). With one or two points it adds that the fit
// proves nothing on its own: a line through one point, or two at
// different rows, meets them exactly.
func ObservedSentence(fit *estimator.Fit, points int) string {
	if fit == nil || points == 0 {
		return ""
	}
	c, b := fit.Candidate.ErrorPercentBefore, fit.Baseline.ErrorPercentBefore
	s := "The candidate is within " + withinText(c) + " of the measurements, the baseline within " + withinText(b)
	if max(c, b) >= 100 {
		// "Within 1065.3 % of the measurements" says nothing a person can
		// use: an error larger than the peak itself is a question of what
		// the peaks count.
		s = "The predictions miss by more than the measured peaks themselves (the candidate by up to " + errorPercentText(c) +
			", the baseline by up to " + errorPercentText(b) + "), as when the peaks leave out the memory in use the predictions count (in_use_bytes, resident memory)"
	}
	s += "; after a fitted static and per-row correction, " + errorPercentText(fit.Candidate.ErrorPercentAfter) +
		" and " + errorPercentText(fit.Baseline.ErrorPercentAfter) + "."
	switch points {
	case 1:
		s += " One point fits exactly and proves nothing on its own."
	case 2:
		s += " Two points fit exactly (unless their rows are equal) and prove nothing on their own."
	}
	return s
}

// errorPercentText writes a percent with one decimal ("3.1 %"); a value above
// zero that would show as 0.0 is "< 0.1 %", so that only an exact fit
// reads 0.0 %.
func errorPercentText(p float64) string {
	if p > 0 && p < 0.05 {
		return "< 0.1 %"
	}
	return strconv.FormatFloat(p, 'f', 1, 64) + " %"
}

// withinText is errorPercentText after "within": a value above zero that
// would show as 0.0 is within 0.1 %.
func withinText(p float64) string {
	if p > 0 && p < 0.05 {
		return "0.1 %"
	}
	return errorPercentText(p)
}

// observedPanel is the "Observed peaks" panel (id observed-panel): a box
// for measured peaks (id obs-text), the button that sets them
// (id obs-apply), a CSV picker (id obs-file), the message of a text that
// was not taken (id error-observed), and, for the last valid render, the
// table of predictions and residuals (id obs-table), the fit (id
// obs-fit) and the comparison (id obs-sentence). Along another axis than
// rows it says the points are drawn on the rows chart (id obs-note).
// Below, measured.Panel (app/ui/measured) reads a memory snapshot or
// ART's planner-miss reports dropped on the panel.
type observedPanel struct {
	app.Compo

	View   observedView
	Config estimator.Config // the config shown (the measured peaks compare with it)
	Ready  bool
	Sink   *widget.Sink

	text    string // the box as typed since the last render of View.Text
	shown   string // the View.Text the box was last set to
	fileErr string // why the chosen file could not be read; the points are as they were
}

// OnMount puts the view's text in the box.
func (p *observedPanel) OnMount(ctx app.Context) {
	defer p.Sink.Catch("filling the observed peaks")
	p.syncText()
}

// OnUpdate puts a new text of the view (points from a link, an import, a
// step back) in the box; the text being typed stays otherwise.
func (p *observedPanel) OnUpdate(ctx app.Context) {
	defer p.Sink.Catch("filling the observed peaks")
	p.syncText()
}

// syncText sets the box's value property when the view's text changed:
// once typed in, a textarea no longer shows its text child.
func (p *observedPanel) syncText() {
	if p.View.Text == p.shown {
		return
	}
	p.shown, p.text = p.View.Text, p.View.Text
	if el := app.Window().GetElementByID("obs-text"); el != nil && el.Truthy() {
		el.Set("value", p.View.Text)
	}
}

// Render draws the panel.
func (p *observedPanel) Render() (ui app.UI) {
	defer p.Sink.CatchRender("drawing the observed peaks", &ui)
	v := p.View
	var note app.UI
	if v.Axis != "" && v.Axis != "rows" && len(v.Rows) > 0 {
		note = app.P().ID("obs-note").Class("obs-note").Role("status").
			Text("The points are drawn on the rows chart; this chart is along " + v.Axis + ". Choose rows on the axis menu to see them.")
	}
	return app.FieldSet().ID("observed-panel").Class("group", "observed-panel").Body(
		app.Legend().Text("Observed peaks"),
		app.Label().For("obs-text").Class("import-label").
			Text("Measured peaks, one a line: rows, peak, label; or a CSV with the header rows,peak_bytes,label"),
		widget.TextareaText(app.Textarea().ID("obs-text").Class("import-text").Rows(3).Spellcheck(false).
			Placeholder("64902, 88.271 GiB, cold forward"), v.Text).
			Aria("describedby", "error-observed").OnInput(p.onInput),
		app.Div().Class("import-actions").Body(
			app.Button().ID("obs-apply").Type("button").Class("share-button", "primary").
				Text("Set points").OnClick(p.onApply),
			app.Label().For("obs-file").Class("share-button", "file-pick").Text("Import CSV…"),
			app.Input().ID("obs-file").Class("visually-hidden").Type("file").
				Accept(".csv,text/csv,text/plain").OnChange(p.onPick),
		),
		widget.SomeText(app.P().ID("error-observed").Class("control-error").Aria("live", "polite"), v.Error),
		widget.SomeText(app.P().ID("obs-file-error").Class("control-error").Aria("live", "polite"), p.fileErr),
		// The note and the table come and go: in a box of their own, so
		// that the measured part keeps its place among the panel's
		// children, and go-app keeps its component (a child whose
		// place changes is a new one, and loses what it read).
		app.Div().Class("obs-results").Body(
			note,
			p.renderTable(),
			widget.SomeText(app.P().ID("obs-sentence").Class("obs-sentence"), v.Summary),
		),
		&measured.Panel{Config: p.Config, Ready: p.Ready, Sink: p.Sink},
	)
}

// renderTable is the table of points and the fit; nothing without points.
func (p *observedPanel) renderTable() app.UI {
	v := p.View
	if len(v.Rows) == 0 {
		return nil
	}
	body := make([]app.UI, 0, len(v.Rows))
	for i, r := range v.Rows {
		warn := app.UI(nil)
		if r.Warning != "" {
			warn = app.Span().Class("obs-warning").Role("note").
				Title("%s", widget.Attr("A valid point, but the measurement counts less than the bytes the config says were already allocated.")).
				Text("⚠ " + r.Warning)
		}
		body = append(body, app.Tr().ID("obs-row-%d", i).Body(
			app.Th().Scope("row").Body(app.Text(r.Label), warn),
			widget.NumCell(estimator.Group(r.Rows)), widget.NumCell(estimator.Group(r.Peak)),
			widget.NumCell(estimator.Group(r.Predicted[0])), widget.NumCell(estimator.Group(r.Residual[0])),
			widget.NumCell(estimator.Group(r.Predicted[1])), widget.NumCell(estimator.Group(r.Residual[1])),
		))
	}
	var fit app.UI
	if f := v.Fit; f != nil {
		fit = app.Table().ID("obs-fit").Class("obs-table").Body(
			app.Caption().Text("The fit: residual ≈ static + per-row × rows, least squares"),
			app.THead().Body(app.Tr().Body(app.Th().Text(""), app.Th().Scope("col").Text("baseline"), app.Th().Scope("col").Text("candidate"))),
			app.TBody().Body(
				fitRow("static bytes", estimator.Group(int64(f.Baseline.StaticBytes)), estimator.Group(int64(f.Candidate.StaticBytes))),
				fitRow("per-row bytes", estimator.Group(int64(f.Baseline.PerRowBytes)), estimator.Group(int64(f.Candidate.PerRowBytes))),
				fitRow("largest error before", errorPercentText(f.Baseline.ErrorPercentBefore), errorPercentText(f.Candidate.ErrorPercentBefore)),
				fitRow("largest error after", errorPercentText(f.Baseline.ErrorPercentAfter), errorPercentText(f.Candidate.ErrorPercentAfter)),
			),
		)
	}
	return app.Div().Class("table-scroll", "obs-tables").TabIndex(0).Role("region").Aria("label", "observed peaks against the estimates, scrolls sideways").Body(
		app.Table().ID("obs-table").Class("obs-table").Body(
			app.Caption().Text("Each point against each revision's predicted peak (in use + retained + ephemeral bytes of a piece of that many rows; no safety, no reserve), in bytes; residual = measured − predicted"),
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("point"), app.Th().Scope("col").Text("rows"), app.Th().Scope("col").Text("measured"),
				app.Th().Scope("col").Text("baseline predicted"), app.Th().Scope("col").Text("baseline residual"),
				app.Th().Scope("col").Text("candidate predicted"), app.Th().Scope("col").Text("candidate residual"),
			)),
			app.TBody().Body(body...),
		),
		fit,
	)
}

func fitRow(name, b, c string) app.UI {
	return app.Tr().Body(app.Th().Scope("row").Text(name), app.Td().Class("num").Text(b), app.Td().Class("num").Text(c))
}

func (p *observedPanel) onInput(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("reading the observed peaks")
	p.text = ctx.JSSrc().Get("value").String()
}

func (p *observedPanel) onApply(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("setting the observed peaks")
	p.fileErr = ""
	p.Sink.Send(ctx, page.Edit{For: page.ForObserved, Kind: page.EditObserved, Key: page.KeyObserved, Text: p.text, Settle: true})
}

func (p *observedPanel) onPick(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("importing the CSV of observed peaks")
	input := ctx.JSSrc()
	file, ok := browser.FileOf(input)
	if !ok {
		return
	}
	browser.ReadFile(ctx, file, func(ctx app.Context, data []byte, err error) {
		defer p.Sink.Catch("importing the CSV of observed peaks")
		if err != nil {
			p.fileErr = "The file could not be read: " + err.Error() + ". The points are as they were."
			return
		}
		p.fileErr = ""
		text := string(data)
		if !estimator.IsObservedCSV(text) && strings.TrimSpace(text) != "" {
			text = "rows,peak_bytes,label\n" + text // a file without its header is read as CSV all the same
		}
		p.text = text
		p.Sink.Send(ctx, page.Edit{For: page.ForObserved, Kind: page.EditObserved, Key: page.KeyObserved, Text: text, Settle: true})
	})
	browser.ClearFileInput(input)
}
