//go:build !wasm

package e2e

// ART's GPU placement path in a real browser (docs/model.md §15): a link
// with the path on shows, under the candidate's decision, where the
// backward state and the outputs live; the switch sits beside the Trainer
// menu; "ART's estimator path against its GPU path" is one pick in the
// comparisons menu.

import (
	"strings"
	"testing"

	"headroom/estimator"
)

func TestE2EArtGPUPath(t *testing.T) {
	// 300,000 rows: the estimator path refuses them, the GPU path splits
	// them with the backward state on the host.
	cfg := estimator.Default()
	cfg.Request.Rows = 300000
	cfg.Profile = estimator.ProfileArt
	gpu := cfg
	on := true
	gpu.Art.GPUPlacement = &on
	res, err := estimator.Estimate(gpu)
	if err != nil {
		t.Fatal(err)
	}
	if res.Candidate.Placement == nil || res.Candidate.Placement.BackwardState != "cpu" {
		t.Fatalf("fixture: the GPU path places %+v", res.Candidate.Placement)
	}

	tb := newTab(t)
	tb.open(query(gpu))
	tb.waitDecisions(expectedDecisions(t, gpu))
	if !eval[bool](tb, `document.getElementById('check-gpu_placement')?.checked === true`) {
		t.Errorf("the path switch is not on for a link with gpu_placement=true")
	}
	if !eval[bool](tb, `!!document.querySelector('#changes-panel #check-gpu_placement')`) {
		t.Errorf("the path switch is not in the Changes panel beside the Trainer menu")
	}
	tb.waitText("placement-candidate", "the backward state is offloaded to the host")

	n := tb.renders()
	tb.pick("compare-preset", "art-estimator-gpu")
	tb.waitRenders(n)
	cmp := gpu
	cmp.Baseline = &estimator.Baseline{Changes: gpu.Changes, Overrides: estimator.Overrides{"art.gpu_placement": {Bool: false}}}
	tb.waitDecisions(expectedDecisions(t, cmp))
	if got := eval[string](tb, `document.getElementById('placement-baseline')?.textContent ?? ''`); strings.TrimSpace(got) != "" {
		t.Errorf("the baseline (the estimator path) has a placement line: %q", got)
	}
	tb.waitText("placement-candidate", "offloaded")
}
