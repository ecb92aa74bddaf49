package ui

import (
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
	"headroom/estimator"
)

// llamaOnH100 is the example: Llama-3.1-8B on an H100 at 64,902
// rows, where the peak stage is activations but retained checkpoints are
// the larger part of required.
func llamaOnH100(t *testing.T) estimator.Config {
	t.Helper()
	list, err := page.Presets()
	if err != nil {
		t.Fatal(err)
	}
	p, ok := page.FindPreset(list, "llama-3.1-8b")
	if !ok {
		t.Fatal("no llama-3.1-8b preset")
	}
	cfg := p.Config
	cfg.Budget.CapacityBytes = estimator.H100CapacityBytes
	cfg.Request.Rows = 64902
	return cfg
}

func TestComposeRequired(t *testing.T) {
	res, err := estimator.Estimate(llamaOnH100(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		o    estimator.Outcome
	}{{"baseline", res.Baseline}, {"candidate", res.Candidate}} {
		t.Run(tc.name, func(t *testing.T) {
			c := composeRequired(tc.o, 110)
			if c.Parts[0].Bytes != tc.o.RetainedBytes || c.Parts[1].Bytes != tc.o.EphemeralBytes {
				t.Errorf("parts %d + %d, the outcome's %d + %d", c.Parts[0].Bytes, c.Parts[1].Bytes, tc.o.RetainedBytes, tc.o.EphemeralBytes)
			}
			// The figures: 15.85 GiB retained, 5.94 GiB of
			// activations (exact bytes as the estimator gives them today).
			if c.Parts[0].Bytes != 17_013_929_984 || c.Parts[1].Bytes != 6_380_126_208 {
				t.Errorf("retained %v, peak %v; want 17,013,929,984 and 6,380,126,208", c.Parts[0].Bytes, c.Parts[1].Bytes)
			}
			if c.Parts[1].Label != "peak stage: activations" {
				t.Errorf("peak label %q", c.Parts[1].Label)
			}
			if c.Largest != 0 {
				t.Errorf("largest part %d, want retained", c.Largest)
			}
			if got, want := c.largestText(), "retained checkpoints (72.7 %)"; got != want {
				t.Errorf("largestText %q, want %q", got, want)
			}
			if c.Parts[0].Permille+c.Parts[1].Permille != 1000 {
				t.Errorf("shares %d + %d permille", c.Parts[0].Permille, c.Parts[1].Permille)
			}
		})
	}
}

func TestComposeRequiredCases(t *testing.T) {
	for _, tc := range []struct {
		name     string
		o        estimator.Outcome
		largest  string
		permille int64 // retained's
	}{
		{"peak larger", estimator.Outcome{RetainedBytes: 1, EphemeralBytes: 3, DominantStage: "head"}, "the peak stage, head (75.0 %)", 250},
		{"tie goes to retained", estimator.Outcome{RetainedBytes: 5, EphemeralBytes: 5, DominantStage: "fc2"}, "retained checkpoints (50.0 %)", 500},
		{"nothing", estimator.Outcome{}, "retained checkpoints (0.0 %)", 0},
		{"no stage name", estimator.Outcome{EphemeralBytes: 2}, "the peak stage, none (100.0 %)", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := composeRequired(tc.o, 100)
			if got := c.largestText(); got != tc.largest {
				t.Errorf("largestText %q, want %q", got, tc.largest)
			}
			if c.Parts[0].Permille != tc.permille {
				t.Errorf("retained share %d permille, want %d", c.Parts[0].Permille, tc.permille)
			}
		})
	}
}

func TestDecisionPanelComposition(t *testing.T) {
	res, err := estimator.Estimate(llamaOnH100(t))
	if err != nil {
		t.Fatal(err)
	}
	p := &decisionPanel{Rev: estimator.BaselineRev, Title: "Baseline", Ready: true, Axis: "rows", Outcome: res.Baseline, Safety: 110}
	d := app.NewClientTester(p)
	defer d.Close()
	for _, tc := range []app.TestUIDescriptor{
		{Path: app.TestPath(0, 3), Expected: app.Div().ID("composition-baseline").Class("composition")},
		{Path: app.TestPath(0, 3, 0), Expected: app.P().ID("dominates-baseline").Class("dominates")},
		{Path: app.TestPath(0, 3, 0, 1, 0), Expected: app.Text("retained checkpoints (72.7 %)")},
	} {
		if err := app.TestMatch(p, tc); err != nil {
			t.Error(err)
		}
	}
}
