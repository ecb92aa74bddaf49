package report

import (
	"strings"
	"testing"

	"headroom/estimator"
)

// TestMarkdownCostAndIgnored: the report lists the ignored columns
// (only -format json did), says what a hold costs (the extra forwards
// and the rows that run split), and names only the switches that act on
// the model.
func TestMarkdownCostAndIgnored(t *testing.T) {
	t.Parallel()
	cfg := estimator.Default()
	cfg.Model.LinearNumKeyHeads = 0 // no GDN layers
	cfg.Request.Rows = 200000
	cfg.Budget.InUseBytes = 68451041280
	csv := "id,rows,count,tenant,note\na,50000,10,t1,x\nb,240000,1,t3,y\nc,400000,1,t3,z\n"
	res, err := estimator.Replay(cfg, strings.NewReader(csv), nil)
	if err != nil {
		t.Fatal(err)
	}
	md := Markdown(res, cfg)
	for _, want := range []string{
		"Ignored columns (read as neither a field nor id): tenant, note.",
		CostSentence(res),
		"rows that run split: " + estimator.Group(res.BaselineSplitRows),
		"### Replay of the candidate (`head_eager_workspace` and `fc2_known_storage`; `gdn_early_release` is on but changes nothing for this model)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q:\n%s", want, md)
		}
	}
	if est := EstimateMarkdown(cfg, mustEstimate(t, cfg)); !strings.Contains(est, "`gdn_early_release` is on but changes nothing") {
		t.Errorf("the estimate's report credits gdn_early_release:\n%s", est)
	}
}

func TestCostSentence(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		f    int64
		want string
	}{{0, "as many forwards as"}, {1, "1 more forward than"}, {12, "12 more forwards than"}, {-3, "3 fewer forwards than"}} {
		got := CostSentence(estimator.ReplayResult{ExtraForwards: c.f, Rows: 10, CandidateSplitRows: 5})
		if !strings.Contains(got, c.want) || !strings.Contains(got, "5 (50.0 %) under the candidate") {
			t.Errorf("%d extra forwards: %q", c.f, got)
		}
	}
}

func mustEstimate(t *testing.T, cfg estimator.Config) estimator.Result {
	t.Helper()
	res, err := estimator.Estimate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
