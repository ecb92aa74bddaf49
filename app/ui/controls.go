package ui

import (
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

// controlView is what the controls show: a snapshot the explorer builds
// fresh for every render (go-app compares it with the last one to decide
// whether to redraw, so it must not share maps with the explorer's state).
type controlView struct {
	Texts       map[string]string  // control key: the field's text
	Values      map[string]float64 // control key: the value, for the thumb
	Auto        map[string]string  // control key: placeholder of a field left to its default
	Errors      map[string]string  // error key: message
	Checks      map[string]bool    // switch key: on
	Preset      string             // the preset the model matches, "" when none
	Presets     []widget.Option
	GPU         string
	CapacityGiB float64           // the in-use slider's end
	Notes       map[string]string // control key: a line under the field (the in-use bytes in GiB)
	Resident    residentView
}

// changeSwitches are the spec's three changes, each with its seed text.
var changeSwitches = []struct{ key, label, doc string }{
	{"head_eager_workspace", "head_eager_workspace",
		"Vocabulary head: reserve 7D for eager statistics and 3D for no-grad logits copies (was 1D)."},
	{"fc2_known_storage", "fc2_known_storage",
		"MoE FC2: with known LoRA input metadata, also price the input and the combined output."},
	{"gdn_early_release", "gdn_early_release",
		"GDN LoRA projection: release qkv, z, beta and alpha before the output addition."},
}

// switchDocs are the docs of the two switches that stand for a number
// field (on = some top-k, on = expert parallelism), where the field's own
// doc would describe the number; every other switch is a bool field and
// shows the registry's doc.
var switchDocs = map[string]string{
	estimator.KeyExpertParallel: "expert parallelism: routes ceil(1.5 k) rows per token",
	"topk":                      "return top-k values and indices",
}

// switchDoc is the line under a switch.
func switchDoc(key string) string {
	if doc, ok := switchDocs[key]; ok {
		return doc
	}
	doc, _ := fieldDoc(key)
	return doc
}

// controls is the explorer's panel of inputs, in the groups of the spec.
type controls struct {
	app.Compo

	View controlView
	Sink *widget.Sink

	// opened is each fold's open state as the person left it, by its
	// summary; a fold not in it is at its default (fold). Not the page's
	// state: what a field holds is in page.State, so a fold closed and
	// opened again shows what was typed in it.
	opened map[string]bool
}

// Render draws the panel.
func (c *controls) Render() (ui app.UI) {
	defer c.Sink.CatchRender("drawing the controls", &ui)
	return app.Div().Class("controls").Body(
		c.group("Model",
			&widget.Menu{ID: page.KeyPreset, Label: "model preset", Options: c.presetOptions(), Selected: c.View.Preset,
				Error: c.View.Errors[page.KeyPreset], Sink: c.Sink},
			c.sliders(page.ModelSliders...),
			c.more("More model fields", page.ModelMore),
		),
		c.group("Request",
			c.sliders(page.RequestSliders...),
			c.switches("grad", "logprobs"),
			c.switches("topk"),
			c.sliders(page.TopKSlider),
			c.switches("logits", "hidden_states"),
		),
		c.group("MoE FC2",
			c.sliders(page.FC2Sliders...),
			c.switches("lora_metadata_known", estimator.KeyExpertParallel),
			c.more("More FC2 fields", c.fc2More()),
		),
		c.residentGroup(),
		c.group("Budget",
			&widget.Menu{ID: page.KeyGPU, Label: "GPU", Selected: c.View.GPU, Error: c.View.Errors[page.KeyGPU], Sink: c.Sink,
				Options: gpuOptions()},
			c.sliders(page.CapacitySlider),
			c.slider(page.SliderSpec{Key: page.KeyInUseGiB, Label: "in use (GiB)", Min: 0, Max: c.View.CapacityGiB}),
			c.more("More budget fields", page.BudgetMore),
		),
		c.group("ART's code", c.artGroup()),
	)
}

// fc2More is the folded FC2 fields: expert parallelism is in the "On
// the GPU" group while that is on.
func (c *controls) fc2More() []page.SliderSpec {
	if !c.View.Resident.On {
		return page.FC2More
	}
	var out []page.SliderSpec
	for _, sp := range page.FC2More {
		if sp.Key != estimator.KeyExpertParallel {
			out = append(out, sp)
		}
	}
	return out
}

// group is a fieldset of inputs in a <details>, open until folded, so on
// a phone a person can fold the groups they are done with.
func (c *controls) group(title string, body ...app.UI) app.UI {
	return c.fold(app.Details().Class("group-fold"), title, nil, true, false, func() []app.UI {
		return []app.UI{app.FieldSet().Class("group").Body(
			append([]app.UI{app.Legend().Text(title)}, body...)...,
		)}
	})
}

// more is a folded group of less used fields; open while one is in error.
func (c *controls) more(title string, specs []page.SliderSpec) app.UI {
	inError := false
	keys := make([]string, len(specs))
	for i, s := range specs {
		keys[i] = s.Key
		if c.View.Errors[page.ErrorKey(s.Key)] != "" {
			inError = true
		}
	}
	return c.fold(app.Details().Class("more"), title, keys, false, inError, func() []app.UI {
		return []app.UI{c.sliders(specs...)}
	})
}

// fold is d, a <details> summarised by title, whose body is drawn only
// while it is open: a closed group's fields are no nodes of the page
// (fewer nodes, a faster first load), and go-app mounts them when the
// person opens it (the toggle event), from the state, which kept whatever
// they held. Open by defaultOpen until the person toggles it, and always
// while forced (a field inside is in error, so its message shows). The
// summary stays, for the keyboard and screen readers. keys, the control
// keys of the fields inside, are its data-fields, by which a test opens
// the fold that holds a field it is about to use.
func (c *controls) fold(d app.HTMLDetails, title string, keys []string, defaultOpen, forced bool, body func() []app.UI) app.UI {
	if len(keys) > 0 {
		d = d.DataSet("fields", strings.Join(keys, " "))
	}
	open, set := c.opened[title]
	if !set {
		open = defaultOpen
	}
	open = open || forced
	d = d.OnToggle(c.onToggle(title))
	kids := []app.UI{app.Summary().Text(title)}
	if open {
		d = d.Open(true)
		kids = append(kids, body()...)
	}
	return d.Body(kids...)
}

// onToggle notes that the person opened or closed the fold titled title;
// go-app then draws the controls again, with or without its body.
func (c *controls) onToggle(title string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		open := ctx.JSSrc().Get("open").Bool()
		if c.opened == nil {
			c.opened = map[string]bool{}
		}
		c.opened[title] = open
	}
}

func (c *controls) presetOptions() []widget.Option {
	opts := c.View.Presets
	if c.View.Preset == "" {
		opts = append([]widget.Option{{Value: "", Label: "custom", Disabled: true}}, opts...)
	}
	return opts
}

func (c *controls) sliders(specs ...page.SliderSpec) app.UI {
	elems := make([]app.UI, len(specs))
	for i, s := range specs {
		elems[i] = c.slider(s)
	}
	return app.Div().Class("sliders").Body(elems...)
}

func (c *controls) slider(s page.SliderSpec) app.UI {
	step := 1.0
	decimal := s.Key == page.KeyInUseGiB
	if decimal {
		step = 0.25
	}
	if s.Key == estimator.KeyCapacityBytes {
		step = page.BytesPerGiB
	}
	if s.Step > 0 {
		step = s.Step
	}
	doc := ""
	if f, ok := fieldDoc(s.Key); ok {
		doc = f
	}
	return &widget.Slider{
		Key: s.Key, ErrKey: page.ErrorKey(s.Key), Label: s.Label, Doc: doc,
		Min: s.Min, Max: s.Max, Step: step, Log: s.Log, Pow2: s.Pow2, Decimal: decimal,
		Value: c.View.Values[s.Key], Text: c.View.Texts[s.Key], Placeholder: c.View.Auto[s.Key],
		ValueText: valueText(s.Key, c.View.Texts[s.Key], c.View.Auto[s.Key]),
		Error:     c.View.Errors[page.ErrorKey(s.Key)], Sink: c.Sink, Note: c.View.Notes[s.Key],
	}
}

func (c *controls) switches(keys ...string) app.UI {
	elems := make([]app.UI, len(keys))
	for i, k := range keys {
		elems[i] = &widget.Toggle{Key: k, Label: k, Doc: switchDoc(k), Checked: c.View.Checks[k],
			Error: c.View.Errors[k], Errs: isBoolField(k), Sink: c.Sink}
	}
	return app.Div().Class("switches").Body(elems...)
}

// isBoolField reports whether key is a switch of its own (not a number
// field behind a switch, as top-k is).
func isBoolField(key string) bool {
	f, ok := estimator.FieldByKey(key)
	return ok && f.Kind == estimator.BoolField
}

// gpuOptions lists the GPU menu's entries.
func gpuOptions() []widget.Option {
	gpus := estimator.GPUs()
	opts := make([]widget.Option, len(gpus))
	for i, g := range gpus {
		opts[i] = widget.Option{Value: g.ID, Label: g.Label()}
	}
	return opts
}
