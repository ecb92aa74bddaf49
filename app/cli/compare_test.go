package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/estimator"
)

// TestCompareExample is the README's "Compare two setups": the same model
// on an H100 80GB (the baseline) and an H200 (the candidate), through
// estimate, sweep and plot.
func TestCompareExample(t *testing.T) {
	example := examplePath("h100-vs-h200.json")
	code, stdout, stderr := runCmd(t, "", "sweep", "-config", example, "-axis", "rows", "-from", "1", "-to", "900000")
	if code != 0 || stderr != "" {
		t.Fatalf("sweep: exit %d, stderr %q", code, stderr)
	}
	var res estimator.SweepResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	// The figures the README quotes.
	want := map[string][]int64{"baseline": {227373, 375781}, "candidate": {403170, 670606}}
	for name, flips := range map[string][]estimator.Flip{"baseline": res.Baseline.Flips, "candidate": res.Candidate.Flips} {
		if len(flips) != 2 || flips[0].ToDecision != estimator.Split || flips[1].ToDecision != estimator.Refuse ||
			flips[0].Last != want[name][0] || flips[1].Last != want[name][1] {
			t.Errorf("%s flips %+v, want admit up to %d, split up to %d", name, flips, want[name][0], want[name][1])
		}
	}

	code, stdout, stderr = runCmd(t, "", "estimate", "-config", example)
	if code != 0 || stderr != "" {
		t.Fatalf("estimate: exit %d, stderr %q", code, stderr)
	}
	var est struct {
		Available int64 `json:"available_bytes"`
		Baseline  struct {
			Available int64 `json:"available_bytes"`
		} `json:"baseline"`
		Candidate struct {
			Available int64 `json:"available_bytes"`
		} `json:"candidate"`
	}
	if err := json.Unmarshal([]byte(stdout), &est); err != nil {
		t.Fatal(err)
	}
	if est.Baseline.Available != 82_469_400_000 || est.Candidate.Available != 146_232_175_494 || est.Available != est.Candidate.Available {
		t.Errorf("available bytes: %+v", est)
	}

	out := filepath.Join(t.TempDir(), "compare.svg")
	if code, _, stderr := runCmd(t, "", "plot", "-config", example, "-from", "1", "-to", "900000", "-points", "64", "-o", out); code != 0 || stderr != "" {
		t.Fatalf("plot: exit %d, stderr %q", code, stderr)
	}
	if data, err := os.ReadFile(out); err != nil || !strings.Contains(string(data), "<svg") {
		t.Errorf("plot wrote %d bytes: %v", len(data), err)
	}
}

// TestCompareBadBaseline: a bad baseline exits 2 with one line naming it.
func TestCompareBadBaseline(t *testing.T) {
	for _, c := range []struct{ name, stdin, want string }{
		{"in use above the baseline's capacity", `{"budget": {"in_use_bytes": 90000000000}, "baseline": {"overrides": {"budget": {"capacity_bytes": 85020000000}}}}`,
			"baseline.overrides.budget.in_use_bytes"},
		{"terms overridden", `{"baseline": {"overrides": {"terms": []}}}`, "baseline.overrides.terms"},
		{"non-boolean change", `{"baseline": {"changes": {"gdn_early_release": 1}}}`, "baseline.changes.gdn_early_release"},
	} {
		for _, cmd := range [][]string{{"estimate"}, {"sweep", "-to", "10"}, {"plot", "-to", "10", "-o", "-"}} {
			code, stdout, stderr := runCmd(t, c.stdin, append(cmd, "-config", "-")...)
			if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
				t.Errorf("%s, %s: exit %d, stdout %q, stderr %q", c.name, cmd[0], code, stdout, stderr)
			}
		}
	}
}
