package ui

import (
	"strings"

	"headroom/app/chart"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// What an export carries beyond the sweep's grid, for a reviewer who sees
// only the file: the exact flip points (CSV, JSON) and a title and
// caption (SVG, PNG).

// captioned gives an exported chart its title line and caption: the
// preset, the GPU, the changes on, the axis and range, and the date (UTC,
// YYYY-MM-DD), so a picture pasted into a pull request explains itself.
// The page's own chart and the plot command's drawings have neither
// (their goldens stay as they are): on the page the panels around the
// chart say all this, and the plot command's caller chooses its title.
func captioned(in chart.Input, cfg estimator.Config, presetName, date string) chart.Input {
	model := presetName
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
	in.Title = "Headroom: " + model + " on " + gpuName + ", required bytes along " + in.Axis.Key
	modelPart := "preset " + model
	if presetName == "" {
		// No preset traces the chart to its model: name its shape.
		modelPart = "model " + ShapeText(cfg.Model)
	}
	parts := []string{
		modelPart,
		"GPU " + gpuText,
		"in use " + estimator.Bytes(cfg.Budget.InUseBytes).String(),
		"candidate " + changesText(cfg),
	}
	if t := trainerCaption(cfg); t != "" { // only under ART's code: the seeds' captions stay as they were
		parts = append(parts, t)
	}
	parts = append(parts,
		"axis "+in.Axis.Key+" "+estimator.Group(in.From)+" to "+estimator.Group(in.To),
		"baseline: "+flipSummary(in.Baseline),
		"candidate: "+flipSummary(in.Candidate),
		date,
	)
	in.Caption = strings.Join(parts, " · ")
	return in
}

// trainerCaption names the trainers when ART's code prices a revision
// (docs/model.md §13): "trainer ART's code", or each revision's when
// they differ; "" when both are the seeds' reading.
func trainerCaption(cfg estimator.Config) string {
	art := page.RevisionArt(cfg)
	name := func(a bool) string {
		if a {
			return page.ProfileArtLabel
		}
		return page.ProfileSeedsLabel
	}
	switch {
	case art[0] && art[1]:
		return "trainer " + name(true)
	case art[0] || art[1]:
		return "trainer: baseline " + name(art[0]) + ", candidate " + name(art[1])
	}
	return ""
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

// presetIDName is the display name of a preset id ("" when none matches).
func presetIDName(list []page.Preset, id string) string {
	if p, ok := page.FindPreset(list, id); ok {
		return p.Name
	}
	return ""
}
