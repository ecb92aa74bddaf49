package widget

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
)

// TextField is a control that takes text alone (a list of names, where a
// range input means nothing): the field (id input-<Key>) and the message
// about its value (id error-<Key>).
type TextField struct {
	app.Compo

	Key, Label, Doc string
	Text            string
	Placeholder     string
	Error           string
	Sink            *Sink
}

// Render draws the control.
func (f *TextField) Render() (ui app.UI) {
	defer f.Sink.CatchRender("drawing "+f.Key, &ui)
	return app.Div().Class("control", "text-control", ClassIf(f.Error != "", "has-error")).Body(
		app.Label().For("input-%s", f.Key).Class("control-label", "control-name").Title("%s", f.Doc).Body(
			app.Text(f.Label), // the label is the name: no element around it
			app.If(f.Doc != "", app.Span().Class("control-doc").Text(f.Doc)),
		),
		app.Input().Type("text").ID("input-%s", f.Key).Class("text").
			AutoComplete(false).Spellcheck(false).
			Placeholder("%s", Attr(f.Placeholder)).
			Value(Attr(f.Text)).
			Aria("invalid", f.Error != "").
			Aria("describedby", "error-"+f.Key).
			OnInput(f.onType).OnChange(f.onCommit),
		SomeText(app.Span().ID("error-%s", f.Key).Class("control-error").Aria("live", "polite"), f.Error),
	)
}

func (f *TextField) onType(ctx app.Context, e app.Event) {
	defer f.Sink.Catch("typing into " + f.Key)
	f.Sink.Send(ctx, page.Edit{Kind: page.EditText, Key: f.Key, Text: ctx.JSSrc().Get("value").String()})
}

func (f *TextField) onCommit(ctx app.Context, e app.Event) {
	defer f.Sink.Catch("committing " + f.Key)
	f.Sink.Send(ctx, page.Edit{Kind: page.EditCommit, Key: f.Key})
}
