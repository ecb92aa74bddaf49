package ui

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/browser"
	"headroom/app/ui/page"
	"headroom/app/ui/widget"
)

// importPanel reads a Hugging Face config.json, a config in the spec's
// format or one of Headroom's own JSON exports: pasted (id import-text,
// then id import-button), picked (id import-file) or dropped anywhere on
// the page. The report (id import-report) lists the fields it recognised
// and the keys it ignored, or says why nothing changed.
type importPanel struct {
	app.Compo

	Share *shareSink
	Sink  *widget.Sink

	text    string // the textarea's text, as typed or pasted
	source  string // where the last import came from
	report  page.ImportReport
	done    bool // an import ran: the report is to be shown
	release func()
}

// OnMount makes the page a drop target.
func (p *importPanel) OnMount(ctx app.Context) {
	defer p.Sink.Catch("watching for dropped files")
	p.release = browser.WatchDrops(ctx, p.onDropFile, p.onDropText)
}

// OnDismount stops watching for drops.
func (p *importPanel) OnDismount() {
	if p.release != nil {
		p.release()
		p.release = nil
	}
}

// Render draws the panel.
func (p *importPanel) Render() (ui app.UI) {
	defer p.Sink.CatchRender("drawing the import panel", &ui)
	return app.FieldSet().Class("group", "import-panel").Body(
		app.Legend().Text("Import"),
		app.Label().For("import-text").Class("import-label").
			Text("Paste a Hugging Face config.json, a config or a Headroom export"),
		app.Textarea().ID("import-text").Class("import-text").Rows(3).Spellcheck(false).
			Placeholder("%s", widget.Attr(`{"vocab_size": 151936, "hidden_size": 2048, …}`)).
			OnInput(p.onInput),
		app.Div().Class("import-actions").Body(
			app.Button().ID("import-button").Type("button").Class("share-button", "primary").
				Text("Import").OnClick(p.onImportText),
			app.Label().For("import-file").Class("share-button", "file-pick").Text("Choose a file…"),
			app.Input().ID("import-file").Class("visually-hidden").Type("file").
				Accept(".json,application/json").OnChange(p.onPick),
			app.Span().Class("import-hint").Text("or drop one on the page"),
		),
		p.renderReport(),
	)
}

// renderReport is the report of the last import, or an empty live region.
func (p *importPanel) renderReport() app.UI {
	r := p.report
	box := app.Div().ID("import-report").Role("status").Aria("live", "polite")
	switch {
	case !p.done:
		return box.Class("import-report")
	case r.Err != "":
		return box.Class("import-report", "failed").Body(
			app.P().Class("import-error").Text("Nothing was imported from " + p.source + ": " + r.Err + ". The page is as it was."),
		)
	}
	return box.Class("import-report", "ok").Body(
		app.P().Class("import-summary").Text("From "+p.source+": "+r.Summary),
		keyList("import-recognised", "Recognised", r.Recognised),
		keyList("import-derived", "Set without a key", r.Derived),
		keyList("import-notes", "Notes", r.Notes),
		keyList("import-ignored", "Ignored", r.Ignored),
	)
}

// keyList is a titled list of the report; nothing when it is empty.
func keyList(id, title string, items []string) app.UI {
	if len(items) == 0 {
		return nil
	}
	lis := make([]app.UI, len(items))
	for i, s := range items {
		lis[i] = app.Li().Text(s)
	}
	return app.Div().ID(id).Class("import-list").Body(
		app.H4().Text(title+" ("+strconv.Itoa(len(items))+")"),
		app.Ul().Body(lis...),
	)
}

func (p *importPanel) onInput(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("reading the pasted text")
	p.text = ctx.JSSrc().Get("value").String()
}

func (p *importPanel) onImportText(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("importing the pasted text")
	if strings.TrimSpace(p.text) == "" {
		p.show("the text box", page.ImportReport{Err: "the text box is empty; paste a config.json into it first"})
		return
	}
	p.load("the pasted text", []byte(p.text))
}

func (p *importPanel) onPick(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("importing the chosen file")
	input := ctx.JSSrc()
	file, ok := browser.FileOf(input)
	if !ok {
		return
	}
	p.readAndLoad(ctx, file)
	browser.ClearFileInput(input) // picking the same file again is a change
}

func (p *importPanel) onDropFile(ctx app.Context, file app.Value) {
	defer p.Sink.Catch("importing the dropped file")
	p.readAndLoad(ctx, file)
}

func (p *importPanel) onDropText(ctx app.Context, text string) {
	defer p.Sink.Catch("importing the dropped text")
	p.load("the dropped text", []byte(text))
}

// readAndLoad reads a file and imports it.
func (p *importPanel) readAndLoad(ctx app.Context, file app.Value) {
	name := "the file"
	if n := file.Get("name"); n != nil && n.Truthy() {
		name = n.String()
	}
	browser.ReadFile(ctx, file, func(ctx app.Context, data []byte, err error) {
		defer p.Sink.Catch("importing " + name)
		if err != nil {
			p.show(name, page.ImportReport{Err: "it could not be read: " + err.Error()})
			return
		}
		p.load(name, data)
	})
}

// load hands the data to the explorer and shows what it made of it.
func (p *importPanel) load(source string, data []byte) {
	p.show(source, p.Share.load(data))
}

func (p *importPanel) show(source string, r page.ImportReport) {
	p.source, p.report, p.done = source, r, true
}
