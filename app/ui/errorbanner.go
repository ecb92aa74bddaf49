package ui

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
)

// errorBanner (id error-banner) says that something failed and the page
// kept going; "copy details" (id copy-details) puts the details on the
// clipboard for a bug report.
type errorBanner struct {
	app.Compo

	Message string
	Details string
	Sink    *widget.Sink
}

// Render draws the banner.
func (b *errorBanner) Render() (ui app.UI) {
	defer b.Sink.CatchRender("drawing the error banner", &ui)
	return app.Div().ID("error-banner").Class("error-banner").Role("alert").Body(
		app.P().Class("error-message").Text(b.Message),
		app.Details().Body(
			app.Summary().Text("details"),
			app.Pre().ID("error-details").Text(b.Details),
		),
		app.Div().Class("error-actions").Body(
			app.Button().ID("copy-details").Type("button").Text("copy details").OnClick(b.onCopy),
			app.Button().ID("dismiss-error").Type("button").Text("dismiss").OnClick(b.onDismiss),
		),
	)
}

func (b *errorBanner) onCopy(ctx app.Context, e app.Event) {
	defer b.Sink.Catch("copying the error details")
	copyText(b.Details)
}

func (b *errorBanner) onDismiss(ctx app.Context, e app.Event) {
	defer b.Sink.Catch("closing the error banner")
	b.Sink.Send(ctx, page.Edit{Kind: page.EditDismiss})
}
