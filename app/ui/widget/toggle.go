package widget

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
)

// Toggle is a switch (a checkbox, id check-<Key>), with an optional line
// of explanation and a link.
type Toggle struct {
	app.Compo

	Key     string
	Label   string
	Doc     string // one line under the label
	Href    string // optional link after the explanation
	Link    string // its text
	Checked bool
	// Error is the message about the switch's value (a link's grad=maybe),
	// shown in id error-<Key>; Errs says whether the switch has that
	// element (top-k and expert parallelism do not: their number field
	// has it).
	Error string
	Errs  bool
	For   page.Feature // the feature its edits are for (the config's fields when zero)
	Sink  *Sink
}

// Render draws the switch.
func (t *Toggle) Render() (ui app.UI) {
	defer t.Sink.CatchRender("drawing "+t.Key, &ui)
	box := app.Input().Type("checkbox").ID("check-%s", t.Key).OnChange(t.onChange)
	if t.Errs {
		box = box.Aria("invalid", t.Error != "").Aria("describedby", "error-"+t.Key)
	}
	if BoolAttr(t.Checked) {
		box = box.Checked(t.Checked)
	}
	return app.Div().Class("toggle", ClassIf(t.Error != "", "has-error")).Body(
		app.Label().For("check-%s", t.Key).Class("control-name").Body(
			box,
			app.Text(t.Label), // the label is the name: no element around it
		),
		app.If(t.Doc != "",
			app.P().Class("toggle-doc").Body(
				app.If(t.Href == "", app.Text(t.Doc)),
				app.If(t.Href != "",
					app.Text(t.Doc+" "), // one text node with the space before the link
					app.A().Href("%s", t.Href).Target("_blank").Rel("noopener").Text(t.Link).OnClick(t.onLink),
				),
			),
		),
		app.If(t.Errs,
			SomeText(app.Span().ID("error-%s", t.Key).Class("control-error").Aria("live", "polite"), t.Error),
		),
	)
}

// onLink keeps the click from go-app: its window-level handler takes every
// same-host link for a page of the app (ignoring target) and would replace
// the explorer with "not found". Stopped here, the browser follows the
// link as written, in a new tab.
func (t *Toggle) onLink(ctx app.Context, e app.Event) {
	e.Call("stopPropagation")
}

func (t *Toggle) onChange(ctx app.Context, e app.Event) {
	defer t.Sink.Catch("switching " + t.Key)
	t.Sink.Send(ctx, page.Edit{For: t.For, Kind: page.EditCheck, Key: t.Key, On: ctx.JSSrc().Get("checked").Bool(), Settle: true})
}
