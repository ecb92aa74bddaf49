package ui

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

// The fields ART's code reads (docs/model.md §13.3): the Trainer menu
// (in the Changes panel) says whether they count; the seeds' reading
// accepts and ignores them. They sit in one folded group, each with its
// meaning from the registry's Doc.

// artSliders are the art profile's number fields, and the model widths
// only it (and resident memory) reads, unless another group shows them.
var artSliders = func() []sliderSpec {
	specs := []sliderSpec{
		{key: "shared_expert_intermediate_size", label: "shared_expert_intermediate_size", min: 0, max: 65536, log: true},
		{key: "intermediate_size", label: "intermediate_size (dense MLP)", min: 0, max: 65536, log: true},
		{key: "linear_conv_kernel_dim", label: "linear_conv_kernel_dim", min: 1, max: 1024, log: true},
		{key: "padded_vocab_multiple", label: "padded_vocab_multiple", min: 1, max: 65536, log: true},
		{key: "adapter_gradient_bytes_per_layer", label: "adapter_gradient_bytes_per_layer", min: 0, max: 1 << 40, log: true},
		{key: "adapter_gradient_outside_bytes", label: "adapter_gradient_outside_bytes", min: 0, max: 1 << 40, log: true},
		{key: "gdn_out_proj_lora_rank", label: "gdn_out_proj_lora_rank", min: 0, max: 65536, log: true},
	}
	shown := map[string]bool{}
	for _, g := range [][]sliderSpec{modelSliders, modelMore, requestSliders, fc2Sliders, fc2More, budgetMore} {
		for _, s := range g {
			shown[s.key] = true
		}
	}
	out := specs[:0]
	for _, s := range specs {
		if !shown[s.key] {
			out = append(out, s)
		}
	}
	return out
}()

// artSwitches are the art profile's switches (estimator.ArtFields' bool
// fields), in the registry's order.
func artSwitches() []string {
	var keys []string
	for _, f := range estimator.ArtFields() {
		if f.Kind == estimator.BoolField {
			keys = append(keys, f.Key)
		}
	}
	return keys
}

// artGroup is the folded group of ART's fields (id art-more), open while
// one of them is in error.
func (c *controls) artGroup() app.UI {
	inError := false
	var keys []string
	for _, s := range artSliders {
		keys = append(keys, s.key)
		if c.View.Errors[page.ErrorKey(s.key)] != "" {
			inError = true
		}
	}
	for _, k := range artSwitches() {
		keys = append(keys, k)
		if c.View.Errors[k] != "" {
			inError = true
		}
	}
	return c.fold(app.Details().ID("art-more").Class("more"), "More fields of ART's code", keys, false, inError, func() []app.UI {
		return []app.UI{
			app.P().Class("toggle-doc").Text("Read only when the Trainer (in Changes) is ART's code; the seeds' reading ignores them."),
			c.sliders(artSliders...),
			c.switches(artSwitches()...),
		}
	})
}

// trainerOptions are the Trainer menu's entries.
func trainerOptions() []widget.Option {
	return []widget.Option{
		{Value: estimator.ProfileSeeds, Label: page.ProfileSeedsLabel},
		{Value: estimator.ProfileArt, Label: page.ProfileArtLabel},
	}
}

// trainerDoc is the line under the Trainer menu.
const trainerDoc = "Whose arithmetic prices the request: the seeds' reading of ART's admission, " +
	"or ART's own code (docs/model.md §13: the largest of its alternatives, cold splits, its refusals). " +
	"Under ART's code gdn_early_release changes nothing, and terms of your own are refused."
