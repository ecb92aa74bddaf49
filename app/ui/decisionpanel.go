package ui

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/estimator"
)

// decisionPanel shows one revision's decision (id decision-<Rev>, with
// the decision's name alone in an element of class "decision"), what its
// required bytes are made of (composition.go: the retained bytes against
// the peak stage, named; it replaces the bare "dominant stage", which
// named the peak stage even where retained bytes outweigh it) and where it
// flips along the axis (id flips-<Rev>).
type decisionPanel struct {
	app.Compo

	Rev       string // "baseline" or "candidate"
	Title     string
	Subtitle  string
	Ready     bool // false until the first estimate: show no decision at all
	Outcome   estimator.Outcome
	Available estimator.Bytes
	Axis      string
	Flips     string
	Safety    int64 // the revision's safety_percent, for the composition
	Sink      *editSink
}

// Render draws the panel.
func (p *decisionPanel) Render() (ui app.UI) {
	defer p.Sink.catchRender("drawing the "+p.Rev+" decision", &ui)
	o := p.Outcome
	head := app.Header().Body(
		app.H3().Text(p.Title),
		app.P().Class("subtitle").Text(p.Subtitle),
	)
	if !p.Ready {
		return app.Section().ID("decision-%s", p.Rev).Class("card", "decision-card").Body(
			head, app.P().Class("pending").Text("Estimating…"),
			app.P().ID("flips-%s", p.Rev).Class("flips"),
		)
	}
	d := o.Decision.String()
	return app.Section().ID("decision-%s", p.Rev).Class("card", "decision-card", "is-"+d).Body(
		head,
		app.P().Class("verdict").Body(
			app.Span().Class("decision").Text(d),
			app.Span().Class("plan").Text(planText(o)),
		),
		compositionView(p.Rev, composeRequired(o, p.Safety)),
		app.Dl().Class("facts").Body(
			fact("required", o.RequiredBytes.String(), ""),
			fact("available", p.Available.String(), ""),
			fact("margin", o.MarginBytes.String(), classIf(o.MarginBytes < 0, "negative")),
			fact("lower bound", o.LowerBoundBytes.String(), ""),
		),
		app.P().Class("reason").Text(o.Reason),
		app.P().ID("flips-%s", p.Rev).Class("flips").Body(
			app.Span().Class("flips-label").Text("Along "+p.Axis+": "),
			app.Text(p.Flips),
		),
	)
}

// planText says how the request runs: "whole, 64,902 rows",
// "2 children, the largest 33,706 rows".
func planText(o estimator.Outcome) string {
	switch o.Decision {
	case estimator.Admit:
		return "whole: 1 child of " + estimator.Group(o.ChildRows) + " rows"
	case estimator.Split:
		return estimator.Group(o.Children) + " children, the largest " + estimator.Group(o.ChildRows) + " rows"
	}
	return "0 children (the last rung tried: children of " + estimator.Group(o.ChildRows) + " rows)"
}

func fact(term, value, class string) app.UI {
	return app.Div().Class("fact", class).Body(app.Dt().Text(term), app.Dd().Text(value))
}
