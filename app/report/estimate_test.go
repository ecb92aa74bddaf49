package report

import (
	"strings"
	"testing"

	"headroom/estimator"
)

// estimateOf is the estimate of the default config with fields changed.
func estimateOf(t *testing.T, change func(*estimator.Config)) (estimator.Config, estimator.Result) {
	t.Helper()
	cfg := estimator.Default()
	change(&cfg)
	res, err := estimator.Estimate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, res
}

// TestEstimateReportsSplit: the case where the baseline admits and
// the candidate splits into 2 (220,000 rows of 8,192, 63.75 GiB in use):
// both reports give the decisions, each revision's required and margin
// in bytes and GiB, say that the plans differ, what a split means, and
// the candidate's differences with their signs.
func TestEstimateReportsSplit(t *testing.T) {
	t.Parallel()
	cfg, res := estimateOf(t, func(c *estimator.Config) {
		c.Request.Rows, c.Request.SequenceRows, c.Budget.InUseBytes = 220000, 8192, 68451041280
	})
	if res.Baseline.Decision != estimator.Admit || res.Candidate.Decision != estimator.Split || res.Candidate.Children != 2 {
		t.Fatalf("baseline %v, candidate %v x %d: not the issue's case", res.Baseline.Decision, res.Candidate.Decision, res.Candidate.Children)
	}
	text, md := EstimateText(cfg, res), EstimateMarkdown(cfg, res)
	for _, want := range []string{
		"split into 2",
		res.Baseline.RequiredBytes.String(), res.Candidate.RequiredBytes.String(),
		res.Baseline.MarginBytes.String(), res.Candidate.MarginBytes.String(),
		estimator.Diff(res.Baseline.RequiredBytes, res.Candidate.RequiredBytes).DeltaString(),
		"2 children of " + estimator.Group(res.Candidate.ChildRows) + " rows",
		"The plans differ", splitNote, res.Candidate.DominantStage,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(text, "The candidate decides split into 2 where the baseline decides admit.") {
		t.Errorf("text does not say where the decisions differ:\n%s", text)
	}
	if !strings.Contains(md, "| required | "+res.Baseline.RequiredBytes.String()+" | "+res.Candidate.RequiredBytes.String()+" | -") {
		t.Errorf("markdown's required row:\n%s", md)
	}
}

// TestEstimateReportsSame: with every change off the candidate is the
// baseline: the text says so and lists no difference; no split note.
func TestEstimateReportsSame(t *testing.T) {
	t.Parallel()
	cfg, res := estimateOf(t, func(c *estimator.Config) { c.Changes = estimator.Changes{} })
	text := EstimateText(cfg, res)
	if !strings.Contains(text, "Both decide admit, on the same plan.") || !strings.Contains(text, "It needs the same bytes as the baseline.") {
		t.Errorf("text:\n%s", text)
	}
	if strings.Contains(text, "bytes (+") || strings.Contains(text, splitNote) || strings.Contains(text, "The plans differ") {
		t.Errorf("text shows a difference:\n%s", text)
	}
	rows, same := EstimateRows(res, [2]bool{})
	if !same {
		t.Error("same plan reported as different")
	}
	for _, r := range rows {
		if r.Difference != "" {
			t.Errorf("row %q has a difference %q", r.Name, r.Difference)
		}
	}
}
