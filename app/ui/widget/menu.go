package widget

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
)

// Option is one entry of a menu.
type Option struct {
	Value, Label string
	Disabled     bool // shown (say, "custom") but not for choosing
}

// Menu is a labelled select (id <ID>) with the message about it
// (id error-<ID>).
type Menu struct {
	app.Compo

	ID       string
	Label    string
	Options  []Option
	Selected string
	Error    string
	For      page.Feature // the feature its edits are for (the config's fields when zero)
	Sink     *Sink
}

// Render draws the menu.
func (m *Menu) Render() (ui app.UI) {
	defer m.Sink.CatchRender("drawing "+m.ID, &ui)
	opts := make([]app.UI, len(m.Options))
	for i, o := range m.Options {
		opt := app.Option().Value(Attr(o.Value)).Text(o.Label)
		if BoolAttr(o.Disabled) {
			opt = opt.Disabled(o.Disabled)
		}
		if sel := o.Value == m.Selected; BoolAttr(sel) {
			opt = opt.Selected(sel)
		}
		opts[i] = opt
	}
	return app.Div().Class("control", "menu", ClassIf(m.Error != "", "has-error")).Body(
		app.Label().For("%s", m.ID).Class("control-label", "control-name").Text(m.Label),
		app.Select().ID("%s", m.ID).DataSet("selected", Attr(m.Selected)).OnChange(m.onChange).Body(opts...),
		SomeText(app.Span().ID("error-%s", m.ID).Class("control-error").Aria("live", "polite"), m.Error),
	)
}

func (m *Menu) onChange(ctx app.Context, e app.Event) {
	defer m.Sink.Catch("choosing from " + m.ID)
	m.Sink.Send(ctx, page.Edit{For: m.For, Kind: page.EditMenu, Key: m.ID, Text: ctx.JSSrc().Get("value").String(), Settle: true})
}

// BoolAttr reports whether to write a boolean attribute (checked,
// selected, disabled, open). In the browser go-app sets the element's
// property, so false must be written to clear it; in the server's
// pre-rendered HTML the attribute's presence means true whatever its
// value, so false must be left out.
func BoolAttr(v bool) bool { return app.IsClient || v }
