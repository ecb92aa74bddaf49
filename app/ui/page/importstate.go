package page

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	"headroom/estimator"
)

// WithImport returns the state that an imported file leads to; s itself
// is not changed, so a refused import leaves the page as it was.
//
//   - Headroom's own export restores the whole state: config, axis, range.
//   - A config in the spec's format sets every input; the chart keeps its
//     axis, over the default range for the new config.
//   - A Hugging Face config.json sets the model fields, as a preset does,
//     and dtype_bytes from its dtype; whatever the user typed elsewhere
//     stays, even if it is wrong.
//
// An import that would put a field in error is refused with the
// estimator's messages (for a Hugging Face file, a field that was not in
// error before: it does not fix what the user typed elsewhere), but for
// weights too large for the GPU at the expert parallelism: that model is
// imported, and the page offers the expert parallelism that fits.
func (s *State) WithImport(imp Imported, list []Preset) (State, error) {
	var next State
	before := map[string]string{} // the errors the import may leave as they are
	switch imp.Kind {
	case "export":
		if imp.View == nil {
			return State{}, errors.New("a Headroom export without its view")
		}
		q := ConfigQuery(imp.Config, list)
		q.Set(KeyAxis, imp.View.Axis)
		q.Set("from", strconv.FormatInt(imp.View.From, 10))
		q.Set("to", strconv.FormatInt(imp.View.To, 10))
		next = Decode(q, list)
	case "config":
		q := ConfigQuery(imp.Config, list)
		q.Set(KeyAxis, s.Axis)
		next = Decode(q, list)
	case "hf":
		next = s.Clone()
		next.Cfg.Model = imp.Config.Model
		// The import turns the resident group on (docs/model.md §14.4);
		// one the user has keeps its settings, but the adapter targets
		// go back to the new family's own list.
		if next.Cfg.Resident == nil || imp.Config.Resident == nil {
			next.Cfg.Resident = imp.Config.Resident
		} else if next.Cfg.Resident.LoRATargets != nil {
			r := *next.Cfg.Resident
			r.LoRATargets = nil
			next.Cfg.Resident = &r
		}
		for _, k := range []string{KeyLoRATargets, KeyResident, KeyArch} {
			next.Forget(k)
		}
		next.Cfg.FC2.DtypeBytes = imp.Config.FC2.DtypeBytes // from dtype or torch_dtype, else as it was
		for _, f := range PresetFields() {
			if strings.HasPrefix(f.Path, "model.") {
				next.Forget(f.Key)
			}
		}
		if next.Cfg.FC2.DtypeBytes != s.Cfg.FC2.DtypeBytes {
			next.Forget("dtype_bytes")
		}
		if !next.Typed { // a typed range stays until Fit range: the person chose it
			next.ResetRange()
		}
		next.Validate()
		before = s.Errs
		if next.WeightsDoNotFit() != "" {
			// Too large for one GPU at this expert parallelism: imported
			// all the same, and the page offers the expert parallelism
			// that fits, as a preset of the same size does.
			before = copyMap(s.Errs)
			before[KeyResident] = next.Errs[KeyResident]
		}
	default:
		return State{}, errors.New("nothing to import from a file of kind " + strconv.Quote(imp.Kind))
	}
	if msgs := newErrors(before, next.Errs); len(msgs) > 0 {
		return State{}, errors.New("the imported values do not fit: " + strings.Join(msgs, "; "))
	}
	return next, nil
}

// newErrors lists, sorted, the messages of next that before did not have.
func newErrors(before, next map[string]string) []string {
	var msgs []string
	for k, m := range next {
		if before[k] != m {
			name := k
			switch k {
			case KeyAxis, KeyFrom, KeyTo:
				name = "view." + urlKey(k) // the export's names
			case KeyConfig:
				name = "config:"
			default:
				if i, ok := termIndexOfKey(k); ok {
					name = "terms[" + strconv.Itoa(i) + "]" // the file's name for it
				}
			}
			msgs = append(msgs, name+" "+m)
		}
	}
	sort.Strings(msgs)
	return msgs
}

// Clone copies s, maps included, so that editing the copy leaves s as it is.
func (s *State) Clone() State {
	c := *s
	c.Texts = copyMap(s.Texts)
	c.InputErr = copyMap(s.InputErr)
	c.Errs = copyMap(s.Errs)
	return c
}

func copyMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// ImportReport is what the import panel shows after a file was read: what
// changed, or why nothing did.
type ImportReport struct {
	Err        string   // why the file was refused; the page kept its state
	Summary    string   // one sentence on what was imported
	Recognised []string // "vocab_size → model.vocab_size = 128,256"
	Derived    []string // fields set without a key, and why
	Notes      []string // keys read without setting a field (the expert count), or not used, and why
	Ignored    []string // keys of the file that no field takes
}

// ReportOf describes a successful import.
func ReportOf(imp Imported, next *State, list []Preset) ImportReport {
	model := "a custom model"
	if p, ok := FindPreset(list, MatchPreset(list, next.Cfg)); ok {
		model = p.Name
	}
	switch imp.Kind {
	case "export":
		return ImportReport{Summary: "Restored the whole page from a Headroom export: " + model + ", the chart along " +
			next.Axis + " from " + estimator.Group(next.From) + " to " + estimator.Group(next.To) + "."}
	case "config":
		return ImportReport{Summary: "Set every input from a config in the spec's format (" + model +
			"); the chart still sweeps " + next.Axis + "."}
	}
	r := ImportReport{Summary: "Filled in the model fields from a Hugging Face config.json; the request, FC2, budget and changes are as they were."}
	for _, f := range imp.HF.Recognised {
		line := f.Key + " → " + f.Field + " = " + estimator.Group(f.Value)
		if f.Why != "" {
			line += " (" + f.Why + ")"
		}
		if f.Field == "fc2.dtype_bytes" {
			r.Summary = "Filled in the model fields and dtype_bytes (from " + f.Key + ") from a Hugging Face config.json; the rest of the request, FC2, budget and changes are as they were."
		}
		r.Recognised = append(r.Recognised, line)
	}
	for _, f := range imp.HF.Derived {
		r.Derived = append(r.Derived, f.Field+" = "+estimator.Group(f.Value)+" ("+f.Why+")")
	}
	// Whether the weights are counted changes every figure: first.
	if next.WeightsDoNotFit() != "" {
		fit := "no expert parallelism the experts allow makes them fit this GPU"
		if e, _, ok := next.FitExpertParallel(); ok {
			fit = "the page offers expert parallelism " + estimator.Group(e) + ", the smallest that fits"
		}
		r.Notes = append(r.Notes, "the weights do not fit one GPU at fc2.expert_parallel "+estimator.Group(next.Cfg.FC2.ExpertParallel)+": "+fit)
	}
	switch {
	case imp.HF.ResidentOff != "":
		r.Notes = append(r.Notes, imp.HF.ResidentOff)
	case imp.HF.ResidentAssumed != "":
		r.Notes = append(r.Notes, "resident memory computed from the model: "+imp.HF.ResidentAssumed)
	}
	for _, n := range imp.HF.Notes {
		r.Notes = append(r.Notes, n.Key+" = "+n.Value+": "+n.Note)
	}
	r.Ignored = shownIgnored(imp.HF.Ignored)
	return r
}

// MaxIgnoredShown is how many ignored keys the import report lists.
const MaxIgnoredShown = 50

// shownIgnored is the report's list of ignored keys: the first
// MaxIgnoredShown, then a line counting the rest. A crafted file may
// hold hundreds of thousands (420,000 keys took 2.9 s to list),
// and nobody reads past the first screen.
func shownIgnored(keys []string) []string {
	if len(keys) <= MaxIgnoredShown {
		return append([]string(nil), keys...)
	}
	out := append([]string(nil), keys[:MaxIgnoredShown]...)
	return append(out, "… and "+estimator.Group(int64(len(keys)-MaxIgnoredShown))+" more ("+estimator.Group(int64(len(keys)))+" keys in all)")
}
