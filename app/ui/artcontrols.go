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

// artSwitches are the art profile's switches (estimator.ArtFields' bool
// fields), in the registry's order.
func artSwitches() []string {
	var keys []string
	for _, f := range estimator.ArtFields() {
		if f.Kind == estimator.BoolField && f.Key != gpuPathKey { // the path switch sits beside the Trainer menu
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
	for _, s := range page.ArtSliders {
		keys = append(keys, s.Key)
		if c.View.Errors[page.ErrorKey(s.Key)] != "" {
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
			c.sliders(page.ArtSliders...),
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
	"Under ART's code gdn_early_release changes nothing, and a term of your own joins one of ART's parts (its place), adding to it or replacing it. " +
	"ART's code here is the stored copies of docs/model.md §13.12 (_impl.py copy 70866802333, _memory.py copy 70906049816, " +
	"_memory_policy.py copy 71591661484), not ART's newest."
