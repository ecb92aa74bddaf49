package ui

import (
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

// compareView is what the Compare control shows: a snapshot built fresh
// for every render, sharing no map with the state.
type compareView struct {
	Setup       bool // "baseline = another setup"
	Comparisons []widget.Option
	GPU         string // the baseline's GPU menu: "same" or a GPU's ID
	GPUs        []widget.Option
	Preset      string // the baseline's model menu: "same", a preset's ID, or "" (a model of its own)
	Presets     []widget.Option
	Rows        []overrideRow
	Add         []widget.Option
	Changes     map[string]bool // the baseline's switches
	Trainer     string          // the baseline's trainer menu: "same", "seeds", "art" or a link's bad value
	Trainers    []widget.Option
	Errors      map[string]string
}

// overrideRow is one field of the form: what the baseline says, with the
// candidate's value beside it.
type overrideRow struct {
	Control   string // "b.sequence_rows", "b.in_use_gib"
	ErrKey    string // "b.in_use_bytes"
	Label     string
	Text      string // the override as typed or set; "" follows the candidate
	Candidate string // the candidate's value, as shown beside it
	Bool      bool   // a switch rather than a field
	Checked   bool
	Removable bool // an added field (the fixed ones are emptied instead)
	Error     string
}

// id is the row's element id: "b-sequence_rows" (no dot: a CSS selector
// reads "#b.x" as a class).
func (r overrideRow) id() string { return strings.ReplaceAll(r.Control, ".", "-") }

// compareView builds the Compare control's snapshot.
func compareViewOf(s *page.State, list []page.Preset) compareView {
	v := compareView{Setup: s.Cfg.Baseline != nil, Errors: map[string]string{}, Changes: map[string]bool{}}
	for k, m := range s.Errs {
		if k == page.KeyCompare || k == page.KeyComparePreset || strings.HasPrefix(k, page.BaselineKeyPrefix) {
			v.Errors[k] = m
		}
	}
	candPreset := presetName(list, s.Cfg)
	if candPreset == "" {
		candPreset = "this model"
	}
	v.Comparisons = []widget.Option{
		{Value: "", Label: "start from a comparison…", Disabled: true},
		{Value: page.ComparisonGPU, Label: "H100 80GB against H200, same model"},
		{Value: page.ComparisonSequence, Label: "sequence 4,096 against 8,192"},
		{Value: page.ComparisonProfile, Label: "the seeds' reading against ART's code, same setup"},
		{Value: page.ComparisonGPUPath, Label: "ART's estimator path against its GPU path, same setup"},
	}
	for _, p := range list {
		if !p.Matches(s.Cfg) {
			v.Comparisons = append(v.Comparisons, widget.Option{Value: page.ComparisonModel + p.ID,
				Label: p.Name + " against " + candPreset + ", one GPU"})
		}
	}
	if !v.Setup {
		return v
	}
	b := s.Cfg.Baseline
	bc, err := s.Cfg.BaselineConfig()
	if err != nil {
		bc = s.Cfg
	}
	v.Trainer = page.BaselineProfileName(s.Cfg)
	if v.Trainer == "" {
		v.Trainer = page.SameAsCandidate
	}
	candTrainer := page.ProfileSeedsLabel
	if page.ProfileName(s.Cfg) == estimator.ProfileArt {
		candTrainer = page.ProfileArtLabel
	}
	v.Trainers = append([]widget.Option{{Value: page.SameAsCandidate, Label: "as the candidate (" + candTrainer + ")"}}, trainerOptions()...)
	if t, ok := s.Texts[page.KeyBaseProfile]; ok {
		v.Trainer = t
		v.Trainers = append([]widget.Option{{Value: t, Label: t, Disabled: true}}, v.Trainers...)
	}
	ch := bc.Changes
	for _, f := range estimator.Fields() {
		if strings.HasPrefix(f.Path, "changes.") {
			var tmp estimator.Config
			tmp.Changes = ch
			v.Changes[f.Key] = f.Bool(&tmp)
		}
	}
	// GPU
	v.GPU = page.SameAsCandidate
	v.GPUs = []widget.Option{{Value: page.SameAsCandidate, Label: "as the candidate (" + gpuName(s.Cfg.Budget.CapacityBytes) + ")"}}
	for _, g := range estimator.GPUs() {
		v.GPUs = append(v.GPUs, widget.Option{Value: g.ID, Label: g.Label()})
	}
	customCapacity := false
	if o, ok := b.Overrides["budget.capacity_bytes"]; ok {
		v.GPU = estimator.GPUForCapacity(o.Int).ID
		if _, typed := s.Texts[page.BaselineKeyPrefix+estimator.KeyCapacityBytes]; typed {
			v.GPU = estimator.CustomGPU // being typed: the field stays open
		}
		customCapacity = v.GPU == estimator.CustomGPU
	}
	// Model
	ownModel := false
	for _, f := range page.PresetFields() {
		if _, ok := b.Overrides[f.Path]; ok {
			ownModel = true
		}
	}
	v.Preset = page.SameAsCandidate
	v.Presets = []widget.Option{{Value: page.SameAsCandidate, Label: "as the candidate (" + candPreset + ")"}}
	for _, p := range list {
		v.Presets = append(v.Presets, widget.Option{Value: p.ID, Label: p.Name})
	}
	if ownModel {
		v.Preset = page.MatchModel(list, bc)
		if v.Preset == "" {
			v.Presets = append([]widget.Option{{Value: "", Label: "a model of its own", Disabled: true}}, v.Presets...)
		}
	}
	// Fields: sequence_rows and in use always; any other that is
	// overridden, typed into, or in error, unless a menu above shows it.
	shown := map[string]bool{}
	add := func(f *estimator.Field, fixed bool) {
		shown[f.Key] = true
		control := page.BaselineKeyPrefix + f.Key
		label := f.Key
		if f.Key == estimator.KeyInUseBytes {
			control, label = page.BaselineKeyPrefix+page.KeyInUseGiB, "in use (GiB)"
		}
		r := overrideRow{Control: control, ErrKey: page.ErrorKey(control), Label: label, Text: s.Text(control),
			Candidate: candidateText(f, s), Removable: !fixed}
		r.Error = s.Errs[r.ErrKey]
		if f.Kind == estimator.BoolField {
			r.Bool, r.Checked = true, r.Text == "true"
		}
		v.Rows = append(v.Rows, r)
	}
	for _, key := range []string{"sequence_rows", estimator.KeyInUseBytes} {
		f, _ := estimator.FieldByKey(key)
		add(f, true)
	}
	isPresetField := map[string]bool{}
	for _, f := range page.PresetFields() {
		isPresetField[f.Key] = true
	}
	for _, f := range page.OverridableFields() {
		if shown[f.Key] {
			continue
		}
		control := page.BaselineKeyPrefix + f.Key
		_, over := b.Overrides[f.Path]
		_, typed := s.Texts[control]
		_, bad := s.Errs[control]
		hidden := (isPresetField[f.Key] && v.Preset != "") || (f.Key == estimator.KeyCapacityBytes && !customCapacity)
		if bad || typed || (over && !hidden) {
			add(f, false)
		}
	}
	v.Add = []widget.Option{{Value: "", Label: "override another field…", Disabled: true}}
	for _, f := range page.OverridableFields() {
		if !shown[f.Key] {
			v.Add = append(v.Add, widget.Option{Value: f.Key, Label: f.Key})
		}
	}
	return v
}

// candidateText is the candidate's value of a field, as the form shows it
// beside the baseline's.
func candidateText(f *estimator.Field, s *page.State) string {
	c := s.Cfg
	switch {
	case f.Key == estimator.KeyInUseBytes:
		return page.GiBText(c.Budget.InUseBytes) + " GiB"
	case f.Kind == estimator.BoolField:
		return map[bool]string{true: "on", false: "off"}[f.Bool(&c)]
	}
	if v, set := f.Int(&c); set {
		return estimator.Group(v)
	}
	if r, err := s.Resolved(); err == nil {
		if v, ok := page.ResolvedValue(r, f.Key); ok {
			return "auto (" + estimator.Group(v) + ")"
		}
	}
	return "auto"
}

// comparePanel is the Compare control (id compare-panel; its menu is id compare), under the changes:
// what the baseline is, the three changes off or another setup, and for
// another setup a compact form of what differs, each field with the
// candidate's value beside it.
type comparePanel struct {
	app.Compo

	View compareView
	Sink *widget.Sink
}

// Render draws the control.
func (p *comparePanel) Render() (ui app.UI) {
	defer p.Sink.CatchRender("drawing the compare control", &ui)
	v := p.View
	mode := page.CompareChangesOff
	if v.Setup {
		mode = page.CompareSetup
	}
	body := []app.UI{
		app.Legend().Text("Compare"),
		&widget.Menu{ID: page.KeyCompare, Label: "baseline =", Selected: mode, Error: v.Errors[page.KeyCompare], For: page.ForCompare, Sink: p.Sink,
			Options: []widget.Option{{Value: page.CompareChangesOff, Label: "the three changes off"}, {Value: page.CompareSetup, Label: "another setup"}}},
		&widget.Menu{ID: page.KeyComparePreset, Label: "comparisons", Selected: "", Error: v.Errors[page.KeyComparePreset], For: page.ForCompare, Sink: p.Sink,
			Options: v.Comparisons},
	}
	if v.Setup {
		body = append(body, app.Div().ID("compare-form").Class("compare-form").Body(
			&widget.Menu{ID: page.KeyBaseGPU, Label: "baseline GPU", Selected: v.GPU, Options: v.GPUs, Error: v.Errors[page.KeyBaseGPU], For: page.ForCompare, Sink: p.Sink},
			&widget.Menu{ID: page.KeyBaseProfile, Label: "baseline trainer", Selected: v.Trainer, Options: v.Trainers, Error: v.Errors[page.KeyBaseProfile], For: page.ForCompare, Sink: p.Sink},
			&widget.Menu{ID: page.KeyBasePreset, Label: "baseline model", Selected: v.Preset, Options: v.Presets, Error: v.Errors[page.KeyBasePreset], For: page.ForCompare, Sink: p.Sink},
			app.Range(v.Rows).Slice(func(i int) app.UI { return p.row(v.Rows[i]) }),
			&widget.Menu{ID: page.KeyBaseAdd, Label: "add a field", Selected: "", Options: v.Add, Error: v.Errors[page.KeyBaseAdd], For: page.ForCompare, Sink: p.Sink},
			app.P().Class("compare-switches-label").Text("The baseline's switches:"),
			app.Div().Class("switches").Body(
				app.Range(changeSwitches).Slice(func(i int) app.UI {
					s := changeSwitches[i]
					return &widget.Toggle{Key: page.BaselineKeyPrefix + s.key, Label: s.label, Checked: v.Changes[s.key], For: page.ForCompare, Sink: p.Sink}
				}),
			),
			widget.SomeText(app.Span().ID("error-b-changes").Class("control-error").Aria("live", "polite"), v.Errors[page.KeyBaseChanges]),
		))
	}
	return app.FieldSet().ID("compare-panel").Class("group", "compare").Body(body...)
}

// row draws one field of the form.
func (p *comparePanel) row(r overrideRow) app.UI {
	var input app.UI
	if r.Bool {
		box := app.Input().Type("checkbox").ID("%s", r.id()).OnChange(p.onCheck(r.Control))
		if widget.BoolAttr(r.Checked) {
			box = box.Checked(r.Checked)
		}
		input = box
	} else {
		input = app.Input().Type("text").ID("%s", r.id()).Class("number").
			AutoComplete(false).Spellcheck(false).
			Placeholder("as the candidate").Value(widget.Attr(r.Text)).
			Aria("invalid", r.Error != "").
			Aria("describedby", "error-"+strings.ReplaceAll(r.ErrKey, ".", "-")).
			OnInput(p.onType(r.Control))
	}
	return app.Div().Class("control", "override", widget.ClassIf(r.Error != "", "has-error")).Body(
		app.Label().For("%s", r.id()).Class("control-label").Body(
			app.Span().Class("control-name").Text(r.Label),
			widget.SomeText(app.Span().Class("control-doc"), "candidate: "+r.Candidate),
		),
		app.Div().Class("control-row").Body(
			input,
			app.If(r.Removable,
				app.Button().Type("button").Class("remove").Aria("label", "stop overriding "+r.Label).
					Text("×").OnClick(p.onRemove(r.Control)),
			),
		),
		widget.SomeText(app.Span().ID("error-%s", strings.ReplaceAll(r.ErrKey, ".", "-")).Class("control-error").Aria("live", "polite"), r.Error),
	)
}

func (p *comparePanel) onType(control string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		defer p.Sink.Catch("typing into " + control)
		p.Sink.Send(ctx, page.Edit{For: page.ForCompare, Kind: page.EditText, Key: control, Text: ctx.JSSrc().Get("value").String()})
	}
}

func (p *comparePanel) onCheck(control string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		defer p.Sink.Catch("switching " + control)
		p.Sink.Send(ctx, page.Edit{For: page.ForCompare, Kind: page.EditCheck, Key: control, On: ctx.JSSrc().Get("checked").Bool()})
	}
}

func (p *comparePanel) onRemove(control string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		defer p.Sink.Catch("removing " + control)
		p.Sink.Send(ctx, page.Edit{For: page.ForCompare, Kind: page.EditMenu, Key: page.KeyBaseRemove, Text: control})
	}
}
