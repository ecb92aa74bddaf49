package ui

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

// termRow is one term (id term-<i>): name (term-name-<i>), place and
// revision menus (term-place-<i>, term-revision-<i>; under ART's code also
// the mode, term-mode-<i>), bytes
// (term-bytes-<i>), help (term-help-<i>, which opens term-helpbox-<i>
// with the value, term-value-<i>, and the variables, term-vars-<i>),
// remove (term-remove-<i>) and the message (error-term-<i>).
type termRow struct {
	app.Compo

	Index int
	View  termRowView
	Vars  []string
	Sink  *widget.Sink
}

// Render draws the row.
func (r *termRow) Render() (ui app.UI) {
	defer r.Sink.CatchRender("drawing a term", &ui)
	i, v := r.Index, r.View
	id := func(what string) string { return "term-" + what + "-" + strconv.Itoa(i) }
	bad := v.Error != ""
	rev := v.Revision
	if rev == "" {
		rev = "candidate"
	}
	// Under ART's code a term joins one of ART's parts, and may replace
	// it (docs/model.md §13.13).
	places, mode := estimator.TermPlaces, v.Mode
	if v.Art {
		places = estimator.ArtTermPlaces
	}
	if mode == "" {
		mode = "add"
	}
	row := app.Div().ID("term-%d", i).Class("term", widget.ClassIf(bad, "has-error")).Body(
		app.Div().Class("term-fields").Body(
			app.Input().Type("text").ID("%s", id("name")).Class("term-name").Value(widget.Attr(v.Name)).
				AutoComplete(false).Spellcheck(false).Aria("label", "term name").
				Aria("describedby", "error-"+page.TermKey(i)).OnInput(r.onPart("name")),
			r.menu(id("place"), "place", places, v.Place),
			r.menu(id("revision"), "revision", estimator.TermRevisions, rev),
			app.If(v.Art || v.Mode != "", r.menu(id("mode"), "mode", estimator.TermModes, mode)),
		),
		app.Div().Class("term-fields").Body(
			app.Input().Type("text").ID("%s", id("bytes")).Class("term-bytes").Value(widget.Attr(v.Bytes)).
				AutoComplete(false).Spellcheck(false).Placeholder("2 * D").Aria("label", "bytes (an expression)").
				Aria("invalid", bad).Aria("describedby", "error-"+page.TermKey(i)).OnInput(r.onPart("bytes")),
			app.Button().ID("%s", id("help")).Type("button").Class("term-button").Text("?").
				Aria("label", "variables and this term's value").Aria("expanded", r.View.Help).OnClick(r.onHelp),
			app.Button().ID("%s", id("remove")).Type("button").Class("term-button").Text("Remove").
				Aria("label", widget.Attr("remove term "+v.Name)).OnClick(r.onRemove),
		),
		widget.SomeText(app.Span().ID("error-%s", page.TermKey(i)).Class("control-error").Aria("live", "polite"), v.Error),
		app.If(r.View.Help, r.help(id)),
	)
	return row
}

// help is the popover: the term's value and the variables' values.
func (r *termRow) help(id func(string) string) app.UI {
	items := make([]app.UI, len(r.Vars))
	for k, s := range r.Vars {
		items[k] = app.Li().Text(s)
	}
	return app.Div().ID("%s", id("helpbox")).Class("term-help").Role("note").Body(
		app.P().ID("%s", id("value")).Class("term-value").Text(r.View.Value),
		app.P().Class("toggle-doc").Text("+ - * / (rounds down), parentheses, ceil(a, b), min(a, b, ...), max(a, b, ...), integers (1_000 is fine). The variables in the current config:"),
		app.Ul().ID("%s", id("vars")).Class("term-vars").Body(items...),
	)
}

func (r *termRow) menu(id, label string, options []string, selected string) app.UI {
	opts := make([]app.UI, len(options))
	found := false
	for k, o := range options {
		opt := app.Option().Value(o).Text(o)
		if sel := o == selected; widget.BoolAttr(sel) {
			opt = opt.Selected(sel)
			found = found || sel
		}
		opts[k] = opt
	}
	if !found { // a link's unknown value stays shown beside its message
		opts = append(opts, app.Option().Value(widget.Attr(selected)).Text(selected).Selected(true))
	}
	part := label
	return app.Select().ID("%s", id).Class("term-menu").Aria("label", label).OnChange(r.onPart(part)).Body(opts...)
}

func (r *termRow) onPart(part string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		defer r.Sink.Catch("editing a term's " + part)
		r.Sink.Send(ctx, page.TermEdit(part, r.Index, ctx.JSSrc().Get("value").String()))
	}
}

func (r *termRow) onHelp(ctx app.Context, e app.Event) {
	defer r.Sink.Catch("opening a term's help")
	r.Sink.Send(ctx, page.Edit{For: page.ForTerms, Kind: page.EditTermHelp, Key: strconv.Itoa(r.Index)})
}

func (r *termRow) onRemove(ctx app.Context, e app.Event) {
	defer r.Sink.Catch("removing a term")
	r.Sink.Send(ctx, page.Edit{For: page.ForTerms, Kind: page.EditTermRemove, Key: strconv.Itoa(r.Index)})
}
