package measured

// How the panel draws two runs: the second run's file input, and each
// device's peaks, start, live-block groups, largest changes and windows.

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/widget"
)

// renderPickB is the second run's file input, once a snapshot is shown.
// It stays while its file is read: the read's callbacks are dispatched
// through the input's context, which a dismounted input would drop.
func (p *Panel) renderPickB() app.UI {
	if p.snap == nil {
		return nil
	}
	label := "Compare with another run…"
	if p.snapB != nil {
		label = "Compare with a different run…"
	}
	return app.Div().Class("import-actions").Body(
		app.Label().For("measured-file-b").Class("share-button", "file-pick").Text(label),
		app.Input().ID("measured-file-b").Class("visually-hidden").Type("file").
			Accept(".pickle,.pkl,.json,.gz,application/json,application/octet-stream").OnChange(p.onPickB),
		app.Span().Class("import-hint").Text("a second snapshot (run B), read as the first (run A) was, set beside it device by device: "+
			"the peaks, the blocks live at each peak by top frame, and the windows by label."),
	)
}

// renderRuns is the comparison of the two runs (measured-runs).
func (p *Panel) renderRuns() app.UI {
	v := p.runs
	if v == nil || p.snap == nil {
		return nil
	}
	out := []app.UI{
		app.H4().Text("Two runs: A " + v.FileA + ", B " + v.FileB),
	}
	preds := v.predictionsFor(p.snap, p.snapB, p.Config, p.Ready)
	for i, d := range v.Devices {
		out = append(out, renderRunsDevice(strconv.Itoa(i), d, preds[i]))
	}
	return app.Div().ID("measured-runs").Class("measured-runs").Body(out...)
}

func renderRunsDevice(id string, d runsDevice, pred predictions) app.UI {
	peaks := make([]app.UI, 0, len(d.Peaks)+len(pred.Rows))
	for _, r := range append(append([]runsRow(nil), d.Peaks...), pred.Rows...) {
		peaks = append(peaks, app.Tr().DataSet("row", r.Key).DataSet("a-bytes", r.ABytes).DataSet("b-bytes", r.BBytes).DataSet("delta-bytes", r.DeltaBytes).Body(
			app.Th().Scope("row").Text(r.Name), widget.NumCell(r.A), widget.NumCell(r.B), widget.NumCell(r.Delta),
		))
	}
	groups := make([]app.UI, 0, len(d.Groups))
	for _, g := range d.Groups {
		groups = append(groups, app.Tr().DataSet("group", g.Key).DataSet("count", g.Count).Body(
			app.Th().Scope("row").Text(g.Name), widget.NumCell(countOf(g.Count)), widget.NumCell(g.Bytes),
		))
	}
	body := []app.UI{
		app.H4().Text(deviceName(d.Device) + ", A beside B"),
		table("measured-runs-peaks-"+id, "the two runs' peaks",
			"Each run's peaks and B − A; beside them, each revision's prediction for the piece its plan runs",
			[]string{"peak", "A", "B", "B − A"}, peaks),
		predNote(id, pred),
		app.P().ID("measured-runs-start-"+id).Class("workload-note").DataSet("equal", d.Start.Equal).Text(d.Start.Text),
		table("measured-runs-groups-"+id, "the blocks live at each peak",
			"The blocks live at each peak, matched by top frame and size: blocks, and bytes (B − A for grown and shrunk)",
			[]string{"change", "blocks", "bytes"}, groups),
	}
	if len(d.Changes) > 0 {
		rows := make([]app.UI, 0, len(d.Changes))
		for _, c := range d.Changes {
			rows = append(rows, app.Tr().Body(
				app.Td().Text(c.Group), app.Td().Class("measured-frame").Text(c.Frame), widget.NumCell(c.A), widget.NumCell(c.B),
			))
		}
		body = append(body, table("measured-runs-changes-"+id, "the largest changes",
			"The largest changes, at most "+strconv.Itoa(changesShown)+" of each kind, by top frame, in bytes",
			[]string{"change", "allocated at", "A", "B"}, rows))
	}
	if len(d.Windows) > 0 {
		rows := make([]app.UI, 0, len(d.Windows))
		for _, w := range d.Windows {
			rows = append(rows, app.Tr().Body(
				app.Th().Scope("row").Text(w.Label), widget.NumCell(w.A), widget.NumCell(w.B), widget.NumCell(w.Delta),
			))
		}
		body = append(body, table("measured-runs-windows-"+id, "the windows matched by label",
			"The windows (between snapshot or annotate markers) matched by label: each run's peak in the window and B − A",
			[]string{"window", "A peak", "B peak", "B − A"}, rows))
	}
	return app.Div().Class("measured-device").Body(body...)
}

// predNote says why no prediction is beside the runs, when none is.
func predNote(id string, pred predictions) app.UI {
	if pred.Note == "" {
		return nil
	}
	return app.P().ID("measured-runs-predicted-" + id).Class("workload-note").Text(pred.Note)
}

// table is a scrolling table with a caption and column heads.
func table(id, label, caption string, heads []string, rows []app.UI) app.UI {
	th := make([]app.UI, len(heads))
	for i, h := range heads {
		th[i] = app.Th().Scope("col").Text(h)
	}
	return app.Div().Class("table-scroll").TabIndex(0).Role("region").Aria("label", label).Body(app.Table().ID(id).Class("obs-table").Body(
		app.Caption().Text(caption),
		app.THead().Body(app.Tr().Body(th...)),
		app.TBody().Body(rows...),
	))
}
