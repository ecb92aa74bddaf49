package ui

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

// changesPanel is the candidate's changes (id changes-panel): the three
// switches of the seeds (ids check-<key>) and the terms of the user's
// own (page/termsstate.go), each a termRow, with "add a term" (id term-add)
// and the panel's message (id error-terms).
type changesPanel struct {
	app.Compo

	View changesView
	Sink *widget.Sink
}

// changesView is what the panel shows, built fresh for every render.
type changesView struct {
	Checks map[string]bool   // the three switches
	Errors map[string]string // their messages (a link's bad value)
	Terms  []termRowView
	Vars   []string // "n = 64,902: the piece's rows", while a help is open
	Error  string   // the panel's message (too many terms)
	// Trainer is the Trainer menu's value ("seeds", "art", or a link's
	// bad value), TrainerError its message.
	Trainer, TrainerError string
	// AsTerms are the switches on under ART's code, which "write as
	// terms" (ids as-terms-<key>) turns into their terms.
	AsTerms []string
	// GPUPath is ART's GPU placement path switch (artgpu.go).
	GPUPath bool
}

// termRowView is one term's fields, message and value.
type termRowView struct {
	Name, Place, Revision, Bytes, Mode string
	Art                                bool // ART's code prices a revision: its places and modes
	Error                              string
	Help                               bool   // the help is open
	Value                              string // with Help: its value in the current config, or why there is none
	Note                               string // why it changes nothing at this point (termNote); "" when it may
}

// termNote says when a term changes nothing at the current point: it
// adds to a built-in stage that, with it, is still below the piece's peak
// stage in every revision that holds it, so no decision moves (a term in
// head beside an fc2 peak). "" when the term may act, or the config is
// not priced.
func termNote(t estimator.Term, s *page.State) string {
	if !s.CfgOK {
		return ""
	}
	builtIn := false
	for _, p := range []string{"activations", "head", "fc2", "gdn"} {
		builtIn = builtIn || t.Place == p
	}
	if !builtIn {
		return ""
	}
	var outs []estimator.Outcome
	switch t.Revision {
	case "baseline":
		outs = []estimator.Outcome{s.Result.Baseline}
	case "both":
		outs = []estimator.Outcome{s.Result.Baseline, s.Result.Candidate}
	default:
		outs = []estimator.Outcome{s.Result.Candidate}
	}
	peak := ""
	for _, o := range outs {
		if o.DominantStage == t.Place || o.DominantStage == "" {
			return ""
		}
		peak = o.DominantStage
	}
	return "Changes nothing at this point: " + t.Place + ", with this term, stays below the peak stage (" + peak + "), and only the peak counts."
}

// changesView builds the panel's snapshot.
func changesViewOf(s *page.State) changesView {
	v := changesView{Checks: map[string]bool{}, Errors: map[string]string{}, Error: s.Errs[page.KeyTerms],
		Trainer: page.ProfileName(s.Cfg), TrainerError: s.Errs[page.KeyProfile]}
	if t, ok := s.Texts[page.KeyProfile]; ok { // a link's value the page could not take stays shown
		v.Trainer = t
	}
	for _, sw := range changeSwitches {
		if m := s.Errs[sw.key]; m != "" {
			v.Errors[sw.key] = m
		}
	}
	v.Checks["head_eager_workspace"] = s.Cfg.Changes.HeadEagerWorkspace
	v.Checks["fc2_known_storage"] = s.Cfg.Changes.FC2KnownStorage
	v.Checks["gdn_early_release"] = s.Cfg.Changes.GDNEarlyRelease
	v.GPUPath = s.Cfg.Art.GPUPlacement != nil && *s.Cfg.Art.GPUPlacement
	if m := s.Errs[gpuPathKey]; m != "" {
		v.Errors[gpuPathKey] = m
	}
	arts := page.RevisionArt(s.Cfg)
	art := arts[0] || arts[1]
	if arts[1] {
		for _, sw := range changeSwitches {
			if v.Checks[sw.key] {
				v.AsTerms = append(v.AsTerms, sw.key)
			}
		}
	}
	help := false
	for i, d := range s.Terms {
		v.Terms = append(v.Terms, termRowView{Name: d.Typed.Name, Place: d.Typed.Place, Revision: d.Typed.Revision,
			Bytes: d.Typed.Bytes, Mode: d.Typed.Mode, Art: art, Error: s.Errs[page.TermKey(i)], Help: d.Help})
		if v.Terms[i].Error == "" && !art {
			v.Terms[i].Note = termNote(d.Typed, s)
		}
		help = help || d.Help
	}
	if !help { // the values are computed only for an open help: a drag renders every frame
		return v
	}
	vals, verr := estimator.TermVariableValues(s.Cfg)
	names, docOf := estimator.TermVariables(), estimator.TermVariableDoc
	if arts[1] {
		names, docOf = estimator.ArtTermVariables(), estimator.ArtTermVariableDoc
	}
	for _, name := range names {
		doc := docOf(name)
		if verr == nil {
			v.Vars = append(v.Vars, name+" = "+estimator.Group(vals[name])+": "+doc)
		} else {
			v.Vars = append(v.Vars, name+": "+doc)
		}
	}
	for i, d := range s.Terms {
		row := &v.Terms[i]
		if !d.Help {
			continue
		}
		if verr != nil {
			row.Value = "no value while the config is invalid: " + verr.Error()
		} else if b, err := estimator.EvalTermBytes(s.Cfg, d.Typed.Bytes, vals["N"]); err != nil {
			row.Value = "no value: " + page.MessageOf(err)
		} else {
			row.Value = d.Typed.Bytes + " = " + estimator.Bytes(b).String() + " for the whole request (n = " +
				estimator.Group(vals["N"]) + "), before rounding to the allocator's blocks"
		}
	}
	return v
}

// Render draws the panel.
func (p *changesPanel) Render() (ui app.UI) {
	defer p.Sink.CatchRender("drawing the changes", &ui)
	switches := make([]app.UI, len(changeSwitches))
	for i, s := range changeSwitches {
		switches[i] = &widget.Toggle{Key: s.key, Label: s.label, Doc: s.doc, Checked: p.View.Checks[s.key],
			Error: p.View.Errors[s.key], Errs: isBoolField(s.key),
			Href: "/web/seeds/" + s.key + ".txt", Link: "seed text", Sink: p.Sink}
	}
	rows := make([]app.UI, len(p.View.Terms))
	for i, t := range p.View.Terms {
		rows[i] = &termRow{Index: i, View: t, Vars: p.View.Vars, Sink: p.Sink}
	}
	full := len(p.View.Terms) >= estimator.MaxTerms
	add := app.Button().ID("term-add").Type("button").Class("share-button").Text("Add a term").OnClick(p.onAdd)
	if widget.BoolAttr(full) {
		add = add.Disabled(full)
	}
	return app.FieldSet().ID("changes-panel").Class("group", "changes-panel").Body(
		app.Legend().Text("Changes (the candidate)"),
		&widget.Menu{ID: page.KeyProfile, Label: "Trainer", Selected: p.View.Trainer, Options: p.trainerOptions(),
			Error: p.View.TrainerError, Sink: p.Sink},
		app.P().Class("toggle-doc").Text(trainerDoc),
		&widget.Toggle{Key: gpuPathKey, Label: "ART on the GPU (placement path)", Doc: gpuPathDoc, Checked: p.View.GPUPath,
			Error: p.View.Errors[gpuPathKey], Errs: true, Sink: p.Sink},
		app.Div().Class("switches").Body(switches...),
		app.If(len(p.View.AsTerms) > 0, p.asTerms()),
		app.H4().Class("terms-title").Text("Terms of your own"),
		app.P().Class("toggle-doc").Text("A tensor your change adds or removes: its bytes in one piece as an expression "+
			"over the variables (? lists them), where it lives and which revision holds it. At most "+
			strconv.Itoa(estimator.MaxTerms)+"."),
		app.Div().ID("terms").Class("terms").Body(rows...),
		add,
		widget.SomeText(app.Span().ID("error-terms").Class("control-error").Aria("live", "polite"), p.View.Error),
	)
}

// trainerOptions are the Trainer's entries, with a link's bad value
// shown (disabled) beside its message.
func (p *changesPanel) trainerOptions() []widget.Option {
	opts := trainerOptions()
	if p.View.Trainer != estimator.ProfileSeeds && p.View.Trainer != estimator.ProfileArt {
		opts = append([]widget.Option{{Value: p.View.Trainer, Label: p.View.Trainer, Disabled: true}}, opts...)
	}
	return opts
}

// asTerms are the "write as terms" buttons of the switches that are on
// under ART's code: each turns its switch into terms that price the same.
func (p *changesPanel) asTerms() app.UI {
	buttons := []app.UI{app.Span().Class("toggle-doc").Text("Write as terms (ART's code prices them as the switch does):")}
	for _, key := range p.View.AsTerms {
		key := key
		buttons = append(buttons, app.Button().ID("as-terms-%s", key).Type("button").Class("term-button").Text(key).
			Aria("label", "write "+key+" as terms").OnClick(func(ctx app.Context, e app.Event) {
			defer p.Sink.Catch("writing a switch as terms")
			p.Sink.Send(ctx, page.Edit{For: page.ForTerms, Kind: page.EditSwitchTerms, Key: key, Settle: true})
		}))
	}
	return app.Div().ID("as-terms").Class("as-terms").Body(buttons...)
}

func (p *changesPanel) onAdd(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("adding a term")
	p.Sink.Send(ctx, page.Edit{For: page.ForTerms, Kind: page.EditTermAdd})
}
