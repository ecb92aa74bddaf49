package ui

import (
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

// residentView is what the "On the GPU" group shows (docs/model.md
// §14.4): whether the memory already on the GPU is computed from the
// model, its parts, and what in_use_bytes is.
type residentView struct {
	On     bool
	Block  *estimator.ResidentResult // nil when off, or when the config cannot be priced
	NoFit  string                    // the weights do not fit: the estimator's message
	FitE   int64                     // the smallest expert parallelism at which they do, 0 for none
	FitW   estimator.Bytes           // the weights per GPU there
	Rank   string                    // the rank's placeholder: the family's default
	Target string                    // the targets' placeholder: the family's list
}

// residentViewOf builds the group's view from the state.
func residentViewOf(s *page.State) residentView {
	v := residentView{On: s.Cfg.Resident != nil}
	if !v.On {
		return v
	}
	if s.CfgOK {
		v.Block = s.Result.Resident
	}
	if msg := s.WeightsDoNotFit(); msg != "" {
		v.NoFit = msg
		v.FitE, v.FitW, _ = s.FitExpertParallel()
	}
	if b := v.Block; b != nil {
		v.Rank = "auto (" + estimator.Group(b.LoRA.Rank) + ")"
		if s.Cfg.Resident.LoRATargets == nil {
			v.Target = "auto: " + strings.Join(b.LoRA.Targets, ",")
		}
	} else {
		v.Rank = "auto"
		v.Target = "auto: the family's list"
	}
	return v
}

// gib is a byte count in GiB with three decimals.
func gib(b estimator.Bytes) string { return b.GiBString() }

// ResidentLine is the decision panels' sentence about what is resident:
// "22.825 GiB resident: weights 22.405, adapters and optimizer 0.420".
// With in_use_bytes given, it says so and shows the computed figure
// beside it.
func ResidentLine(r *estimator.ResidentResult) string {
	if r == nil {
		return ""
	}
	line := gib(r.ResidentBytes) + " GiB resident: weights " + gib(r.WeightsBytes) + ", adapters and optimizer " + gib(r.AdaptersBytes())
	if r.FrameworkReserveBytes > 0 {
		line += ", framework " + gib(r.FrameworkReserveBytes)
	}
	if r.Assumed != "" {
		line += " (" + r.Architecture + " counted by the generic formula, docs/model.md §14.2)"
	}
	if r.Source == estimator.KeyInUseBytes {
		return gib(r.InUseBytes) + " GiB in use as given (in_use_bytes wins); computed: " + line
	}
	return line
}

// NoResidentLine is what a decision panel says when the model's own
// memory is not computed: a config.json whose weights could not be
// counted imported with nothing on the GPU, and nothing said so.
const NoResidentLine = "The model's weights are not counted: only in_use_bytes stands for what is on the GPU (\"compute from the model\" under On the GPU counts them)."

// residentGroup is the controls' "On the GPU" group.
func (c *controls) residentGroup() app.UI {
	v := c.View.Resident
	body := []app.UI{
		&widget.Toggle{Key: page.KeyResident, Label: "compute from the model",
			Doc:  "weights, LoRA adapters, their gradients and optimizer state, on one GPU of the expert-parallel group:",
			Href: "/web/docs/model.txt", Link: "docs/model.md §14",
			Checked: v.On, Error: c.View.Errors[page.KeyResident], Errs: true, Sink: c.Sink},
	}
	if !v.On {
		return c.group("On the GPU", body...)
	}
	body = append(body,
		c.slider(page.SliderSpec{Key: estimator.KeyExpertParallel, Label: "expert parallelism E (GPUs)", Min: 1, Max: 64, Log: true}),
		c.slider(page.LoRARankSlider),
		&widget.TextField{Key: page.KeyLoRATargets, Label: "LoRA targets", Doc: "the adapted linears, comma-separated; empty: the family's list",
			Text: c.View.Texts[page.KeyLoRATargets], Placeholder: v.Target, Error: c.View.Errors[page.KeyLoRATargets], Sink: c.Sink},
		c.slider(page.ReserveSlider),
	)
	if b := v.Block; b != nil {
		l := b.LoRA
		body = append(body, app.Dl().ID("resident-facts").Class("facts", "resident-facts").Body(facts(
			fact{"architecture", b.Architecture + ", E = " + estimator.Group(b.ExpertParallel) + residentExperts(b), ""},
			fact{"weights", gib(b.WeightsBytes) + " GiB (experts " + gib(b.ExpertWeightsBytes) + ", the rest " + gib(b.NonExpertWeightsBytes) + ")", ""},
			fact{"adapters", estimator.Group(l.Params) + " parameters, " + gib(l.WeightsBytes) + " GiB", ""},
			fact{"their gradients", gib(l.GradBytes) + " GiB", ""},
			fact{"master copy", gib(l.MasterBytes) + " GiB", ""},
			fact{"optimizer moments", gib(l.OptimizerBytes) + " GiB", ""},
			fact{"framework reserve", gib(b.FrameworkReserveBytes) + " GiB", ""},
			fact{"resident", b.ResidentBytes.String(), ""},
			fact{"in use", inUseText(b), widget.ClassIf(b.Source == estimator.KeyInUseBytes, "typed")},
		)...))
	}
	if v.NoFit != "" {
		body = append(body, app.P().ID("resident-nofit").Class("control-error").Text(noFitText(v)))
	}
	return c.group("On the GPU", body...)
}

// residentExperts says how many experts one GPU holds.
func residentExperts(b *estimator.ResidentResult) string {
	if b.LocalExperts == 0 {
		return ""
	}
	return " (" + estimator.Group(b.LocalExperts) + " experts per GPU)"
}

// inUseText is what in_use_bytes is: the resident bytes, or the typed
// figure with the computed one beside it.
func inUseText(b *estimator.ResidentResult) string {
	if b.Source == estimator.KeyInUseBytes {
		return gib(b.InUseBytes) + " GiB as typed (computed: " + gib(b.ResidentBytes) + " GiB)"
	}
	return gib(b.InUseBytes) + " GiB: the resident bytes"
}

// noFitText says that the weights cannot fit, and the expert parallelism
// at which they would.
func noFitText(v residentView) string {
	msg := "The weights cannot fit: " + v.NoFit + "."
	if v.FitE > 0 {
		msg += " At expert parallelism " + estimator.Group(v.FitE) + " (the smallest that divides the experts and fits) they are " +
			gib(v.FitW) + " GiB per GPU."
	} else {
		msg += " No expert parallelism the experts allow makes them fit this GPU."
	}
	return msg
}

// noFitPanel takes the chart's place when the weights cannot fit: no
// request can run, so there is nothing to chart. Its button moves to the
// expert parallelism that fits.
type noFitPanel struct {
	app.Compo

	View residentView
	Sink *widget.Sink
}

// Render draws the panel.
func (p *noFitPanel) Render() (ui app.UI) {
	defer p.Sink.CatchRender("drawing the weights' message", &ui)
	return app.Div().ID("no-fit").Class("card", "no-fit").Role("alert").Body(
		app.H3().Text("No request can run: the weights do not fit"),
		app.P().ID("no-fit-text").Text(noFitText(p.View)),
		app.If(p.View.FitE > 0,
			app.Button().ID("no-fit-use").Class("button").Text("Use expert parallelism "+estimator.Group(p.View.FitE)).OnClick(p.onUse),
		),
	)
}

func (p *noFitPanel) onUse(ctx app.Context, e app.Event) {
	defer p.Sink.Catch("moving to the expert parallelism that fits")
	p.Sink.Send(ctx, page.Edit{Kind: page.EditText, Key: estimator.KeyExpertParallel, Text: estimator.Group(p.View.FitE), Settle: true})
}
