package report

import (
	"strings"
	"testing"

	"headroom/estimator"
)

// TestInertSwitchBlamesTheProfile: on Qwen3-Next (which has GDN layers)
// under ART's code, gdn_early_release changes nothing because ART's code
// has no form of it, yet the report said it "changes nothing for this
// model". It says "under ART's code"; a switch the model gives nothing to
// act on still says "for this model".
func TestInertSwitchBlamesTheProfile(t *testing.T) {
	cfg := estimator.Default() // Qwen3-Next-80B-A3B: GDN layers
	cfg.Changes = estimator.Changes{GDNEarlyRelease: true, FC2KnownStorage: true}
	cfg.Profile = estimator.ProfileArt
	_, inert := estimator.ActingChanges(cfg)
	if len(inert) == 0 {
		t.Fatal("under ART's code no switch is inert: the test needs one")
	}
	got := CandidateChanges(cfg)
	if !strings.Contains(got, "`gdn_early_release` is on but changes nothing under ART's code") || strings.Contains(got, "for this model") {
		t.Errorf("CandidateChanges under ART's code: %q", got)
	}
	// A model without GDN layers, with the seeds: the model is why.
	cfg = estimator.Default()
	cfg.Model.LinearNumKeyHeads = 0
	cfg.Changes = estimator.Changes{GDNEarlyRelease: true}
	if got := CandidateChanges(cfg); !strings.Contains(got, "`gdn_early_release` is on but changes nothing for this model") {
		t.Errorf("CandidateChanges without GDN layers: %q", got)
	}
}
