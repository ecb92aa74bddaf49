package report

import (
	"strings"
	"testing"

	"headroom/estimator"
)

// TestChartCaption: a custom model is named by its shape, a preset by its
// name; the caption carries the flips of both revisions, the trainer only
// when given, and the date.
func TestChartCaption(t *testing.T) {
	t.Parallel()
	cfg := estimator.Default()
	sw, err := NewSweep(cfg, "rows", 1, 1_000_000, 16)
	if err != nil {
		t.Fatal(err)
	}
	title, caption := ChartCaption(cfg, sw, CaptionNames{Changes: "with fc2_known_storage", Date: "2026-12-01"})
	if !strings.HasPrefix(title, "Headroom: a custom model on ") || !strings.HasSuffix(title, "required bytes along rows") {
		t.Errorf("title %q", title)
	}
	for _, want := range []string{"model " + ShapeText(cfg.Model), "candidate with fc2_known_storage", "axis rows 1 to 1,000,000",
		"baseline: " + flipSummary(sw.Baseline), "candidate: " + flipSummary(sw.Candidate), " · 2026-12-01"} {
		if !strings.Contains(caption, want) {
			t.Errorf("caption %q lacks %q", caption, want)
		}
	}
	if strings.Contains(caption, "trainer") {
		t.Errorf("a seeds caption names a trainer: %q", caption)
	}
	title, caption = ChartCaption(cfg, sw, CaptionNames{Preset: "Qwen3-Next-80B-A3B", Trainer: "trainer ART's code"})
	if !strings.HasPrefix(title, "Headroom: Qwen3-Next-80B-A3B on ") || !strings.Contains(caption, "preset Qwen3-Next-80B-A3B") || !strings.Contains(caption, "trainer ART's code") {
		t.Errorf("title %q, caption %q", title, caption)
	}
	if got := flipSummary(nil); got != "no flip" {
		t.Errorf("flipSummary(nil) = %q", got)
	}
}
