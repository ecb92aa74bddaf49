package hfconfig

import (
	"bytes"
	"encoding/json"
	"headroom/estimator"
	"reflect"
)

// hfOptionalWidths are the registry's optional model fields a config.json
// fills directly (read by the art profile and the resident count).
var hfOptionalWidths = []string{"model.intermediate_size", "model.shared_expert_intermediate_size", "model.linear_conv_kernel_dim"}

// archKeyList is every key of ArchFields, sorted.
var archKeyList = estimator.ArchKeys()

// hfArch keeps the fields the resident count reads (docs/model.md §14.1):
// architectures, the attention, expert and MLA fields, and the optional
// widths, listing each key in rep.Kept (or in Recognised for a registry
// field). A torch_dtype or dtype the count does not know ("auto",
// "float8_e4m3fn") is not kept: the count then takes bfloat16, and a note
// says so. The model's estimator.ArchFields are replaced by the file's.
func hfArch(cfg *estimator.Config, rep *Report, lookup lookupFunc, used map[string]bool) *estimator.Error {
	for _, path := range hfOptionalWidths {
		f := fieldByPath[path]
		raw, name, ok := lookup(f.Key)
		if !ok {
			f.Unset(cfg)
			continue
		}
		v, e := hfInt(f, name, raw)
		if e != nil {
			return e
		}
		f.SetInt(cfg, v)
		used[name] = true
		rep.Recognised = append(rep.Recognised, Field{Key: name, Field: path, Value: v})
	}
	a := &estimator.ArchFields{}
	for _, key := range archKeyList {
		raw, name, ok := lookup(key)
		if !ok {
			continue
		}
		if key == "torch_dtype" || key == "dtype" {
			var s string
			if json.Unmarshal(raw, &s) != nil || !weightDtype(s) {
				continue // the count takes bfloat16; hfDtype says what it made of it
			}
		}
		if e := a.DecodeKey(key, raw); e != nil {
			if !noted(rep, name) {
				rep.Notes = append(rep.Notes, Note{Key: name, Value: clip(string(bytes.TrimSpace(raw))), Note: "ignored: " + e.Message})
			}
			continue
		}
		used[name] = true
		rep.Kept = append(rep.Kept, name)
	}
	cfg.Model.ArchFields = nil
	if !reflect.ValueOf(*a).IsZero() {
		cfg.Model.ArchFields = a
	}
	return nil
}

// hfResidentOn turns resident memory on for an imported config (§14),
// keeping base's resident group if it had one, when the count can price
// the model: a family it knows, with its required fields, whose experts
// fc2.expert_parallel divides. Otherwise resident memory is off (even if
// base had it on: the count would describe another model) and
// rep.ResidentOff says why. Weights that do not fit the GPU do not stop
// it: the estimate then says so, in words and figures.
func hfResidentOn(cfg *estimator.Config, rep *Report) {
	a := cfg.Model.ArchFields
	if a == nil {
		a = &estimator.ArchFields{}
	}
	if len(a.Architectures) == 0 && a.ModelType == "" {
		if cfg.Resident != nil {
			rep.ResidentOff = "resident memory off: config.json names no architectures (nor model_type), so there is no formula to count its parameters"
		}
		cfg.Resident = nil
		return
	}
	try := *cfg
	if try.Resident == nil {
		try.Resident = &estimator.ResidentConfig{}
	}
	p, err := estimator.Params(try)
	if err != nil {
		rep.ResidentOff = "resident memory not computed for " + archName(a) + " (in_use_bytes stays as it was, so the estimate assumes nothing else on the GPU): " + err.Error()
		cfg.Resident = nil
		return
	}
	cfg.Resident = try.Resident
	rep.ResidentAssumed = p.Assumed
}

// weightDtype reports whether the resident count knows dtype name.
func weightDtype(name string) bool {
	_, ok := estimator.WeightDtypeBytes(name)
	return ok
}

func noted(rep *Report, key string) bool {
	for _, n := range rep.Notes {
		if n.Key == key {
			return true
		}
	}
	return false
}

func archName(a *estimator.ArchFields) string {
	if len(a.Architectures) > 0 {
		return a.Architectures[0]
	}
	return a.ModelType
}
