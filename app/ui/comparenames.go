package ui

import (
	"strings"

	"headroom/app/ui/page"
	"headroom/estimator"
)

// revNames are the two revisions' names as the page writes them: in
// panel titles, the legend, the table's columns and the sentences.
type revNames struct {
	Base, Cand string // short names: "baseline", "H100 80GB"
	// Setups is true when the names are the setups' own (a baseline of
	// the user's own, told apart by what differs); the sentences then
	// write the names bare ("H200 admits where H100 80GB split") rather
	// than "the candidate ... the baseline".
	Setups bool
}

// defaultNames are the names without a baseline of one's own.
var defaultNames = revNames{Base: "baseline", Cand: "candidate"}

// phrase is a revision's name in a sentence: "the baseline", "H200".
func (n revNames) phrase(rev estimator.Revision) string {
	name := n.Base
	if rev == estimator.CandidateRev {
		name = n.Cand
	}
	if n.Setups {
		return name
	}
	return "the " + name
}

// chartNames are the names the chart's legend uses: empty without a
// baseline of one's own, so the chart keeps its own words.
func (n revNames) chartNames() [2]string {
	if !n.Setups {
		return [2]string{}
	}
	return [2]string{n.Base, n.Cand}
}

// setupNames names the two setups of cfg by what differs between them,
// the first of these that tells them apart: the trainer, the GPU (its name in the
// GPU table, "H100 80GB", else the capacity in GiB), the model (the
// preset's name), the sequence ("sequence 4,096"), or the one other
// field an override changes ("in_use_bytes 10,000"). Without a baseline
// of its own, or when nothing tells them apart (both on a custom model,
// or only their switches differ), they are "baseline" and "candidate".
func setupNames(cfg estimator.Config, list []page.Preset) revNames {
	if cfg.Baseline == nil {
		return defaultNames
	}
	own := defaultNames
	own.Setups = true
	bc, err := cfg.BaselineConfig()
	if err != nil {
		return own
	}
	pair := func(b, c string) (revNames, bool) {
		if b == "" || c == "" || b == c {
			return revNames{}, false
		}
		return revNames{Base: b, Cand: c, Setups: true}, true
	}
	if page.ProfileName(bc) != page.ProfileName(cfg) {
		return revNames{Base: trainerName(bc), Cand: trainerName(cfg), Setups: true}
	}
	if bc.Budget.CapacityBytes != cfg.Budget.CapacityBytes {
		if n, ok := pair(gpuName(bc.Budget.CapacityBytes), gpuName(cfg.Budget.CapacityBytes)); ok {
			return n
		}
	}
	modelDiffers := false
	for _, f := range page.PresetFields() {
		if f.Text(&bc) != f.Text(&cfg) {
			modelDiffers = true
		}
	}
	if modelDiffers {
		if n, ok := pair(presetName(list, bc), presetName(list, cfg)); ok {
			return n
		}
	}
	if b, c := bc.Request.SequenceRows, cfg.Request.SequenceRows; b != c {
		n, _ := pair("sequence "+estimator.Group(b), "sequence "+estimator.Group(c))
		return n
	}
	var differ []*estimator.Field
	for _, f := range page.OverridableFields() {
		if f.Text(&bc) != f.Text(&cfg) {
			differ = append(differ, f)
		}
	}
	if len(differ) == 1 {
		f := differ[0]
		if n, ok := pair(fieldValueName(f, bc), fieldValueName(f, cfg)); ok {
			return n
		}
	}
	return own
}

// trainerName names a setup by its trainer: "seeds' reading", "ART's code".
func trainerName(c estimator.Config) string {
	if page.ProfileName(c) == estimator.ProfileArt {
		return page.ProfileArtLabel
	}
	return "seeds' reading"
}

// gpuName is a capacity's GPU, "H100 80GB", or the capacity in GiB.
func gpuName(capacity int64) string {
	if g := estimator.GPUForCapacity(capacity); g.ID != estimator.CustomGPU {
		return g.Name
	}
	return estimator.Bytes(capacity).GiBString() + " GiB"
}

// presetName is the name of the preset whose model c holds, "" when none.
func presetName(list []page.Preset, c estimator.Config) string {
	if p, ok := page.FindPreset(list, page.MatchModel(list, c)); ok {
		return p.Name
	}
	return ""
}

// fieldValueName names a setup by one field's value: "chunk_rows 1,024",
// "grad off", "output_width auto".
func fieldValueName(f *estimator.Field, c estimator.Config) string {
	if f.Kind == estimator.BoolField {
		return f.Key + map[bool]string{true: " on", false: " off"}[f.Bool(&c)]
	}
	v, set := f.Int(&c)
	if !set {
		return f.Key + " auto"
	}
	return strings.TrimSpace(f.Key + " " + estimator.Group(v))
}

// panelText is a decision panel's title and subtitle.
type panelText struct{ title, subtitle string }

// panelTexts are the decision panels' titles, baseline first: "Baseline"
// (the three changes off) and "Candidate" (with its changes), or, when
// two setups are compared, the setups' names, each with its changes
// (changesText, remembered in m).
func panelTexts(cfg estimator.Config, n revNames, m *actingMemo) [2]panelText {
	if cfg.Baseline == nil {
		return [2]panelText{{"Baseline", "the three changes off"}, {"Candidate", changesText(cfg, m)}}
	}
	cand := changesText(cfg, m)
	if strings.HasPrefix(cand, "no change on:") {
		cand = "no change on"
	}
	return [2]panelText{
		{capitalize(n.Base), "the baseline, " + switchesText(cfg.Baseline.Changes)},
		{capitalize(n.Cand), "the candidate, " + cand},
	}
}

// availableOf is a revision's available bytes: its own when the result
// carries them (a baseline of its own), else the one figure of both.
func availableOf(res estimator.Result, rev estimator.Revision) estimator.Bytes {
	o := res.Baseline
	if rev == estimator.CandidateRev {
		o = res.Candidate
	}
	if o.AvailableBytes != nil {
		return *o.AvailableBytes
	}
	return res.AvailableBytes
}
