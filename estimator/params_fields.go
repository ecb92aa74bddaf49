package estimator

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// ArchFields are the model fields only the resident parameter count reads
// (docs/model.md §14.1), under their Hugging Face config.json names. They
// sit in the "model" group of the JSON beside the fields of docs/model.md §2, but
// not in the field registry: they are lists, strings and flags as much as
// integers, the page has no control for them, and a config that leaves
// them all out marshals exactly as before. Every field is optional: nil
// (or empty) is "absent", and absence means what §14.1 says for the
// family.
type ArchFields struct {
	Architectures         []string `json:"architectures,omitempty"`
	ModelType             string   `json:"model_type,omitempty"`
	NumAttentionHeads     *int64   `json:"num_attention_heads,omitempty"`
	NumKeyValueHeads      *int64   `json:"num_key_value_heads,omitempty"`
	HeadDim               *int64   `json:"head_dim,omitempty"`
	NumExperts            *int64   `json:"num_experts,omitempty"`
	NumLocalExperts       *int64   `json:"num_local_experts,omitempty"`
	NRoutedExperts        *int64   `json:"n_routed_experts,omitempty"`
	ExpertsPerToken       *int64   `json:"experts_per_token,omitempty"`
	NSharedExperts        *int64   `json:"n_shared_experts,omitempty"`
	DecoderSparseStep     *int64   `json:"decoder_sparse_step,omitempty"`
	MLPOnlyLayers         []int64  `json:"mlp_only_layers,omitempty"`
	FirstKDenseReplace    *int64   `json:"first_k_dense_replace,omitempty"`
	MoELayerFreq          *int64   `json:"moe_layer_freq,omitempty"`
	QLoRARank             *int64   `json:"q_lora_rank,omitempty"`
	KVLoRARank            *int64   `json:"kv_lora_rank,omitempty"`
	QKNopeHeadDim         *int64   `json:"qk_nope_head_dim,omitempty"`
	QKRopeHeadDim         *int64   `json:"qk_rope_head_dim,omitempty"`
	VHeadDim              *int64   `json:"v_head_dim,omitempty"`
	LayerTypes            []string `json:"layer_types,omitempty"`
	FullAttentionInterval *int64   `json:"full_attention_interval,omitempty"`
	AttentionBias         *bool    `json:"attention_bias,omitempty"`
	MLPBias               *bool    `json:"mlp_bias,omitempty"`
	TieWordEmbeddings     *bool    `json:"tie_word_embeddings,omitempty"`
	TorchDtype            string   `json:"torch_dtype,omitempty"`
	Dtype                 string   `json:"dtype,omitempty"`
	NumNextnPredictLayers *int64   `json:"num_nextn_predict_layers,omitempty"`
	MTPNumHiddenLayers    *int64   `json:"mtp_num_hidden_layers,omitempty"`

	// present lists the registry's model keys a decoded JSON config held
	// ("vocab_size", ...), for §14.1's "required" rules; nil (a config
	// built in Go) counts every one of them as present. It is shared by
	// copies of the config and never changed after decoding.
	present map[string]bool
}

// arch returns m's ArchFields, a zero one when it has none.
func (m *ModelConfig) arch() *ArchFields {
	if m.ArchFields == nil {
		return &ArchFields{}
	}
	return m.ArchFields
}

// archIntKeys are the integer keys of ArchFields, by JSON name.
var archIntKeys = map[string]func(*ArchFields) **int64{
	"num_attention_heads":      func(a *ArchFields) **int64 { return &a.NumAttentionHeads },
	"num_key_value_heads":      func(a *ArchFields) **int64 { return &a.NumKeyValueHeads },
	"head_dim":                 func(a *ArchFields) **int64 { return &a.HeadDim },
	"num_experts":              func(a *ArchFields) **int64 { return &a.NumExperts },
	"num_local_experts":        func(a *ArchFields) **int64 { return &a.NumLocalExperts },
	"n_routed_experts":         func(a *ArchFields) **int64 { return &a.NRoutedExperts },
	"experts_per_token":        func(a *ArchFields) **int64 { return &a.ExpertsPerToken },
	"n_shared_experts":         func(a *ArchFields) **int64 { return &a.NSharedExperts },
	"decoder_sparse_step":      func(a *ArchFields) **int64 { return &a.DecoderSparseStep },
	"first_k_dense_replace":    func(a *ArchFields) **int64 { return &a.FirstKDenseReplace },
	"moe_layer_freq":           func(a *ArchFields) **int64 { return &a.MoELayerFreq },
	"q_lora_rank":              func(a *ArchFields) **int64 { return &a.QLoRARank },
	"kv_lora_rank":             func(a *ArchFields) **int64 { return &a.KVLoRARank },
	"qk_nope_head_dim":         func(a *ArchFields) **int64 { return &a.QKNopeHeadDim },
	"qk_rope_head_dim":         func(a *ArchFields) **int64 { return &a.QKRopeHeadDim },
	"v_head_dim":               func(a *ArchFields) **int64 { return &a.VHeadDim },
	"full_attention_interval":  func(a *ArchFields) **int64 { return &a.FullAttentionInterval },
	"num_nextn_predict_layers": func(a *ArchFields) **int64 { return &a.NumNextnPredictLayers },
	"mtp_num_hidden_layers":    func(a *ArchFields) **int64 { return &a.MTPNumHiddenLayers },
}

var archBoolKeys = map[string]func(*ArchFields) **bool{
	"attention_bias":      func(a *ArchFields) **bool { return &a.AttentionBias },
	"mlp_bias":            func(a *ArchFields) **bool { return &a.MLPBias },
	"tie_word_embeddings": func(a *ArchFields) **bool { return &a.TieWordEmbeddings },
}

var archStringKeys = map[string]func(*ArchFields) *string{
	"model_type":  func(a *ArchFields) *string { return &a.ModelType },
	"torch_dtype": func(a *ArchFields) *string { return &a.TorchDtype },
	"dtype":       func(a *ArchFields) *string { return &a.Dtype },
}

// isArchKey reports whether key is a field of ArchFields.
// ArchKeys lists every key of ArchFields as a config.json names it
// ("architectures", "head_dim", ...), sorted; each call returns a fresh
// slice.
func ArchKeys() []string {
	keys := []string{"architectures", "layer_types", "mlp_only_layers"}
	for k := range archIntKeys {
		keys = append(keys, k)
	}
	for k := range archBoolKeys {
		keys = append(keys, k)
	}
	for k := range archStringKeys {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// DecodeKey reads one key of ArchFields (one of ArchKeys) from its JSON
// value into a, as the "model" group's decoder does; a value of the
// wrong shape is an error naming model.<key>, and a is left as it was.
func (a *ArchFields) DecodeKey(key string, raw json.RawMessage) *Error {
	return decodeArchKey(a, key, raw)
}

func isArchKey(key string) bool {
	_, i := archIntKeys[key]
	_, b := archBoolKeys[key]
	_, s := archStringKeys[key]
	return i || b || s || key == "architectures" || key == "layer_types" || key == "mlp_only_layers"
}

// nullableInt reads s, the trimmed JSON of field, as an integer or null
// (nil), for the optional counts of ArchFields and the resident group.
func nullableInt(field, s string) (*int64, *Error) {
	if s == "null" {
		return nil, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil, &Error{Field: field, Message: "must be an integer or null, got " + clip(s)}
	}
	return &v, nil
}

// decodeArchKey reads one ArchFields key of the "model" group strictly:
// an integer (or null) for a count, true, false or null for a flag, a
// string for a name, a list of strings or integers for the lists. The
// range of each value is checked when the resident count resolves it.
func decodeArchKey(a *ArchFields, key string, raw json.RawMessage) *Error {
	path := "model." + key
	s := string(bytes.TrimSpace(raw))
	if ref, ok := archIntKeys[key]; ok {
		v, err := nullableInt(path, s)
		if err == nil {
			*ref(a) = v
		}
		return err
	}
	if ref, ok := archBoolKeys[key]; ok {
		switch s {
		case "null":
			*ref(a) = nil
		case "true", "false":
			v := s == "true"
			*ref(a) = &v
		default:
			return &Error{Field: path, Message: "must be true, false or null, got " + clip(s)}
		}
		return nil
	}
	if ref, ok := archStringKeys[key]; ok {
		var v *string
		if err := json.Unmarshal(raw, &v); err != nil {
			return &Error{Field: path, Message: "must be a string or null, got " + clip(s)}
		}
		*ref(a) = ""
		if v != nil {
			*ref(a) = *v
		}
		return nil
	}
	switch key {
	case "architectures", "layer_types":
		var v []string
		if err := json.Unmarshal(raw, &v); err != nil {
			return &Error{Field: path, Message: "must be a list of strings or null, got " + clip(s)}
		}
		if key == "architectures" {
			a.Architectures = v
		} else {
			a.LayerTypes = v
		}
	case "mlp_only_layers":
		var v []int64
		if err := json.Unmarshal(raw, &v); err != nil {
			return &Error{Field: path, Message: "must be a list of integers or null, got " + clip(s)}
		}
		a.MLPOnlyLayers = v
	}
	return nil
}

// family is a formula of §14.2.
type family int

const (
	famLlama family = iota
	famMixtral
	famQwen2MoE
	famQwen3MoE
	famDeepSeekV3
	famQwen3Next
	famGptOss
	// famGenericMoE and famGenericDense count an architecture with no
	// formula of its own from the standard fields (§14.2, "Any other
	// architecture"): with routed experts, or without.
	famGenericMoE
	famGenericDense
)

// genericAssumed is what the generic formula assumes of a model it does
// not know, said wherever its count is shown (the resident result, the
// import report, params).
var genericAssumed = []string{
	"grouped-query attention (q, k, v, o projections; attention_bias adds q, k and v biases, no o bias; no q/k norms)",
	"a gated MLP (gate, up, down) in the dense layers, intermediate_size wide",
	"in each MoE layer a router without bias, the routed experts as gated MLPs moe_intermediate_size wide (else intermediate_size), and n_shared_experts shared experts of that width (or one shared_expert_intermediate_size wide, without a gate)",
	"MoE layers from first_k_dense_replace and moe_layer_freq, else decoder_sparse_step and mlp_only_layers, else every layer",
	"two norms a layer and a final norm; multi-token prediction layers not counted",
}

// GenericAssumed is what the count assumes of arch when it has no
// formula of its own (docs/model.md §14.2), as one sentence.
func GenericAssumed(arch string) string {
	return arch + " has no formula of its own; counted by the generic one, which assumes " + strings.Join(genericAssumed, "; ")
}

// archNames maps architectures[0] to its family; modelTypes model_type.
var archNames = []struct {
	name string
	fam  family
}{
	{"LlamaForCausalLM", famLlama},
	{"MixtralForCausalLM", famMixtral},
	{"Qwen2MoeForCausalLM", famQwen2MoE},
	{"Qwen3MoeForCausalLM", famQwen3MoE},
	{"DeepseekV3ForCausalLM", famDeepSeekV3},
	{"Qwen3NextForCausalLM", famQwen3Next},
	{"Qwen3_5MoeForCausalLM", famQwen3Next},
	{"Qwen3_5MoeForConditionalGeneration", famQwen3Next},
	{"GptOssForCausalLM", famGptOss},
}

var modelTypes = map[string]family{
	"llama": famLlama, "mixtral": famMixtral, "qwen2_moe": famQwen2MoE, "qwen3_moe": famQwen3MoE,
	"deepseek_v3": famDeepSeekV3, "qwen3_next": famQwen3Next, "qwen3_5_moe": famQwen3Next,
	"qwen3_5_moe_text": famQwen3Next, "gpt_oss": famGptOss,
}

// familyArch is the architecture name a family is reported under when the
// config names it only by model_type.
var familyArch = map[family]string{
	famLlama: "LlamaForCausalLM", famMixtral: "MixtralForCausalLM", famQwen2MoE: "Qwen2MoeForCausalLM",
	famQwen3MoE: "Qwen3MoeForCausalLM", famDeepSeekV3: "DeepseekV3ForCausalLM",
	famQwen3Next: "Qwen3NextForCausalLM", famGptOss: "GptOssForCausalLM",
}

func knownArchitectures() string {
	names := make([]string, len(archNames))
	for i, a := range archNames {
		names[i] = a.name
	}
	return strings.Join(names, ", ")
}

// lookupFamily picks the family: architectures[0], else model_type, else
// the explorer's default (Qwen3-Next-80B-A3B, named false).
func lookupFamily(a *ArchFields) (fam family, arch string, named bool, err *Error) {
	if len(a.Architectures) > 0 {
		arch = a.Architectures[0]
		for _, n := range archNames {
			if n.name == arch {
				return n.fam, arch, true, nil
			}
		}
		return genericFamily(a), arch, true, nil
	}
	if a.ModelType != "" {
		if f, ok := modelTypes[a.ModelType]; ok {
			return f, familyArch[f], true, nil
		}
		return genericFamily(a), a.ModelType, true, nil
	}
	return famQwen3Next, "Qwen3NextForCausalLM", false, nil
}

// genericFamily is the generic formula for a model it does not know:
// with routed experts when the config gives an expert count.
func genericFamily(a *ArchFields) family {
	if a.NumExperts != nil || a.NumLocalExperts != nil || a.NRoutedExperts != nil {
		return famGenericMoE
	}
	return famGenericDense
}

// IsGeneric reports whether m's count is the generic formula's.
func (m *archModel) isGeneric() bool { return m.fam == famGenericMoE || m.fam == famGenericDense }

// TotalExperts is the model's total number of routed experts X
// (docs/model.md §14.1) as the config gives it: num_experts, else
// num_local_experts, else n_routed_experts (the HF import keeps them);
// false when none is given.
func TotalExperts(m ModelConfig) (int64, bool) {
	if a := m.ArchFields; a != nil {
		for _, p := range []*int64{a.NumExperts, a.NumLocalExperts, a.NRoutedExperts} {
			if p != nil {
				return *p, true
			}
		}
	}
	return 0, false
}

// RoutedExperts is the number of routed experts X that the resident count
// divides among fc2.expert_parallel GPUs (docs/model.md §14.1, §14.4),
// and whether the model has any: false for a dense family, and when the
// model's family or expert count is at fault (Resolve says why). It reads
// only the model's family and expert fields, so it costs nothing at any
// layer count.
func (c Config) RoutedExperts() (int64, bool) {
	a := c.Model.arch()
	fam, arch, named, err := lookupFamily(a)
	m := archModel{fam: fam, arch: arch}
	if err != nil || !m.isMoE() {
		return 0, false
	}
	var errs ErrorList
	x := m.resolveExperts(a, named, &errs)
	if len(errs) > 0 || x < 1 {
		return 0, false
	}
	return x, true
}
