package ui

import (
	"strings"
	"testing"

	"headroom/app/report"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// TestDominatesSameAsTheCommandLine: for one config the page named the
// retained checkpoints (61.5 %) and the command line the fc2 stage; under
// ART's code "retained: the child's forward price" against "checkpoint".
// The decision panel's "What dominates" and estimate's text name the same
// part in the same words, with the seeds and under ART's code.
func TestDominatesSameAsTheCommandLine(t *testing.T) {
	for _, profile := range []string{"", estimator.ProfileArt} {
		s := page.New()
		s.Cfg.Profile = profile
		s.Validate()
		if !s.CfgOK {
			t.Fatalf("profile %q: %v", profile, s.Errs)
		}
		text := report.EstimateText(s.Cfg, s.Result)
		art := page.RevisionArt(s.Cfg)
		for i, o := range []estimator.Outcome{s.Result.Baseline, s.Result.Candidate} {
			var c composition
			if art[i] {
				c = composeArt(o)
			} else {
				c = composeRequired(o, s.Cfg.Budget.SafetyPercent)
			}
			if !strings.Contains(text, "  dominates "+c.largestText()+"\n") {
				t.Errorf("profile %q, revision %d: the page says %q, the command line:\n%s", profile, i, c.largestText(), text)
			}
		}
	}
}
