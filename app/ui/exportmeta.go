package ui

import (
	"sort"
	"strconv"
	"strings"

	"headroom/app/chart"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// What an export carries beyond the sweep's grid, for a reviewer who sees
// only the file: the exact flip points (CSV, JSON) and a title and
// caption (SVG, PNG).

// flipPoint is one exact point where a revision's decision changes: the
// last x of one decision or the first x of the next.
type flipPoint struct {
	X     int64
	Label string // "candidate last admit", "baseline first split"
}

// flipPoints lists both sides of every flip of both revisions, by x
// (baseline before candidate, last before first at the same x).
func flipPoints(in chart.Input) []flipPoint {
	var out []flipPoint
	for i, flips := range [2][]estimator.Flip{in.Baseline, in.Candidate} {
		rev := [2]string{"baseline", "candidate"}[i]
		for _, f := range flips {
			out = append(out,
				flipPoint{f.Last, rev + " last " + f.FromDecision.String()},
				flipPoint{f.First, rev + " first " + f.ToDecision.String()})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].X < out[j].X })
	return out
}

// csvFlipRows prices the flip points of in (cfg swept along in's axis):
// one point per distinct x, with the labels of every flip side at that x
// joined by "; ". The points are the estimator's own, priced as the grid
// is, so a flip row reads like a grid row.
func csvFlipRows(cfg estimator.Config, in chart.Input) ([]estimator.Point, []string, error) {
	fps := flipPoints(in)
	if len(fps) == 0 {
		return nil, nil, nil
	}
	s, err := estimator.NewSweeper(cfg, in.Axis.Key)
	if err != nil {
		return nil, nil, err
	}
	var xs []int64
	var labels []string
	for _, fp := range fps {
		if n := len(xs); n > 0 && xs[n-1] == fp.X {
			labels[n-1] += "; " + fp.Label
			continue
		}
		xs, labels = append(xs, fp.X), append(labels, fp.Label)
	}
	return s.AppendPoints(nil, xs), labels, nil
}

// jsonFlips is the JSON export's "flips": where each revision's decision
// changes along the chart's axis and range, as the sweep command finds
// them on the chart's grid.
type jsonFlips struct {
	Axis      string           `json:"axis"`
	From      int64            `json:"from"`
	To        int64            `json:"to"`
	Baseline  []estimator.Flip `json:"baseline"`
	Candidate []estimator.Flip `json:"candidate"`
}

// flipsOf is in's flips for the JSON export (empty lists, never null).
func flipsOf(in chart.Input) *jsonFlips {
	f := &jsonFlips{Axis: in.Axis.Key, From: in.From, To: in.To,
		Baseline: in.Baseline, Candidate: in.Candidate}
	if f.Baseline == nil {
		f.Baseline = []estimator.Flip{}
	}
	if f.Candidate == nil {
		f.Candidate = []estimator.Flip{}
	}
	return f
}

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

// csvGrid and csvFlip mark a CSV row: a point of the chart's grid or an exact flip.
const (
	csvGrid = "grid"
	csvFlip = "flip"
)

// itoa writes an exact integer for the CSV.
func itoa(v int64) string { return strconv.FormatInt(v, 10) }
