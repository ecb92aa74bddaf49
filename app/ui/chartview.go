package ui

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// chartView holds the chart (id chart): the SVG the chart code drew, put
// into the page as it is.
type chartView struct {
	app.Compo

	SVG     string // one <svg> element; "" until the first render
	Error   string // why the last drawing failed; the last good SVG stays
	Stale   bool   // the inputs are invalid: this is the last valid state
	Caption string
	Summary string // the chart in words: the accessible name of #chart (chartSummary)
	Sink    *editSink
}

// Render draws the chart's frame; the SVG is a raw element, replaced only
// when its text changes.
func (c *chartView) Render() (ui app.UI) {
	defer c.Sink.catchRender("drawing the chart", &ui)
	var body app.UI = app.Div().Class("chart-empty").Text("Loading the estimator…")
	if c.SVG != "" {
		body = app.Raw(c.SVG)
	}
	return app.Figure().Class("chart-figure", classIf(c.Stale, "stale")).Body(
		app.Div().ID("chart").Class("chart").Role("img").Aria("labelledby", "chart-summary").Body(body),
		app.P().ID("chart-summary").Class("visually-hidden").Text(c.Summary),
		app.If(c.Error != "", app.P().Class("chart-error").Text("The chart could not be drawn: "+c.Error)),
		app.FigCaption().Text(c.Caption),
	)
}
