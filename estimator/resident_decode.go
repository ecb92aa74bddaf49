package estimator

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// residentKey marks the top-level key "resident", a group read by
// decodeResident rather than through the field registry.
var residentKey = &Field{Path: "resident", Key: "resident"}

// residentIntKeys are the integer fields of the resident group.
var residentIntKeys = map[string]func(*ResidentConfig) **int64{
	"weight_dtype_bytes": func(r *ResidentConfig) **int64 { return &r.WeightDtypeBytes },
	"expert_align":       func(r *ResidentConfig) **int64 { return &r.ExpertAlign },
	"lora_rank":          func(r *ResidentConfig) **int64 { return &r.LoRARank },
	"lora_dtype_bytes":   func(r *ResidentConfig) **int64 { return &r.LoRADtypeBytes },
	"grad_bytes":         func(r *ResidentConfig) **int64 { return &r.GradBytes },
	"optimizer_moments":  func(r *ResidentConfig) **int64 { return &r.OptimizerMoments },
	"moment_bytes":       func(r *ResidentConfig) **int64 { return &r.MomentBytes },
}

var residentKeys = []string{"expert_align", "framework_reserve_bytes", "grad_bytes", "include_mtp", "lora_dtype_bytes",
	"lora_rank", "lora_targets", "master_weights", "moment_bytes", "optimizer_moments", "weight_dtype_bytes"}

// decodeResident reads a resident group strictly into *dst: unknown keys,
// values of the wrong type and fractions are errors naming the field
// (name is "resident" or "baseline.overrides.resident"). null removes the
// group. Ranges are checked by Resolve.
func decodeResident(dst **ResidentConfig, name string, raw json.RawMessage, errs *ErrorList) {
	if string(bytes.TrimSpace(raw)) == "null" {
		*dst = nil
		return
	}
	obj, err := decodeObject(raw)
	if err != nil {
		*errs = append(*errs, &Error{Field: name, Message: err.Error()})
		return
	}
	rc := &ResidentConfig{set: map[string]bool{}}
	for _, key := range sortedKeys(obj) {
		path := name + "." + key
		s := string(bytes.TrimSpace(obj[key]))
		if slices.Contains(residentKeys, key) {
			rc.set[key] = true
		}
		if ref, ok := residentIntKeys[key]; ok {
			if v, err := nullableInt(path, s); err != nil {
				*errs = append(*errs, err)
			} else {
				*ref(rc) = v
			}
			continue
		}
		switch key {
		case "framework_reserve_bytes":
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				*errs = append(*errs, &Error{Field: path, Message: "must be an integer, got " + clip(s)})
				continue
			}
			rc.FrameworkReserveBytes = v
		case "include_mtp", "master_weights":
			if s != "true" && s != "false" {
				*errs = append(*errs, &Error{Field: path, Message: "must be true or false, got " + clip(s)})
				continue
			}
			v := s == "true"
			if key == "include_mtp" {
				rc.IncludeMTP = v
			} else {
				rc.MasterWeights = &v
			}
		case "lora_targets":
			var v []string
			if err := json.Unmarshal(obj[key], &v); err != nil {
				*errs = append(*errs, &Error{Field: path, Message: "must be a list of linear names, got " + clip(s)})
				continue
			}
			rc.LoRATargets = v
		default:
			*errs = append(*errs, &Error{Field: namedKey(name, key), Message: "is not a field of the resident group; allowed here: " + strings.Join(residentKeys, ", ")})
		}
	}
	*dst = rc
}

// notePresent records which of the registry's model keys a decoded
// "model" object holds, for §14.1's required fields.
func notePresent(m *ModelConfig, obj map[string]json.RawMessage) {
	a := &ArchFields{}
	if m.ArchFields != nil {
		*a = *m.ArchFields
	}
	m.ArchFields = a
	p := map[string]bool{}
	for key := range obj {
		if _, ok := groups["model"][key]; ok {
			p[key] = true
		}
	}
	a.present = p
}

// applyAbsentRules writes into a decoded config what absence means for a
// named architecture with a resident group (§14.1): no
// num_experts_per_tok in a dense Llama is 0 (elsewhere it is gpt-oss's
// experts_per_token when given), no moe_intermediate_size in Mixtral or
// gpt-oss is their intermediate_size (the experts' width, as hfconfig
// reads it), no linear_num_key_heads outside Qwen3-Next is 0. The config then says what it prices, and
// marshals to a config that reads back the same.
func applyAbsentRules(c *Config) {
	a := c.Model.ArchFields
	if a == nil || a.present == nil {
		return
	}
	fam, _, named, err := lookupFamily(a)
	if c.Resident == nil || err != nil || !named {
		a.present = nil // only §14.1's required rules read it
		if reflect.ValueOf(*a).IsZero() {
			c.Model.ArchFields = nil // none given: as a config before §14
		}
		return
	}
	p := make(map[string]bool, len(a.present)+2)
	for k := range a.present {
		p[k] = true
	}
	switch {
	case p["num_experts_per_tok"]:
	case fam == famLlama || fam == famGenericDense:
		c.Model.NumExpertsPerTok, p["num_experts_per_tok"] = 0, true
	case a.ExpertsPerToken != nil && *a.ExpertsPerToken >= 0 && *a.ExpertsPerToken <= 1024:
		// gpt-oss's name for the top-k sets the field the request reads.
		c.Model.NumExpertsPerTok, p["num_experts_per_tok"] = *a.ExpertsPerToken, true
	}
	if f := c.Model.IntermediateSize; !p["moe_intermediate_size"] && (fam == famMixtral || fam == famGptOss || fam == famGenericMoE) && f != nil && *f >= 1 && *f <= maxWidth {
		// Their experts are intermediate_size wide, as estimator/hfconfig reads it.
		c.Model.MoEIntermediateSize, p["moe_intermediate_size"] = *f, true
	}
	if !p["linear_num_key_heads"] && fam != famQwen3Next {
		c.Model.LinearNumKeyHeads, p["linear_num_key_heads"] = 0, true
	}
	a.present = p
}

// overrideResident gives the baseline config b the baseline's own
// resident group, and counts the model fields it overrides as present.
func overrideResident(b *Config, bl *Baseline) {
	if bl.Resident != nil {
		b.Resident = mergeResident(b.Resident, bl.Resident)
	}
	a := b.Model.ArchFields
	if a == nil || a.present == nil {
		return
	}
	var p map[string]bool
	for path := range bl.Overrides {
		if key, ok := strings.CutPrefix(path, "model."); ok {
			if p == nil {
				p = make(map[string]bool, len(a.present)+1)
				for k := range a.present {
					p[k] = true
				}
			}
			p[key] = true
		}
	}
	if p != nil {
		na := *a
		na.present = p
		b.Model.ArchFields = &na
	}
}

// mergeResident is the config's resident group base (nil: none) with the
// fields a baseline's group over sets replaced, as docs/model.md §11 overrides
// any field: the others keep the config's values. A group built in Go
// (over.set nil) sets every field.
func mergeResident(base, over *ResidentConfig) *ResidentConfig {
	if over.set == nil {
		return over
	}
	m := &ResidentConfig{}
	if base != nil {
		*m = *base
		m.set = nil
	}
	for key := range over.set {
		if ref, ok := residentIntKeys[key]; ok {
			*ref(m) = *ref(over)
			continue
		}
		switch key {
		case "framework_reserve_bytes":
			m.FrameworkReserveBytes = over.FrameworkReserveBytes
		case "include_mtp":
			m.IncludeMTP = over.IncludeMTP
		case "master_weights":
			m.MasterWeights = over.MasterWeights
		case "lora_targets":
			m.LoRATargets = over.LoRATargets
		}
	}
	return m
}

// overrideJSON writes a baseline's resident group as decodeResident read
// it: the keys it set, a zero or false among them, null for an integer
// set to null (back to its default).
func (r *ResidentConfig) overrideJSON() ([]byte, error) {
	if r.set == nil {
		return json.Marshal(r)
	}
	obj := map[string]any{}
	for key := range r.set {
		if ref, ok := residentIntKeys[key]; ok {
			obj[key] = *ref(r)
			continue
		}
		switch key {
		case "framework_reserve_bytes":
			obj[key] = r.FrameworkReserveBytes
		case "include_mtp":
			obj[key] = r.IncludeMTP
		case "master_weights":
			obj[key] = r.MasterWeights
		case "lora_targets":
			if r.LoRATargets == nil {
				obj[key] = []string{}
			} else {
				obj[key] = r.LoRATargets
			}
		}
	}
	return json.Marshal(obj)
}

// residentOverride takes "resident" out of a baseline's overrides object,
// decoding it into b.Resident, and returns the rest for decodeOverrides.
func residentOverride(b *Baseline, raw json.RawMessage, errs *ErrorList) json.RawMessage {
	obj, err := decodeObject(raw)
	if err != nil {
		return raw // decodeOverrides names the problem
	}
	r, ok := obj["resident"]
	if !ok {
		return raw
	}
	decodeResident(&b.Resident, "baseline.overrides.resident", r, errs)
	delete(obj, "resident")
	rest, err := json.Marshal(obj)
	if err != nil {
		return raw
	}
	return rest
}

// MarshalJSON writes the baseline as decodeBaseline reads it, its own
// resident group (if any) among the overrides.
func (b Baseline) MarshalJSON() ([]byte, error) {
	type plain Baseline
	if b.Resident == nil {
		return json.Marshal(plain(b))
	}
	ov, err := json.Marshal(b.Overrides)
	if err != nil {
		return nil, err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(ov, &obj); err != nil {
		return nil, err
	}
	if obj == nil {
		obj = map[string]json.RawMessage{}
	}
	if obj["resident"], err = b.Resident.overrideJSON(); err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		Changes   Changes                    `json:"changes"`
		Overrides map[string]json.RawMessage `json:"overrides"`
	}{b.Changes, obj})
}
