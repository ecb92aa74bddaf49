package report

import (
	"strings"
	"testing"

	"headroom/estimator"
)

// TestReplaySentence: the sentence names each transition that changes, the
// children that change, and says when none would be refused.
func TestReplaySentence(t *testing.T) {
	t.Parallel()
	tr := func(b, c estimator.Decision, req, rows int64) estimator.Transition {
		return estimator.Transition{Baseline: b, Candidate: c, Requests: req, Rows: rows}
	}
	A, S, R := estimator.Admit, estimator.Split, estimator.Refuse
	for _, tc := range []struct {
		name string
		res  estimator.ReplayResult
		want string
	}{
		{"the issue's example", estimator.ReplayResult{Requests: 12648, Rows: 1000,
			Transitions: []estimator.Transition{tr(A, A, 12431, 938), tr(A, S, 217, 62)}, ChangedRequests: 217, ChangedRows: 62},
			"217 of 12,648 requests (1.7 %, 6.2 % of rows) that the baseline admits whole would split under the candidate; none would be refused."},
		{"nothing changes", estimator.ReplayResult{Requests: 5, Rows: 50, Transitions: []estimator.Transition{tr(A, A, 5, 50)}},
			"No request changes: both revisions decide all 5 requests alike, with the same number of children."},
		{"refusals and children", estimator.ReplayResult{Requests: 100, Rows: 1000,
			Transitions:     []estimator.Transition{tr(A, S, 10, 100), tr(S, S, 80, 800), tr(S, R, 1, 10), tr(R, R, 9, 90)},
			ChangedRequests: 11, ChildrenChangedRequests: 4, ChildrenChangedRows: 40},
			"10 of 100 requests (10.0 %, 10.0 % of rows) that the baseline admits whole would split under the candidate; 1 request (1.0 %, 1.0 % of rows) that the baseline splits would be refused under the candidate; 4 requests (4.0 %, 4.0 % of rows) that both split would split into a different number of children."},
		{"the candidate admits more", estimator.ReplayResult{Requests: 3000, Rows: 3000,
			Transitions: []estimator.Transition{tr(R, A, 1, 1), tr(R, R, 2999, 2999)}, ChangedRequests: 1},
			"1 of 3,000 requests (<0.1 %, <0.1 % of rows) that the baseline refuses would be admitted whole under the candidate; none would be refused."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Sentence(tc.res); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestMarkdownNamesTheBaseline: the report says what the baseline is, the
// three changes off by default, else the baseline of the config's own:
// its switches and what it overrides, a capacity with its GPU.
func TestMarkdownNamesTheBaseline(t *testing.T) {
	t.Parallel()
	res := estimator.ReplayResult{Requests: 2, Lines: 1, Rows: 20,
		Transitions: []estimator.Transition{{Baseline: estimator.Admit, Candidate: estimator.Admit, Requests: 2, Rows: 20}}}
	h100, err := estimator.GPUByID("h100")
	if err != nil {
		t.Fatal(err)
	}
	own := estimator.Default()
	own.Baseline = &estimator.Baseline{
		Changes: estimator.Changes{FC2KnownStorage: true},
		Overrides: estimator.Overrides{
			"budget.capacity_bytes": {Int: h100.CapacityBytes},
			"request.grad":          {Bool: false},
			"fc2.output_width":      {Default: true},
		},
	}
	custom := estimator.Default()
	custom.Baseline = &estimator.Baseline{Overrides: estimator.Overrides{"budget.capacity_bytes": {Int: 1 << 36}}}
	for _, tc := range []struct {
		name string
		cfg  estimator.Config
		want string
	}{
		{"default", estimator.Default(), "decided by the baseline (all changes off) and the candidate:"},
		{"its own, a switch on, an H100", own, "decided by the baseline (its own: `fc2_known_storage` on; budget.capacity_bytes " +
			estimator.Group(h100.CapacityBytes) + " (H100 80GB); fc2.output_width auto; request.grad off) and the candidate:"},
		{"its own, no switch, a custom capacity", custom,
			"decided by the baseline (its own: no changes on; budget.capacity_bytes 68,719,476,736) and the candidate:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := estimator.Estimate(tc.cfg); err != nil {
				t.Fatalf("the config is not valid: %v", err)
			}
			md := Markdown(res, tc.cfg)
			if !strings.Contains(md, tc.want) {
				t.Errorf("got\n%s\nwant a line with %s", md, tc.want)
			}
			if tc.cfg.Baseline != nil && strings.Contains(md, "all changes off") {
				t.Errorf("a baseline of its own called all changes off:\n%s", md)
			}
			if !strings.HasPrefix(md, "### Replay of the candidate (`head_eager_workspace`, `fc2_known_storage` and `gdn_early_release`): none of 2 requests change") {
				t.Errorf("title: %s", md[:strings.IndexByte(md, '\n')])
			}
		})
	}
}
