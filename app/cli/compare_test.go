package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"headroom/estimator"
)

// exampleConfig reads a config of examples/.
func exampleConfig(t *testing.T, name string) estimator.Config {
	t.Helper()
	data, err := os.ReadFile(examplePath(name))
	if err != nil {
		t.Fatal(err)
	}
	c, err := estimator.DecodeConfig(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return c
}

// TestCompareExample is the README's "Compare two setups": the same model
// on an H100 80GB (the baseline) and an H200 (the candidate), through
// estimate, sweep and plot. The figures are the estimator's (the
// command must print what estimator.Sweep and Estimate give), and the
// README must quote them.
func TestCompareExample(t *testing.T) {
	example := examplePath("h100-vs-h200.json")
	c := exampleConfig(t, "h100-vs-h200.json")
	want, err := estimator.Sweep(c, "rows", 1, 900000, estimator.DefaultPoints)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "", "sweep", "-config", example, "-axis", "rows", "-from", "1", "-to", "900000")
	if code != 0 || stderr != "" {
		t.Fatalf("sweep: exit %d, stderr %q", code, stderr)
	}
	var res estimator.SweepResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for rev, got := range []estimator.Flips{res.Baseline, res.Candidate} {
		flips := want.Baseline.Flips
		if rev == 1 {
			flips = want.Candidate.Flips
		}
		// The shape the README tells: admit, then split, then refuse.
		if len(flips) != 2 || flips[0].ToDecision != estimator.Split || flips[1].ToDecision != estimator.Refuse {
			t.Fatalf("revision %d: estimator.Sweep flips %+v, want admit, split, refuse", rev, flips)
		}
		if !reflect.DeepEqual(got.Flips, flips) {
			t.Errorf("revision %d: the command's flips %+v, estimator.Sweep's %+v", rev, got.Flips, flips)
		}
		for _, f := range flips { // "admits up to", "splits until"
			if !strings.Contains(string(readme), estimator.Group(f.Last)) {
				t.Errorf("README.md does not quote %s rows, the last before revision %d turns to %s", estimator.Group(f.Last), rev, f.ToDecision)
			}
		}
	}
	est, err := estimator.Estimate(c)
	if err != nil {
		t.Fatal(err)
	}

	code, stdout, stderr = runCmd(t, "", "estimate", "-config", example)
	if code != 0 || stderr != "" {
		t.Fatalf("estimate: exit %d, stderr %q", code, stderr)
	}
	var got struct {
		Available int64 `json:"available_bytes"`
		Baseline  struct {
			Available int64 `json:"available_bytes"`
		} `json:"baseline"`
		Candidate struct {
			Available int64 `json:"available_bytes"`
		} `json:"candidate"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if est.Baseline.AvailableBytes == nil || est.Candidate.AvailableBytes == nil ||
		got.Baseline.Available != int64(*est.Baseline.AvailableBytes) || got.Candidate.Available != int64(*est.Candidate.AvailableBytes) ||
		got.Available != got.Candidate.Available || got.Baseline.Available == got.Candidate.Available {
		t.Errorf("available bytes: %+v; the estimator's %v and %v, each revision its own", got, est.Baseline.AvailableBytes, est.Candidate.AvailableBytes)
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
