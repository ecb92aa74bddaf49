package page

import (
	"strconv"
	"strings"

	"headroom/estimator"
)

// A baseline of the user's own (the estimator's Config.Baseline) in the
// page: the "Compare" control chooses between the baseline of the three
// changes off (no Config.Baseline) and another setup (a Config.Baseline,
// which the compact form below the control edits).
//
// The form's controls have keys of their own, "b." and the field's key
// ("b.sequence_rows", "b.in_use_gib" for in use in GiB), as the
// estimator's URL keys do; their errors are keyed "b." and the field's
// key ("b.in_use_bytes"), so a baseline.overrides... message from the
// estimator lands beside its control. An empty field means "as the
// candidate": the override is removed.
const (
	BaselineKeyPrefix = "b."
	KeyCompare        = "compare"        // the mode menu; also the error key of a baseline message that names no field
	KeyComparePreset  = "compare-preset" // the menu of ready-made comparisons
	KeyBaseGPU        = "b.gpu"          // the baseline's GPU menu
	KeyBasePreset     = "b.preset"       // the baseline's model menu
	KeyBaseAdd        = "b.add"          // adds an override of any field
	KeyBaseRemove     = "b.remove"       // removes one (the edit's Text is the control key)
	KeyBaseChanges    = "b.changes"      // the error key of the baseline's switches
)

// The Compare menu's values, and the menus' "as the candidate" entry.
const (
	CompareChangesOff = "changes-off"
	CompareSetup      = "setup"
	SameAsCandidate   = "same"
)

// The ready-made comparisons (the comparisons menu): the baseline first.
const (
	ComparisonGPU      = "h100-h200"
	ComparisonSequence = "seq-4096-8192"
	ComparisonModel    = "model:" // followed by the baseline's preset ID
)

// baseKey is the field key of a form control ("b.rows" -> "rows").
func baseKey(control string) string { return strings.TrimPrefix(control, BaselineKeyPrefix) }

// ApplyCompare applies an edit of the Compare control or its form.
func (s *State) ApplyCompare(e Edit, list []Preset) {
	delete(s.InputErr, e.Key)
	switch {
	case e.Key == KeyCompare:
		s.setCompareMode(e.Text)
	case e.Key == KeyComparePreset:
		s.setComparison(e.Text, list)
	case e.Key == KeyBaseGPU:
		s.setBaselineGPU(e.Text)
	case e.Key == KeyBasePreset:
		s.setBaselineModel(e.Text, list)
	case e.Key == KeyBaseAdd:
		s.addOverride(e.Text)
	case e.Key == KeyBaseRemove:
		s.removeOverride(e.Text)
	case e.Key == KeyBaseProfile:
		s.setBaselineProfile(e.Text)
	case e.Kind == EditCheck:
		s.setBaselineCheck(baseKey(e.Key), e.On)
	case e.Kind == EditText:
		s.setBaselineText(e.Key, e.Text)
	}
}

// ownBaseline is a copy of the baseline to edit (Config values share the
// pointer: the shown config must not change under the page). Without one
// it starts as the candidate's switches and no override: the same setup.
func (s *State) ownBaseline() *estimator.Baseline {
	if s.Cfg.Baseline == nil {
		return &estimator.Baseline{Changes: s.Cfg.Changes, Overrides: estimator.Overrides{}}
	}
	b := s.Cfg.Baseline.Clone()
	if b.Overrides == nil {
		b.Overrides = estimator.Overrides{}
	}
	return b
}

// forgetBaseline drops every text and message of the form.
func (s *State) forgetBaseline() {
	for k := range s.Texts {
		if strings.HasPrefix(k, BaselineKeyPrefix) {
			delete(s.Texts, k)
		}
	}
	for k := range s.InputErr {
		if strings.HasPrefix(k, BaselineKeyPrefix) || k == KeyCompare {
			delete(s.InputErr, k)
		}
	}
}

// setCompareMode switches between the changes-off baseline and another
// setup. Back to "changes off" the setup is kept aside, and comes back
// when the user switches to "another setup" again.
func (s *State) setCompareMode(mode string) {
	switch mode {
	case CompareChangesOff:
		if s.Cfg.Baseline != nil {
			s.lastBaseline = s.Cfg.Baseline
		}
		s.Cfg.Baseline = nil
		s.forgetBaseline()
	case CompareSetup:
		if s.Cfg.Baseline == nil {
			if s.lastBaseline != nil {
				s.Cfg.Baseline = s.lastBaseline.Clone()
			} else {
				s.Cfg.Baseline = s.ownBaseline()
			}
		}
	default:
		s.InputErr[KeyCompare] = "must be " + CompareChangesOff + " or " + CompareSetup + ", got " + strconv.Quote(mode)
	}
}

// setComparison starts one of the ready-made comparisons: the candidate
// keeps its switches and the baseline takes the same ones, so the two
// differ only where the comparison says.
//
//   - h100-h200: the candidate on an H200, the baseline on an H100 80GB;
//   - art-estimator-gpu: ART's code on both sides, the baseline on its
//     estimator path, the candidate on its GPU placement path;
//   - seq-4096-8192: the candidate's sequences of 8,192 rows, the
//     baseline's of 4,096;
//   - seeds-art: the candidate priced by ART's code, the baseline by
//     the seeds' reading (docs/model.md §13), on the same setup;
//   - model:<preset>: the baseline is that preset's model, the candidate
//     keeps its own, on the candidate's GPU.
func (s *State) setComparison(id string, list []Preset) {
	b := &estimator.Baseline{Changes: s.Cfg.Changes, Overrides: estimator.Overrides{}}
	switch {
	case id == ComparisonGPU:
		s.Cfg.Budget.CapacityBytes = estimator.H200CapacityBytes
		s.GPU = GPUFor(s.Cfg.Budget.CapacityBytes)
		s.Forget(estimator.KeyCapacityBytes)
		b.Overrides["budget.capacity_bytes"] = estimator.Setting{Int: estimator.H100CapacityBytes}
	case id == ComparisonProfile:
		s.Cfg.Profile = estimator.ProfileArt
		s.Forget(KeyProfile)
		b.Overrides[KeyProfile] = estimator.Setting{Text: estimator.ProfileSeeds}
	case id == ComparisonGPUPath:
		on := true
		s.Cfg.Profile, s.Cfg.Art.GPUPlacement = estimator.ProfileArt, &on
		s.Forget(KeyProfile)
		s.Forget("gpu_placement")
		b.Overrides["art.gpu_placement"] = estimator.Setting{Bool: false}
	case id == ComparisonSequence:
		s.Cfg.Request.SequenceRows = 8192
		s.Forget("sequence_rows")
		b.Overrides["request.sequence_rows"] = estimator.Setting{Int: 4096}
	case strings.HasPrefix(id, ComparisonModel):
		p, ok := FindPreset(list, strings.TrimPrefix(id, ComparisonModel))
		if !ok {
			s.InputErr[KeyComparePreset] = "is not a comparison: " + strconv.Quote(id)
			return
		}
		modelOverrides(b, s.Cfg, p.Config)
		s.baselineResident(b, &p)
	default:
		s.InputErr[KeyComparePreset] = "is not a comparison: " + strconv.Quote(id)
		return
	}
	s.forgetBaseline()
	s.Cfg.Baseline = b
	if !s.Typed { // a typed range stays until Fit range: the person chose it
		s.ResetRange()
	}
}

// modelOverrides makes b's model that of model: an override for every
// preset field where model differs from cand, none where they agree.
func modelOverrides(b *estimator.Baseline, cand, model estimator.Config) {
	for _, f := range PresetFields() {
		delete(b.Overrides, f.Path)
		if f.Text(&model) == f.Text(&cand) {
			continue
		}
		v, set := f.Int(&model)
		b.Overrides[f.Path] = estimator.Setting{Int: v, Default: !set}
	}
}

// baselineModel is the baseline's model when it overrides any model
// field (nil otherwise): what a change of the candidate's preset keeps.
func (s *State) baselineModel() *estimator.Config {
	if s.Cfg.Baseline == nil {
		return nil
	}
	for _, f := range PresetFields() {
		if _, ok := s.Cfg.Baseline.Overrides[f.Path]; ok {
			bc, err := s.Cfg.BaselineConfig()
			if err != nil {
				return nil
			}
			return &bc
		}
	}
	return nil
}

// keepBaselineModel re-derives the baseline's model overrides after the
// candidate's model changed, so a baseline with a model of its own keeps
// it (one that follows the candidate's model goes on following it).
func (s *State) keepBaselineModel(model *estimator.Config) {
	if model == nil || s.Cfg.Baseline == nil {
		return
	}
	b := s.ownBaseline()
	modelOverrides(b, s.Cfg, *model)
	for _, f := range PresetFields() {
		s.Forget(BaselineKeyPrefix + f.Key)
	}
	s.Cfg.Baseline = b
}

// setBaselineGPU puts the baseline on a GPU of the table, or back on the
// candidate's ("same"); "custom" opens the capacity field at the
// candidate's capacity.
func (s *State) setBaselineGPU(id string) {
	b := s.ownBaseline()
	const path = "budget.capacity_bytes"
	switch id {
	case SameAsCandidate:
		delete(b.Overrides, path)
	default:
		g, err := estimator.GPUByID(id)
		if err != nil {
			s.InputErr[KeyBaseGPU] = err.Error()
			return
		}
		s.Forget(BaselineKeyPrefix + estimator.KeyCapacityBytes)
		capacity := g.CapacityBytes
		if capacity == 0 { // custom: the field, at the candidate's capacity, to type into
			capacity = s.Cfg.Budget.CapacityBytes
			s.Texts[BaselineKeyPrefix+estimator.KeyCapacityBytes] = strconv.FormatInt(capacity, 10)
		}
		b.Overrides[path] = estimator.Setting{Int: capacity}
		s.Cfg.Baseline = b
		return
	}
	s.Forget(BaselineKeyPrefix + estimator.KeyCapacityBytes)
	s.Cfg.Baseline = b
}

// setBaselineModel gives the baseline a preset's model, or the
// candidate's ("same").
func (s *State) setBaselineModel(id string, list []Preset) {
	b := s.ownBaseline()
	if id == SameAsCandidate {
		for _, f := range PresetFields() {
			delete(b.Overrides, f.Path)
		}
		s.baselineResident(b, nil)
	} else {
		p, ok := FindPreset(list, id)
		if !ok {
			s.InputErr[KeyBasePreset] = "is not a preset: " + strconv.Quote(id)
			return
		}
		modelOverrides(b, s.Cfg, p.Config)
		s.baselineResident(b, &p)
	}
	for _, f := range PresetFields() {
		s.Forget(BaselineKeyPrefix + f.Key)
	}
	s.Cfg.Baseline = b
}

// OverridableFields are the fields a baseline may override, in the
// registry's order: every field but the changes.
func OverridableFields() []*estimator.Field {
	var out []*estimator.Field
	for _, f := range estimator.Fields() {
		if !strings.HasPrefix(f.Path, "changes.") {
			out = append(out, f)
		}
	}
	return out
}

// overridable finds a field a baseline may override by its key.
func overridable(key string) (*estimator.Field, bool) {
	f, ok := estimator.FieldByKey(key)
	if !ok || f.Key != key || strings.HasPrefix(f.Path, "changes.") {
		return nil, false
	}
	return f, true
}

// addOverride adds a field to the form, overridden at the candidate's
// value for the user to change.
func (s *State) addOverride(key string) {
	f, ok := overridable(key)
	if !ok {
		s.InputErr[KeyBaseAdd] = "is not a field a baseline can override: " + strconv.Quote(key)
		return
	}
	b := s.ownBaseline()
	if _, dup := b.Overrides[f.Path]; !dup {
		b.Overrides[f.Path] = settingOf(f, s.Cfg)
	}
	s.Cfg.Baseline = b
}

// settingOf is field f's value in c as an override.
func settingOf(f *estimator.Field, c estimator.Config) estimator.Setting {
	if f.Kind == estimator.BoolField {
		return estimator.Setting{Bool: f.Bool(&c)}
	}
	v, set := f.Int(&c)
	return estimator.Setting{Int: v, Default: !set}
}

// removeOverride takes a field out of the form: the baseline follows the
// candidate there again.
func (s *State) removeOverride(control string) {
	key := baseKey(control)
	if key == KeyInUseGiB {
		key = estimator.KeyInUseBytes
	}
	f, ok := overridable(key)
	if !ok {
		return
	}
	b := s.ownBaseline()
	delete(b.Overrides, f.Path)
	s.Forget(BaselineKeyPrefix + key)
	if key == estimator.KeyInUseBytes {
		s.Forget(BaselineKeyPrefix + KeyInUseGiB)
	}
	s.Cfg.Baseline = b
}

// setBaselineCheck applies one of the baseline's switches: a change, or
// a boolean field the form overrides.
func (s *State) setBaselineCheck(key string, on bool) {
	f, ok := estimator.FieldByKey(key)
	if !ok || f.Kind != estimator.BoolField {
		return
	}
	b := s.ownBaseline()
	if strings.HasPrefix(f.Path, "changes.") {
		var tmp estimator.Config
		tmp.Changes = b.Changes
		f.SetBool(&tmp, on)
		b.Changes = tmp.Changes
	} else {
		b.Overrides[f.Path] = estimator.Setting{Bool: on}
	}
	s.Cfg.Baseline = b
}

// setBaselineText applies text typed into one of the form's fields: ""
// removes the override (the baseline follows the candidate), "auto" puts
// an optional field back to the baseline's own default, anything else is
// parsed as the candidate's field would be. A text that does not parse
// stays, with its message, and the override keeps its last value.
func (s *State) setBaselineText(control, text string) {
	key := baseKey(control)
	s.Texts[control] = text
	ek := ErrorKey(control)
	delete(s.InputErr, ek)
	b := s.ownBaseline()
	defer func() { s.Cfg.Baseline = b }()
	if key == KeyInUseGiB {
		const path = "budget.in_use_bytes"
		if strings.TrimSpace(text) == "" {
			delete(b.Overrides, path)
			return
		}
		v, err := estimator.ParseGiB(text)
		if err != nil {
			s.InputErr[ek] = err.Error()
			return
		}
		b.Overrides[path] = estimator.Setting{Int: v}
		return
	}
	f, ok := overridable(key)
	if !ok {
		delete(s.Texts, control)
		s.InputErr[KeyCompare] = strconv.Quote(control) + " is not a field a baseline can override"
		return
	}
	if strings.TrimSpace(text) == "" {
		delete(b.Overrides, f.Path)
		return
	}
	var tmp estimator.Config
	if err := f.SetText(&tmp, text); err != nil {
		s.InputErr[ek] = MessageOf(err)
		return
	}
	b.Overrides[f.Path] = settingOf(f, tmp)
}
