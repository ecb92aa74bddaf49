package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/estimator"
)

// TestCompareReportNamesTheSetup: a compare config whose baseline runs on
// an H100 printed only the candidate's available bytes, and its md
// heading named the candidate's switches, which both revisions share.
// Both reports give each revision's available bytes, and the heading
// names the difference, the GPU.
func TestCompareReportNamesTheSetup(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "h100-vs-h200.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := estimator.DecodeConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := estimator.Estimate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, c := res.Baseline.AvailableBytes, res.Candidate.AvailableBytes
	if b == nil || c == nil || *b == *c {
		t.Fatal("the example's revisions share their available bytes")
	}
	both := b.String() + " to the baseline, " + c.String() + " to the candidate"
	text := EstimateText(cfg, res)
	if !strings.HasPrefix(text, "Estimate of 64,902 rows; available "+both+"\n") {
		t.Errorf("text:\n%s", text)
	}
	md := EstimateMarkdown(cfg, res)
	if !strings.HasPrefix(md, "### Estimate on H200 against the baseline's H100 80GB: 64,902 rows\n\nAvailable: "+both+".") {
		t.Errorf("md:\n%s", md)
	}
	// Without a baseline of its own, as before.
	cfg = estimator.Default()
	if res, err = estimator.Estimate(cfg); err != nil {
		t.Fatal(err)
	}
	if md := EstimateMarkdown(cfg, res); !strings.HasPrefix(md, "### Estimate of the candidate (") || strings.Contains(md, " to the baseline") {
		t.Errorf("md:\n%s", md)
	}
}

// TestDominatesNamesOnePart: the larger of the retained bytes and the
// peak stage, with its share; a tie is the retained part's; ART's code
// names the retained part as its forward price.
func TestDominatesNamesOnePart(t *testing.T) {
	for _, tc := range []struct {
		o    estimator.Outcome
		art  bool
		want string
	}{
		{estimator.Outcome{RetainedBytes: 615, EphemeralBytes: 385, DominantStage: "fc2"}, false, "retained checkpoints (61.5 %)"},
		{estimator.Outcome{RetainedBytes: 298, EphemeralBytes: 702, DominantStage: "fc2"}, false, "the peak stage, fc2 (70.2 %)"},
		{estimator.Outcome{RetainedBytes: 5, EphemeralBytes: 5}, true, "retained: the child's forward price (50.0 %)"},
		{estimator.Outcome{}, false, "retained checkpoints (0.0 %)"},
	} {
		if got := Dominates(tc.o, tc.art); got != tc.want {
			t.Errorf("Dominates(%+v, %v) = %q, want %q", tc.o, tc.art, got, tc.want)
		}
	}
}

// TestEstimateTextNamesTheSetup: the command line's {} (expert
// parallelism 1, nothing in use) and the page's default (expert
// parallelism 8, resident memory on) answered one question differently
// with nothing saying why; the text names the setup it priced.
func TestEstimateTextNamesTheSetup(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		{`{}`, "Setup: H200 (143,771 MiB), expert parallelism 1, nothing in use: the model's weights are not counted (no resident group)\n"},
		{`{"resident": {}, "fc2": {"expert_parallel": 8}}`, "Setup: H200 (143,771 MiB), expert parallelism 8, in use 24,507,906,048 bytes (22.825 GiB), the resident memory computed from the model\n"},
	} {
		cfg, err := estimator.DecodeConfig([]byte(tc.json))
		if err != nil {
			t.Fatal(err)
		}
		res, err := estimator.Estimate(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if text := EstimateText(cfg, res); !strings.Contains(text, "\n"+tc.want) {
			t.Errorf("%s:\n%s", tc.json, text)
		}
	}
}
