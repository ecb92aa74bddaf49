package ui

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/chart"
	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

// TestChangesTextNamesActingSwitches: For a model
// without GDN layers the candidate's text said "with …
// gdn_early_release", a switch that changes nothing there.
func TestChangesTextNamesActingSwitches(t *testing.T) {
	cfg := estimator.Default()
	cfg.Model.LinearNumKeyHeads = 0
	got := changesText(cfg, nil)
	if want := "with head_eager_workspace, fc2_known_storage (gdn_early_release is on but changes nothing for this model)"; got != want {
		t.Errorf("no GDN: %q, want %q", got, want)
	}
	if got := changesText(estimator.Default(), nil); got != "with head_eager_workspace, fc2_known_storage, gdn_early_release" {
		t.Errorf("Qwen3-Next: %q", got)
	}
	cfg.Changes = estimator.Changes{GDNEarlyRelease: true}
	if got := changesText(cfg, nil); !strings.HasPrefix(got, "no change on acts on this model (gdn_early_release") {
		t.Errorf("only an inert switch: %q", got)
	}
}

// TestCaptionNamesCustomShape: An export of a model
// that is no preset named none of V/H/L/K/M, so its PNG could not be
// traced to its model.
func TestCaptionNamesCustomShape(t *testing.T) {
	cfg := estimator.Default()
	cfg.Model.HiddenSize = 4096
	in, err := chart.Build(cfg, "rows", 1, 1_000_000, 16)
	if err != nil {
		t.Fatal(err)
	}
	out := captioned(in, cfg, "", "2026-12-01")
	if want := "model V 151,936, H 4,096, L 48, K 10, M 512, Hk 16"; !strings.Contains(out.Caption, want) {
		t.Errorf("caption %q lacks %q", out.Caption, want)
	}
}

// TestSplitNote: What a split means was nowhere on
// the page: a sentence by the decisions says the children run one after
// another and their retained bytes add up.
func TestSplitNote(t *testing.T) {
	c, _ := mountExplorer(t, nil)
	html := app.HTMLString(c)
	i := strings.Index(html, `id="split-note"`)
	if i < 0 || strings.Index(html, `id="change-summary"`) > i {
		t.Fatalf("no #split-note after the decisions' summary")
	}
	for _, want := range []string{"one after another", "retained bytes", "add up"} {
		if !strings.Contains(html[i:], want) {
			t.Errorf("the note lacks %q", want)
		}
	}
}

// TestWidthSlidersStepBy64: A drag gave widths such
// as hidden_size 16,877; the width sliders send multiples of 64 at every
// position (the field still takes any integer).
func TestWidthSlidersStepBy64(t *testing.T) {
	c := &controls{}
	for _, key := range []string{"hidden_size", "moe_intermediate_size", "input_width", "output_width"} {
		var spec page.SliderSpec
		for _, s := range page.Sliders() {
			if s.Key == key {
				spec = s
			}
		}
		sl, ok := c.slider(spec).(*widget.Slider)
		if !ok || spec.Key != key {
			t.Fatalf("%s: no slider", key)
		}
		for p := 0; p <= widget.Steps; p++ {
			if v := sl.ValueAt(p); int64(v)%64 != 0 {
				t.Errorf("%s at position %d sends %v, not a multiple of 64", key, p, v)
				break
			}
		}
	}
}
