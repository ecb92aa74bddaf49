package report

import (
	"strconv"
	"strings"
	"testing"

	"headroom/estimator"
)

// TestChartCaptionStatesTheSetup: an exported chart said "in use 0 bytes
// (0.000 GiB)" while 22.825 GiB of resident memory were counted, named no
// expert parallelism, and titled a compare config "on H200" when its
// baseline ran on an H100. The caption states the bytes in use as the
// estimate counts them, the expert parallelism, and the baseline's own
// setup where it differs, in the title for the GPU.
func TestChartCaptionStatesTheSetup(t *testing.T) {
	cfg, err := estimator.DecodeConfig([]byte(`{"resident": {}, "fc2": {"expert_parallel": 8}}`))
	if err != nil {
		t.Fatal(err)
	}
	sw, err := NewSweep(cfg, "rows", 1, 600_000, 16)
	if err != nil {
		t.Fatal(err)
	}
	title, caption := ChartCaption(cfg, sw, CaptionNames{Preset: "Qwen3-Next-80B-A3B", Changes: "with every change"})
	for _, want := range []string{"in use 24,507,906,048 bytes (22.825 GiB), resident memory computed from the model", "expert parallelism 8"} {
		if !strings.Contains(caption, want) {
			t.Errorf("caption %q lacks %q", caption, want)
		}
	}
	if title != "Headroom: Qwen3-Next-80B-A3B on H200, required bytes along rows" || strings.Contains(caption, "baseline's") {
		t.Errorf("title %q, caption %q", title, caption)
	}

	h100 := strconv.FormatInt(estimator.H100CapacityBytes, 10)
	cfg, err = estimator.DecodeConfig([]byte(`{"budget": {"in_use_bytes": 10000000000}, "baseline": {"overrides": {"budget": {"capacity_bytes": ` + h100 + `}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if sw, err = NewSweep(cfg, "rows", 1, 600_000, 16); err != nil {
		t.Fatal(err)
	}
	title, caption = ChartCaption(cfg, sw, CaptionNames{Preset: "Qwen3-30B-A3B"})
	if title != "Headroom: Qwen3-30B-A3B on H200 (baseline H100 80GB), required bytes along rows" {
		t.Errorf("title %q", title)
	}
	if !strings.Contains(caption, "baseline's GPU H100 80GB") || strings.Contains(caption, "resident memory") ||
		!strings.Contains(caption, "in use 10,000,000,000 bytes") {
		t.Errorf("caption %q", caption)
	}
}
