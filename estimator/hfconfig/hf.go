package hfconfig

import (
	"bytes"
	"encoding/json"
	"headroom/estimator"
	"math"
	"sort"
	"strconv"
)

// Report says what importModel did with a Hugging Face config.json: which
// keys filled which fields, which fields it set without a key (a dense
// model's num_experts_per_tok = 0, say), which keys it ignored, and notes
// on keys it read without setting a field (the expert count) or could
// not use (torch_dtype "auto").
type Report struct {
	Recognised []Field  `json:"recognised"`
	Derived    []Field  `json:"derived"`
	Ignored    []string `json:"ignored"`
	Notes      []Note   `json:"notes,omitempty"`
	// Kept are the keys kept for the resident count (docs/model.md §14.1):
	// architectures, the attention, expert and MLA fields.
	Kept []string `json:"kept,omitempty"`
	// ResidentOff says why Import left resident memory off for a
	// named family (a required field absent, say); empty when it is on or
	// no family is named.
	ResidentOff string `json:"resident_off,omitempty"`
	// ResidentAssumed is set when resident memory is on for an
	// architecture with no formula of its own: what the generic count
	// assumed of it (estimator.GenericAssumed).
	ResidentAssumed string `json:"resident_assumed,omitempty"`
}

// Field is one model field that importModel filled, and from where.
type Field struct {
	Key   string `json:"key"`   // the key in config.json, "text_config.vocab_size"; empty when derived
	Field string `json:"field"` // the field's path, "model.vocab_size"
	Value int64  `json:"value"`
	Why   string `json:"why,omitempty"`
}

// hfKeys maps config.json keys to model fields. Each field lists its
// accepted keys, the first found wins: gpt-oss writes experts_per_token
// beside num_experts_per_tok.
var hfKeys = []struct {
	field string
	keys  []string
}{
	{"model.vocab_size", []string{"vocab_size"}},
	{"model.hidden_size", []string{"hidden_size"}},
	{"model.num_hidden_layers", []string{"num_hidden_layers"}},
	{"model.num_experts_per_tok", []string{"num_experts_per_tok", "experts_per_token", "moe_topk"}},
	{"model.moe_intermediate_size", []string{"moe_intermediate_size"}},
	{"model.linear_num_key_heads", []string{"linear_num_key_heads"}},
	{"model.linear_key_head_dim", []string{"linear_key_head_dim"}},
	{"model.linear_num_value_heads", []string{"linear_num_value_heads"}},
	{"model.linear_value_head_dim", []string{"linear_value_head_dim"}},
}

// importModel fills a model group from a Hugging Face config.json: what
// Import does to the model fields, without the element size (its
// dtype keys are listed as ignored). It is
// tolerant, as a paste from a model card should be: unknown keys are
// ignored (and listed), and a multimodal config's text_config is read, its
// keys taking precedence over the top level. It is strict about the values
// it uses: each must be an integer within the field's range, or the error
// names the key and the field.
//
// Fields the file does not give are set from what their absence means:
// no num_experts_per_tok is a dense model (0, no fc2 stage); no
// linear_num_key_heads is a model without GDN (0). An MoE model without
// moe_intermediate_size (Mixtral, gpt-oss) uses intermediate_size as the
// expert width. The other fields keep their values in base.
func importModel(base estimator.ModelConfig, data []byte) (estimator.ModelConfig, Report, error) {
	cfg, rep, err := importHF(estimator.Config{Model: base}, data, false)
	return cfg.Model, rep, err
}

// Import fills base's model group from a Hugging Face config.json
// as importModel does, and fc2.dtype_bytes from its dtype (dtype, or
// torch_dtype as transformers wrote it before 4.56; the first found wins;
// see DtypeBytes): bfloat16
// and float16 are 2 bytes, float32 4, float64 8, every float8 type
// (float8_e4m3fn, float8_e5m2, ...) 1. "auto" and dtypes it does not know
// (int8, a 4-bit type) leave dtype_bytes as it was; the report lists the
// key as ignored, with a note saying why. Everything outside the model
// group and dtype_bytes is base's. On an error base is returned unchanged.
func Import(base estimator.Config, data []byte) (estimator.Config, Report, error) {
	return importHF(base, data, true)
}

func importHF(base estimator.Config, data []byte, withDtype bool) (estimator.Config, Report, error) {
	var rep Report
	if len(data) > estimator.MaxInputBytes {
		return base, rep, &estimator.Error{Field: "config.json", Message: "is larger than " + estimator.Group(estimator.MaxInputBytes) + " bytes"}
	}
	top, err := estimator.DecodeJSONObject(data)
	if err != nil {
		return base, rep, &estimator.Error{Field: "config.json", Message: withPosition(data, err.Error())}
	}
	var text map[string]json.RawMessage
	if raw, ok := top["text_config"]; ok && !isNull(raw) {
		text, err = estimator.DecodeJSONObject(raw)
		if err != nil {
			return base, rep, &estimator.Error{Field: "config.json text_config", Message: err.Error()}
		}
	}
	used := map[string]bool{}
	var lookup lookupFunc = func(key string) (json.RawMessage, string, bool) {
		if raw, ok := text[key]; ok && !isNull(raw) {
			return raw, "text_config." + key, true
		}
		if raw, ok := top[key]; ok && !isNull(raw) {
			return raw, key, true
		}
		return nil, "", false
	}

	cfg := base
	found := map[string]bool{}
	for _, m := range hfKeys {
		f := fieldByPath[m.field]
		for _, key := range m.keys {
			raw, name, ok := lookup(key)
			if !ok {
				continue
			}
			v, e := hfInt(f, name, raw)
			if e != nil {
				return base, Report{}, e
			}
			f.SetInt(&cfg, v)
			used[name] = true
			found[m.field] = true
			rep.Recognised = append(rep.Recognised, Field{Key: name, Field: f.Path, Value: v})
			break
		}
	}
	derive := func(path string, v int64, why string) {
		fieldByPath[path].SetInt(&cfg, v)
		rep.Derived = append(rep.Derived, Field{Field: path, Value: v, Why: why})
	}
	if !found["model.num_experts_per_tok"] {
		derive("model.num_experts_per_tok", 0, "no num_experts_per_tok: a dense model, no fc2 stage")
	}
	if !found["model.linear_num_key_heads"] {
		derive("model.linear_num_key_heads", 0, "no linear_num_key_heads: no GDN layers")
	}
	if !found["model.moe_intermediate_size"] && cfg.Model.NumExpertsPerTok > 0 {
		if raw, name, ok := lookup("intermediate_size"); ok {
			v, e := hfInt(fieldByPath["model.moe_intermediate_size"], name, raw)
			if e != nil {
				return base, Report{}, e
			}
			used[name] = true
			derive("model.moe_intermediate_size", v, "no moe_intermediate_size: the experts use "+name)
		}
	}
	for _, f := range []string{"model.vocab_size", "model.hidden_size", "model.num_hidden_layers"} {
		if !found[f] {
			return base, Report{}, &estimator.Error{Field: f, Message: "config.json has no " + f[len("model."):] + " (nor text_config." + f[len("model."):] + "); is this a model's config.json?"}
		}
	}
	if e := hfExperts(&cfg, &rep, lookup, used); e != nil {
		return base, Report{}, e
	}
	if e := hfArch(&cfg, &rep, lookup, used); e != nil {
		return base, Report{}, e
	}
	if withDtype {
		hfDtype(&cfg, &rep, lookup, used)
		hfResidentOn(&cfg, &rep)
	}
	for key := range top {
		if key != "text_config" && !used[key] {
			rep.Ignored = append(rep.Ignored, key)
		}
	}
	for key := range text {
		if !used["text_config."+key] {
			rep.Ignored = append(rep.Ignored, "text_config."+key)
		}
	}
	sort.Strings(rep.Ignored)
	return cfg, rep, nil
}

// fieldByPath is the registry's fields by path ("model.vocab_size"),
// the ones this package's tables name among them (copies: setting a
// value through one is setting it through the registry's).
var fieldByPath = func() map[string]*estimator.Field {
	m := map[string]*estimator.Field{}
	for _, f := range append(estimator.Fields(), estimator.ArtFields()...) {
		m[f.Path] = f
	}
	return m
}()

// clip shortens a value of config.json for a message.
func clip(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return s
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// hfInt reads one integer value of config.json for field f. Integral
// floats ("2048.0") are accepted, since some exporters write them.
func hfInt(f *estimator.Field, key string, raw json.RawMessage) (int64, *estimator.Error) {
	s := string(bytes.TrimSpace(raw))
	where := f.Path + " (config.json " + key + ")"
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		fl, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || math.Trunc(fl) != fl || math.Abs(fl) > 1<<53 {
			return 0, &estimator.Error{Field: where, Message: f.Allowed() + ", got " + clip(s)}
		}
		v = int64(fl) // exact: an integer of at most 2^53
	}
	if v < f.Min || v > f.Max {
		return 0, &estimator.Error{Field: where, Message: f.Allowed() + ", got " + estimator.Group(v)}
	}
	return v, nil
}
