package report

import (
	"strings"

	"headroom/estimator"
)

// CaptionNames are what a chart's caption says that the page words (its
// presets, its switches, its trainers), given by the caller.
type CaptionNames struct {
	Preset  string // the preset's name; "" for a custom model, named by its shape (ShapeText)
	Changes string // the candidate's changes: "with fc2_known_storage", ...
	Trainer string // "trainer ART's code", or each revision's; "" under the seeds' reading
	Date    string // UTC, YYYY-MM-DD
}

// ChartCaption is an exported chart's title line and caption, so a
// picture pasted into a pull request explains itself: the model (its
// preset, else its shape), the GPU, the bytes in use, the candidate's
// changes (and trainers, under ART's code), the axis and range, both
// revisions' flips in a few words, and the date.
func ChartCaption(cfg estimator.Config, sw Sweep, names CaptionNames) (title, caption string) {
	model := names.Preset
	if model == "" {
		model = "a custom model"
	}
	gpu := estimator.GPUForCapacity(cfg.Budget.CapacityBytes)
	gpuText := gpu.Label()
	if gpu.ID == estimator.CustomGPU {
		gpuText = "custom capacity " + estimator.Bytes(cfg.Budget.CapacityBytes).String()
	}
	gpuName := gpu.Name
	if gpu.ID == estimator.CustomGPU {
		gpuName = "a custom GPU"
	}
	title = "Headroom: " + model + " on " + gpuName + ", required bytes along " + sw.Axis
	modelPart := "preset " + model
	if names.Preset == "" {
		// No preset traces the chart to its model: name its shape.
		modelPart = "model " + ShapeText(cfg.Model)
	}
	parts := []string{
		modelPart,
		"GPU " + gpuText,
		"in use " + estimator.Bytes(cfg.Budget.InUseBytes).String(),
		"candidate " + names.Changes,
	}
	if names.Trainer != "" { // only under ART's code: the seeds' captions stay as they were
		parts = append(parts, names.Trainer)
	}
	parts = append(parts,
		"axis "+sw.Axis+" "+estimator.Group(sw.From)+" to "+estimator.Group(sw.To),
		"baseline: "+flipSummary(sw.Baseline),
		"candidate: "+flipSummary(sw.Candidate),
		names.Date,
	)
	caption = strings.Join(parts, " · ")
	return title, caption
}

// ShapeText names a model by the letters of docs/model.md §2: "V 151,936,
// H 2,048, L 48, K 10, M 512", with Hk when it has GDN layers and X when
// the total number of experts is given (num_experts, or the HF names
// the import keeps).
func ShapeText(m estimator.ModelConfig) string {
	t := "V " + estimator.Group(m.VocabSize) + ", H " + estimator.Group(m.HiddenSize) +
		", L " + estimator.Group(m.NumHiddenLayers) + ", K " + estimator.Group(m.NumExpertsPerTok) +
		", M " + estimator.Group(m.MoEIntermediateSize)
	if m.LinearNumKeyHeads > 0 {
		t += ", Hk " + estimator.Group(m.LinearNumKeyHeads)
	}
	if x, ok := estimator.TotalExperts(m); ok {
		t += ", X " + estimator.Group(x)
	}
	return t
}

// flipSummary names a revision's flips in a few words: "admit to split at
// 214,448" or "no flip".
func flipSummary(flips []estimator.Flip) string {
	if len(flips) == 0 {
		return "no flip"
	}
	parts := make([]string, len(flips))
	for i, f := range flips {
		parts[i] = f.FromDecision.String() + " to " + f.ToDecision.String() + " at " + estimator.Group(f.First)
	}
	return strings.Join(parts, ", ")
}
