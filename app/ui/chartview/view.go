package chartview

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
)

// View holds the chart (id chart): the SVG the chart code drew, put
// into the page as it is, and the pointer's overlay over it (pointer.go):
// a crosshair, a drag's selection, the bands' labels and the read-out
// (#chart-readout), which the overlay's code shows, moves and fills.
type View struct {
	app.Compo

	SVG     string // one <svg> element; "" until the first render
	Error   string // why the last drawing failed; the last good SVG stays
	Stale   bool   // the inputs are invalid: this is the last valid state
	Empty   string // what the chart says while it has no SVG ("" : loading)
	Caption string
	Summary string // the chart in words: the accessible name of #chart (chartSummary)
	Sink    *widget.Sink
}

// Render draws the chart's frame; the SVG is a raw element, replaced only
// when its text changes.
func (c *View) Render() (ui app.UI) {
	defer c.Sink.CatchRender("drawing the chart", &ui)
	empty := "Loading the estimator…"
	if c.Empty != "" {
		empty = c.Empty
	}
	var body app.UI = app.Div().ID("chart-empty").Class("chart-empty").Text(empty)
	if c.SVG != "" {
		body = app.Raw(c.SVG)
	}
	return app.Figure().Class("chart-figure", widget.ClassIf(c.Stale, "stale")).Body(
		app.Div().Class("chart-tools").Body(
			// The mouse's help, or on a touch screen (CSS: hover none,
			// pointer coarse) what a finger does.
			app.Span().ID("chart-help").Class("chart-help").Body(
				app.Span().ID("chart-help-pointer").Class("chart-help-pointer").Text("Point to read; click sets the value; drag zooms; double-click resets. Keys: arrows step (Shift: ten), Page Up/Down jump to flips, Home/End."),
				app.Span().ID("chart-help-touch").Class("chart-help-touch").Text("Tap the chart to set the value there."),
			),
			app.Button().ID("chart-reset").Class("share-button").Type("button").Text("Reset range").
				OnClick(func(ctx app.Context, e app.Event) {
					defer c.Sink.Catch("resetting the range")
					c.Sink.Send(ctx, page.Edit{Kind: page.EditResetRange})
				}),
		),
		app.Div().ID("chart").Class("chart").TabIndex(0).Role("group").
			Aria("labelledby", "chart-summary").Aria("describedby", "chart-help").Body(
			body,
			app.Div().Class("chart-overlay").Aria("hidden", "true").Body(
				app.Div().ID("chart-bands").Class("chart-bands"),
				app.Div().ID("chart-selection").Class("chart-selection").Hidden(true),
				app.Div().ID("chart-crosshair").Class("chart-crosshair").Hidden(true),
			),
			app.Div().ID("chart-readout").Class("chart-readout").Role("status").Aria("live", "polite").Hidden(true).Body(
				app.P().ID("readout-x").Class("readout-x"),
				app.P().ID("readout-baseline").Class("readout-rev"),
				app.P().ID("readout-candidate").Class("readout-rev"),
			),
		),
		app.P().ID("chart-summary").Class("visually-hidden").Text(c.Summary),
		app.If(c.Error != "", app.P().Class("chart-error").Text("The chart could not be drawn: "+c.Error)),
		app.FigCaption().ID("chart-caption").Text(c.Caption),
	)
}
