package ui

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/browser"
	"headroom/app/ui/widget"
)

// shareBar puts what the page shows into a pull-request comment: "copy
// link" (id copy-link) copies the URL of the state and confirms it (id
// copy-status); the export buttons (ids export-svg, export-png,
// export-csv, export-json) download the chart, the sweep behind it or the
// config with its estimate, in files named after the preset and axis.
type shareBar struct {
	app.Compo

	Ready bool // the chart is drawn: there is something to export
	Share *shareSink
	Sink  *widget.Sink

	copyStatus   string
	copyFailed   bool
	link         string // shown, selected, when the clipboard refused it
	exportStatus string
	exportFailed bool
	copyGen      int // a status clears itself only if no newer one replaced it
	exportGen    int
}

// statusMs is how long a confirmation stays.
const statusMs = 6000

// Render draws the bar.
func (b *shareBar) Render() (ui app.UI) {
	defer b.Sink.CatchRender("drawing the share bar", &ui)
	buttons := []app.UI{app.Span().Class("share-label").Text("Export")}
	for _, f := range exportFormats {
		btn := app.Button().ID("export-"+f).Type("button").Class("share-button").
			DataSet("format", f).Title("Download " + exportSummary(f)).
			Text(exportLabel(f)).OnClick(b.onExport)
		if widget.BoolAttr(!b.Ready) { // the server writes disabled="false" as disabled
			btn = btn.Disabled(!b.Ready)
		}
		buttons = append(buttons, btn)
	}
	return app.Div().Class("share-bar").Role("toolbar").Aria("label", "share and export").Body(
		app.Div().Class("share-row").Body(
			app.Button().ID("copy-link").Type("button").Class("share-button", "primary").
				Title("Copy the URL of this state: it opens the page as you see it").
				Text("Copy link").OnClick(b.onCopy),
			app.Div().Class("share-exports").Body(buttons...),
		),
		app.Div().Class("share-statuses").Body(
			widget.SomeText(app.P().ID("copy-status").Class("share-status", widget.ClassIf(b.copyFailed, "failed")).
				Role("status").Aria("live", "polite"), b.copyStatus),
			widget.SomeText(app.P().ID("export-status").Class("share-status", widget.ClassIf(b.exportFailed, "failed")).
				Role("status").Aria("live", "polite"), b.exportStatus),
		),
		app.If(b.link != "", app.Input().ID("share-link").Class("share-link").Type("text").ReadOnly(true).
			Aria("label", "the link to copy").Value(widget.Attr(b.link))),
	)
}

// exportLabel is an export button's text.
func exportLabel(format string) string {
	switch format {
	case "svg":
		return "SVG"
	case "png":
		return "PNG"
	case "csv":
		return "CSV"
	case "json":
		return "JSON"
	}
	return format
}

func (b *shareBar) onCopy(ctx app.Context, e app.Event) {
	defer b.Sink.Catch("copying the link")
	link := b.Share.link()
	b.copyGen++
	b.link, b.copyFailed, b.copyStatus = "", false, "Copying the link…"
	browser.WriteClipboard(ctx, link, func(ctx app.Context, err error) {
		defer b.Sink.Catch("copying the link")
		if err != nil {
			b.link, b.copyFailed = link, true
			b.copyStatus = "The browser did not let the page copy (" + err.Error() + "): the link is selected below; press Ctrl+C to copy it."
			ctx.Defer(func(app.Context) { browser.SelectText("share-link") })
			return
		}
		b.copyStatus = "Link copied: it opens the page as you see it."
		b.clearLater(ctx, &b.copyGen, func() { b.copyStatus = "" })
	})
}

func (b *shareBar) onExport(ctx app.Context, e app.Event) {
	defer b.Sink.Catch("exporting")
	format := ctx.JSSrc().Get("dataset").Get("format").String()
	b.exportGen++
	f, err := b.Share.export(format)
	if err != nil {
		b.exportFailed, b.exportStatus = true, "Could not export "+exportSummary(format)+": "+err.Error()
		return
	}
	b.exportFailed, b.exportStatus = false, "Saving "+f.Name+"…"
	browser.SaveFile(ctx, f, func(ctx app.Context, err error) {
		defer b.Sink.Catch("exporting")
		if err != nil {
			b.exportFailed, b.exportStatus = true, "Could not save "+f.Name+": "+err.Error()
			return
		}
		b.exportStatus = "Saved " + f.Name + ": " + exportSummary(format) + "."
		b.clearLater(ctx, &b.exportGen, func() { b.exportStatus = "" })
	})
}

// clearLater runs clear after statusMs, unless another status of the
// same kind (counted by *gen) came since.
func (b *shareBar) clearLater(ctx app.Context, gen *int, clear func()) {
	want := *gen
	browser.LaterOnUI(ctx, statusMs, func(app.Context) {
		if *gen == want {
			clear()
		}
	})
}
