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
// preset, else its shape), the GPU, the bytes in use (the resident
// memory computed from the model included), the expert parallelism, the
// baseline's own GPU, bytes in use or expert parallelism where they
// differ (in the title too, for the GPU), the candidate's changes (and trainers, under ART's code), the axis and range, both
// revisions' flips in a few words, and the date.
func ChartCaption(cfg estimator.Config, sw Sweep, names CaptionNames) (title, caption string) {
	model := names.Preset
	if model == "" {
		model = "a custom model"
	}
	// Each revision's setup as it resolves: the memory in use counts the
	// resident memory computed from the model (the config's in_use_bytes
	// is 0 then), and a compare config's baseline may have its own GPU.
	var setups [2]setup
	rv, err := cfg.ResolveRevisions()
	for i := range setups {
		setups[i] = setup{capacity: cfg.Budget.CapacityBytes, inUse: cfg.Budget.InUseBytes, ep: cfg.FC2.ExpertParallel}
		if err == nil {
			r := rv.Rev[i]
			setups[i] = setup{capacity: r.Capacity, inUse: r.InUse, ep: r.EP}
		}
	}
	resident := cfg.Resident != nil && cfg.Budget.InUseBytes == 0
	cand, base := setups[1], setups[0]
	title = "Headroom: " + model + " on " + gpuName(cand.capacity)
	if base.capacity != cand.capacity {
		title += " (baseline " + gpuName(base.capacity) + ")"
	}
	title += ", required bytes along " + sw.Axis
	modelPart := "preset " + model
	if names.Preset == "" {
		// No preset traces the chart to its model: name its shape.
		modelPart = "model " + ShapeText(cfg.Model)
	}
	inUse := func(s setup) string {
		t := "in use " + estimator.Bytes(s.inUse).String()
		if resident {
			t += ", resident memory computed from the model"
		}
		return t
	}
	parts := []string{
		modelPart,
		"GPU " + gpuText(cand.capacity),
		inUse(cand),
		"expert parallelism " + estimator.Group(cand.ep),
	}
	if base != cand {
		var b []string
		if base.capacity != cand.capacity {
			b = append(b, "GPU "+gpuText(base.capacity))
		}
		if base.inUse != cand.inUse {
			b = append(b, "in use "+estimator.Bytes(base.inUse).String())
		}
		if base.ep != cand.ep {
			b = append(b, "expert parallelism "+estimator.Group(base.ep))
		}
		parts = append(parts, "baseline's "+strings.Join(b, ", "))
	}
	parts = append(parts, "candidate "+names.Changes)
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

// setup is what a revision runs on, as the caption names it.
type setup struct{ capacity, inUse, ep int64 }

// gpuName names the GPU of a capacity: "H200", or "a custom GPU".
func gpuName(capacity int64) string {
	if g := estimator.GPUForCapacity(capacity); g.ID != estimator.CustomGPU {
		return g.Name
	}
	return "a custom GPU"
}

// gpuText is the caption's GPU: the menu's label, or the custom capacity.
func gpuText(capacity int64) string {
	if g := estimator.GPUForCapacity(capacity); g.ID != estimator.CustomGPU {
		return g.Label()
	}
	return "custom capacity " + estimator.Bytes(capacity).String()
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
