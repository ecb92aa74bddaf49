package ui

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/chartview"
	"headroom/app/ui/mapview"
	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/app/ui/workload"
	"headroom/estimator"
)

// Render draws the page.
func (c *explorer) Render() (ui app.UI) {
	defer c.sink.CatchRender("drawing the page", &ui)
	s := &c.state
	sh := &c.shown
	shownAxis := "" // the axis of the chart on screen, which the sweep cache holds
	if in, ok := c.sweeps.Last(); ok && in.Axis != nil {
		shownAxis = in.Axis.Key
	}
	ready := "0"
	if (sh.ready || sh.blocked != "") && !c.prerendered {
		ready = "1"
	}
	stale := sh.ready && len(s.Errs) > 0 // what is typed is not what is shown
	// Before the first estimate the panels are titled from the state, not
	// from the zero config ("no change on" was shown with every change on).
	titled := sh.config
	if !sh.ready {
		titled = s.Cfg
	}
	names := setupNames(titled, c.list)
	panels := panelTexts(titled, names, &c.acting)
	art := page.RevisionArt(titled)
	pending, _, _ := strings.Cut(sh.blocked, ". ") // the panels say what to fix; the chart, each message
	if pending != "" {
		pending += "."
	}
	// live is "0" in the server's prerender, "1" once the browser mounted it.
	live := "0"
	if c.ctx != nil || c.inited { // inited: the browser's first drawing, mounted in this task
		live = "1"
	}
	// data-edits, data-query and data-live let a test tell when the page
	// has taken an edit and what address it is heading for.
	return app.Div().ID("explorer").Class("explorer").
		DataSet("ready", ready).DataSet("renders", c.renders).
		DataSet("render-ms", c.renderMsText()).
		DataSet("live", live).DataSet("edits", c.edits).DataSet("query", widget.Attr(c.addressText())).Body(
		&skipLink{Sink: c.sink},
		app.If(c.banner.Message != "",
			&errorBanner{Message: c.banner.Message, Details: c.banner.Details, Sink: c.sink}),
		app.Header().Class("top").Body(
			app.H1().Text("Headroom"),
			app.P().Class("tagline").Text("Admit, split or refuse: where a change to the memory estimate flips the trainer's decision."),
			&shareBar{Ready: sh.ready, Share: c.share, Sink: c.sink},
		),
		app.Div().Class("layout").Body(
			app.Section().ID("results").Class("results").Aria("label", "results").TabIndex(-1).Body(
				&viewTabs{Map: s.Map.On, Sink: c.sink},
				app.If(s.Map.On, &mapview.View{State: c.maps.View(&s.Map), Sink: c.sink, Exporter: c.maps.Export}).Else(
					&axisControls{Axis: s.Axis, From: s.Text(page.KeyFrom), To: s.Text(page.KeyTo), Sink: c.sink,
						Errors: pick(s.Errs, page.KeyAxis, page.KeyFrom, page.KeyTo)},
					app.If(s.WeightsDoNotFit() != "", &noFitPanel{View: residentViewOf(s), Sink: c.sink}).Else(
						&chartview.View{SVG: sh.svg, Error: sh.chartErr, Stale: stale, Empty: sh.blocked, Sink: c.sink,
							Caption: "Required bytes of the chosen plan along " + shownAxis + ", " + names.Base + " and " + names.Cand + ", against the bytes available; the stage and retained lines are the whole request's, before any split.",
							Summary: c.chartSummaryText(shownAxis), Hint: s.MarkerHint()},
					),
				),
				app.If(stale, app.P().ID("stale-note").Class("stale-note").Role("status").Text(staleText(s, sh.valid))),
			),
			app.Section().Class("verdicts", widget.ClassIf(stale, "stale")).Aria("label", "decisions").Body(
				app.Div().Class("decisions").Body(
					&decisionPanel{Rev: estimator.BaselineRev, Title: panels[0].title, Subtitle: panels[0].subtitle + trainerNote(art[0]) + termsNote(sh.config.Terms, 0), Art: art[0],
						Ready: sh.ready, Pending: pending, Outcome: sh.result.Baseline, Available: availableOf(sh.result, 0),
						Axis: shownAxis, Flips: sh.notes.Baseline, SeqRows: sh.config.Request.SequenceRows, Safety: baselineSafety(sh.config), Sink: c.sink},
					&decisionPanel{Rev: estimator.CandidateRev, Title: panels[1].title, Subtitle: panels[1].subtitle + trainerNote(art[1]) + termsNote(sh.config.Terms, 1), Art: art[1],
						Ready: sh.ready, Pending: pending, Outcome: sh.result.Candidate, Available: availableOf(sh.result, 1),
						Axis: shownAxis, Flips: sh.notes.Candidate, SeqRows: sh.config.Request.SequenceRows, Safety: sh.config.Budget.SafetyPercent, Sink: c.sink},
				),
				app.P().ID("change-summary").Class("change-summary").Text(capitalize(sh.notes.Change)),
				app.P().ID("split-note").Class("split-note").Text(splitNote),
				&observedPanel{View: observedViewOf(s, sh, shownAxis), Config: sh.config, Ready: sh.ready, Sink: c.sink},
			),
			app.Aside().Class("side").Aria("label", "inputs").Body(
				&importPanel{Share: c.share, Sink: c.sink},
				&controls{View: controlViewOf(s, c.list), Sink: c.sink},
				&changesPanel{View: changesViewOf(s), Sink: c.sink},
				&comparePanel{View: compareViewOf(s, c.list), Sink: c.sink},
			),
			app.Section().Class("table", widget.ClassIf(stale, "stale")).Aria("label", "breakdown").Body(
				app.P().ID("breakdown-scroll-cue").Class("scroll-cue").Aria("hidden", "true").Text("Swipe the table sideways for every column →"),
				// Focusable, so a keyboard can scroll the table sideways (axe's
				// scrollable-region-focusable).
				app.Div().Class("table-scroll").TabIndex(0).Role("region").Aria("label", "stages and tensors, scrolls sideways").Body(
					&breakdown{Ready: sh.ready, Baseline: sh.result.Baseline, Candidate: sh.result.Candidate, Terms: sh.config.Terms, Names: [2]string{names.Base, names.Cand}, Art: art, Sink: c.sink},
				),
			),
		),
		&workload.Panel{Config: sh.config, Ready: sh.ready, Sink: c.sink, Loads: c.loads},
	)
}

// addressText is address's query.
func (c *explorer) addressText() string {
	q, _ := c.address()
	return q
}

// renderMsText is the last render's compute time, for data-render-ms.
func (c *explorer) renderMsText() string { return strconv.FormatFloat(c.renderMs, 'f', 2, 64) }
