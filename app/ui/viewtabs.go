package ui

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
)

// viewTabs switches between the one-input chart and the two-input map
// (ids view-single, view-map); both share the controls.
type viewTabs struct {
	app.Compo

	Map  bool
	Sink *widget.Sink
}

// Render draws the two tabs.
func (v *viewTabs) Render() (ui app.UI) {
	defer v.Sink.CatchRender("drawing the view tabs", &ui)
	tab := func(id, value, label string, on bool) app.UI {
		return app.Button().ID(id).Type("button").Class("view-tab", widget.ClassIf(on, "on")).
			Aria("pressed", on).Text(label).
			OnClick(func(ctx app.Context, e app.Event) {
				defer v.Sink.Catch("switching the view")
				v.Sink.Send(ctx, page.Edit{For: page.ForMap, Kind: page.EditMenu, Key: page.KeyView, Text: value, Settle: true})
			})
	}
	return app.Div().Class("view-tabs").Role("group").Aria("label", "view").Body(
		tab("view-single", page.ViewSingle, "One input", !v.Map),
		tab("view-map", page.ViewMap, "Two inputs", v.Map),
	)
}
