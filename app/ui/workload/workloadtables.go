package workload

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/chart"
	"headroom/app/report"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

// The Workload panel's tables: the transition table, the histogram's
// numbers and the changed lines.

// transitionTable is the transition table: baseline decisions as rows,
// the candidate's as columns, each cell requests and rows with their
// shares, coloured by the candidate's decision and marked where the
// decisions differ.
func transitionTable(res *estimator.ReplayResult) app.UI {
	var cells [3][3]estimator.Transition
	for _, t := range res.Transitions {
		cells[t.Baseline][t.Candidate] = t
	}
	head := []app.UI{app.Th().Scope("col").Text("baseline \\ candidate")}
	for d := estimator.Admit; d <= estimator.Refuse; d++ {
		head = append(head, app.Th().Scope("col").Class("is-"+d.String()).Text(d.String()))
	}
	rows := make([]app.UI, 0, 3)
	for b := estimator.Admit; b <= estimator.Refuse; b++ {
		tds := []app.UI{app.Th().Scope("row").Class("is-" + b.String()).Text(b.String())}
		for c := estimator.Admit; c <= estimator.Refuse; c++ {
			t := cells[b][c]
			td := app.Td().Class("cell-"+c.String(), widget.ClassIf(b != c, "differs"), widget.ClassIf(t.Requests == 0, "empty")).
				DataSet("baseline", b.String()).DataSet("candidate", c.String()).
				DataSet("requests", t.Requests).DataSet("rows", t.Rows)
			if t.Requests == 0 {
				tds = append(tds, td.Text("0"))
				continue
			}
			tds = append(tds, td.Body(
				app.Span().Class("cell-requests").Text(estimator.Group(t.Requests)+" ("+report.Percent(t.Requests, res.Requests)+")"),
				app.Span().Class("cell-rows").Text(estimator.Group(t.Rows)+" rows ("+report.Percent(t.Rows, res.Rows)+")"),
			))
		}
		rows = append(rows, app.Tr().Body(tds...))
	}
	return app.Div().Class("table-scroll").TabIndex(0).Role("region").Aria("label", "the replay's transitions, scrolls sideways").Body(
		app.Table().ID("workload-table").Class("workload-table").DataSet("requests", res.Requests).
			DataSet("lines", res.Lines).DataSet("rows", res.Rows).Body(
			app.Caption().Text(estimator.Group(res.Requests)+" requests ("+estimator.Group(res.Lines)+" lines, "+
				estimator.Group(res.Rows)+" rows), decided by the baseline (rows) and the candidate (columns)"),
			app.THead().Body(app.Tr().Body(head...)),
			app.TBody().Body(rows...),
		),
	)
}

// histogramTable lists the histogram's bins: the chart's numbers for a
// screen reader, and for anyone who wants them exactly.
func histogramTable(h chart.Histogram) app.UI {
	trs := make([]app.UI, 0, len(h.Requests))
	for i, n := range h.Requests {
		lo, hi := int64(i)*h.Width+1, int64(i+1)*h.Width
		trs = append(trs, app.Tr().DataSet("from", lo).DataSet("to", hi).DataSet("requests", n).Body(
			app.Td().Text(estimator.Group(lo)+" – "+estimator.Group(hi)),
			app.Td().Text(estimator.Group(n)),
		))
	}
	return app.Details().Class("workload-bins").Body(
		app.Summary().Text("The histogram's numbers"),
		app.Table().ID("workload-bins").Class("workload-table").Body(
			app.THead().Body(app.Tr().Body(app.Th().Scope("col").Text("rows"), app.Th().Scope("col").Text("requests"))),
			app.TBody().Body(trs...),
		),
	)
}

// changedTable lists the first ShownChangedLines changed lines, each with
// a button that loads its shape into the explorer.
func (p *Panel) changedTable(r *workloadResult) app.UI {
	res := &r.res
	if res.ChangedLines == 0 {
		return app.P().ID("workload-changed").Class("workload-note").Text("No line changes its decision or children.")
	}
	shown := res.Changed[:min(len(res.Changed), ShownChangedLines)]
	title := "The " + estimator.Group(int64(len(shown))) + " changed lines"
	if int64(len(shown)) < res.ChangedLines {
		title = "The first " + estimator.Group(int64(len(shown))) + " of " + estimator.Group(res.ChangedLines) + " changed lines"
	}
	trs := make([]app.UI, 0, len(shown))
	for _, l := range shown {
		trs = append(trs, app.Tr().DataSet("line", l.Line).Body(
			app.Td().Text(strconv.FormatInt(l.Line, 10)),
			app.Td().Class("workload-id").Text(l.ID),
			app.Td().Text(estimator.Group(l.Rows)),
			app.Td().Text(estimator.Group(l.Count)),
			app.Td().Class("cell-"+l.Baseline.String()).Text(report.DecisionText(l.Baseline, l.BaselineChildren)),
			app.Td().Class("cell-"+l.Candidate.String()).Text(report.DecisionText(l.Candidate, l.CandidateChildren)),
			app.Td().Body(app.Button().Type("button").Class("share-button", "workload-load").
				DataSet("line", l.Line).Title("Load this request's shape into the explorer").
				Text("Load").OnClick(p.onLoadLine)),
		))
	}
	return app.Div().Class("table-scroll").TabIndex(0).Role("region").Aria("label", "the lines whose decision changes, scrolls sideways").Body(
		app.Table().ID("workload-changed").Class("workload-table", "workload-lines").Body(
			app.Caption().Text(title+" (decision or children differ):"),
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("line"), app.Th().Scope("col").Text("id"), app.Th().Scope("col").Text("rows"),
				app.Th().Scope("col").Text("count"), app.Th().Scope("col").Text("baseline"),
				app.Th().Scope("col").Text("candidate"), app.Th().Scope("col").Text(""),
			)),
			app.TBody().Body(trs...),
		),
	)
}
