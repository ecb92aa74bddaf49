package ui

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/widget"
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

	Rev       estimator.Revision
	Title     string
	Subtitle  string
	Ready     bool   // false until the first estimate: show no decision at all
	Pending   string // before the first estimate: why there is none ("" : estimating)
	Outcome   estimator.Outcome
	Available estimator.Bytes
	Axis      string
	Flips     string
	SeqRows   int64 // sequence_rows, to count the plan's rows in sequences
	Safety    int64 // the revision's safety_percent, for the composition
	Art       bool  // ART's code prices this revision (docs/model.md §13)
	Resident  *estimator.ResidentResult
	Sink      *widget.Sink
}

// Render draws the panel.
func (p *decisionPanel) Render() (ui app.UI) {
	defer p.Sink.CatchRender("drawing the "+p.Rev.String()+" decision", &ui)
	o := p.Outcome
	// The title and subtitle stand in the section itself: a <header>
	// around them was one element more and, inside a section, no landmark.
	title := app.H3().Text(p.Title)
	subtitle := app.P().Class("subtitle").Text(p.Subtitle)
	if !p.Ready {
		return app.Section().ID("decision-%s", p.Rev).Class("card", "decision-card").Body(
			title, subtitle, app.P().Class("pending").Text(pendingText(p.Pending)),
			app.P().ID("flips-%s", p.Rev).Class("flips"),
		)
	}
	d := o.Decision.String()
	return app.Section().ID("decision-%s", p.Rev).Class("card", "decision-card", "is-"+d).Body(
		title, subtitle,
		app.P().Class("verdict").Body(
			app.Span().Class("decision").Text(d),
			app.Span().Class("plan").Text(planText(o, p.SeqRows)),
		),
		compositionView(p.Rev.String(), p.composition()),
		app.Dl().Class("facts").Body(facts(
			fact{"required", o.RequiredBytes.String(), ""},
			fact{"available", p.Available.String(), ""},
			fact{"margin", o.MarginBytes.String(), widget.ClassIf(o.MarginBytes < 0, "negative")},
			fact{"lower bound", o.LowerBoundBytes.String(), ""},
		)...),
		app.P().Class("reason").Text(o.Reason),
		app.P().ID("flips-%s", p.Rev).Class("flips").Body(
			app.Span().Class("flips-label").Text("Along "+p.Axis+": "),
			app.Text(p.Flips),
		),
		app.If(o.Placement != nil, p.placement()),
		app.If(o.Resident != nil,
			app.P().ID("resident-%s", p.Rev).Class("resident").Text(ResidentLine(o.Resident)),
		),
	)
}

// composition is what the panel shows required to be made of: the
// seeds' retained and peak stage, or under ART's code its own parts.
func (p *decisionPanel) composition() composition {
	if p.Art {
		return composeArt(p.Outcome)
	}
	return composeRequired(p.Outcome, p.Safety)
}

// trainerNote is what a decision panel's subtitle adds under ART's code.
func trainerNote(art bool) string {
	if art {
		return "; priced by ART's code"
	}
	return ""
}

// planText says how the request runs, its rows with the sequences they
// make (estimator.FormatRows): "whole: 1 child of 64,902 rows (15.845
// sequences)", "2 children, the largest 33,706 rows (8.229 sequences)".
func planText(o estimator.Outcome, seqRows int64) string {
	rows := estimator.FormatRows(o.ChildRows, seqRows)
	switch o.Decision {
	case estimator.Admit:
		return "whole: 1 child of " + rows
	case estimator.Split:
		return estimator.Group(o.Children) + " children, the largest " + rows
	}
	return "0 children (the last rung tried: children of " + rows + ")"
}

// fact is one term of a list of facts, its value, and the value's class
// (a margin below zero is "negative").
type fact struct{ term, value, class string }

// facts is a <dl>'s body: a dt and a dd for each fact, no element around
// a pair (the list's grid lays them out in two columns; a wrapper of
// display: contents was an element each, 17 of them on the default page).
func facts(fs ...fact) []app.UI {
	ui := make([]app.UI, 0, 2*len(fs))
	for _, f := range fs {
		ui = append(ui, app.Dt().Text(f.term), app.Dd().Class(f.class).Text(f.value))
	}
	return ui
}

// pendingText is what a panel says before its first estimate.
func pendingText(why string) string {
	if why != "" {
		return why
	}
	return "Estimating…"
}

// placement is the GPU placement path's line (id placement-<Rev>): where
// the backward state and the outputs live, and why; nothing on the
// estimator path.
func (p *decisionPanel) placement() app.UI {
	line := ""
	if pl := p.Outcome.Placement; pl != nil {
		line = placementLine(pl)
	}
	return app.P().ID("placement-%s", p.Rev).Class("placement").Text(line)
}
