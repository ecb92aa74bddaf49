package ui

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

// axisControls chooses what the chart sweeps (id axis) and over which
// range (ids axis-from, axis-to, each with its error-<id>).
type axisControls struct {
	app.Compo

	Axis     string
	From, To string // the fields' text
	Errors   map[string]string
	Sink     *widget.Sink
}

// Render draws the axis menu and the range fields.
func (a *axisControls) Render() (ui app.UI) {
	defer a.Sink.CatchRender("drawing the axis controls", &ui)
	var opts []widget.Option
	for _, k := range estimator.Axes() {
		opts = append(opts, widget.Option{Value: k, Label: k})
	}
	return app.Div().Class("axis-controls").Body(
		&widget.Menu{ID: page.KeyAxis, Label: "chart sweeps", Options: opts, Selected: a.Axis, Error: a.Errors[page.KeyAxis], Sink: a.Sink},
		a.bound(page.KeyFrom, "from", a.From),
		a.bound(page.KeyTo, "to", a.To),
		app.Button().ID("axis-fit").Type("button").Class("share-button", "axis-fit").
			Title("Put the range back to the default for the current config; the range then follows the config again").
			Text("Fit range").OnClick(a.onFit),
	)
}

func (a *axisControls) bound(id, label, text string) app.UI {
	msg := a.Errors[id]
	return app.Div().Class("control", "bound", widget.ClassIf(msg != "", "has-error")).Body(
		app.Label().For("%s", id).Class("control-label", "control-name").Text(label),
		app.Input().Type("text").ID("%s", id).Class("number").
			Attr("inputmode", "numeric").AutoComplete(false).Spellcheck(false).
			Value(widget.Attr(text)).Aria("invalid", msg != "").Aria("describedby", "error-"+id).
			OnInput(a.onInput, id).OnChange(a.onCommit, id),
		widget.SomeText(app.Span().ID("error-%s", id).Class("control-error").Aria("live", "polite"), msg),
	)
}

// onInput sends the range field's text; the element's id says which.
func (a *axisControls) onInput(ctx app.Context, e app.Event) {
	defer a.Sink.Catch("editing the axis range")
	src := ctx.JSSrc()
	a.Sink.Send(ctx, page.Edit{Kind: page.EditText, Key: src.Get("id").String(), Text: src.Get("value").String()})
}

// onCommit tells the explorer a range field was committed, so it shows
// the value as the page reads it ("80GiB" becomes its bytes).
func (a *axisControls) onCommit(ctx app.Context, e app.Event) {
	defer a.Sink.Catch("committing the axis range")
	a.Sink.Send(ctx, page.Edit{Kind: page.EditCommit, Key: ctx.JSSrc().Get("id").String()})
}

// onFit puts the range back to its default, which then follows the
// config again.
func (a *axisControls) onFit(ctx app.Context, e app.Event) {
	defer a.Sink.Catch("fitting the axis range")
	a.Sink.Send(ctx, page.Edit{Kind: page.EditFit})
}
