package report

import (
	"testing"

	"headroom/estimator"
)

// TestReplaySentence: the sentence names each transition that changes, the
// children that change, and says when none would be refused.
func TestReplaySentence(t *testing.T) {
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

// TestMarkdownCell: an id cannot break the changed-lines table.
func TestMarkdownCell(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "req-00007", "req-00007"},
		{"pipe", "a|b", `a\|b`},
		{"line end", "two\nlines", "two lines"},
		{"html", "<b>&", "&lt;b>&amp;"},
		{"backtick", "`x`", "\\`x\\`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := markdownCell(tc.in); got != tc.want {
				t.Errorf("markdownCell(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
