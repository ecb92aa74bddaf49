package hfconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/estimator"
)

// Three families' config.json keys, as estimator's figures test has them.
const (
	qwen3_30B = `"architectures": ["Qwen3MoeForCausalLM"], "vocab_size": 151936, "hidden_size": 2048,
		"num_hidden_layers": 48, "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128,
		"intermediate_size": 6144, "moe_intermediate_size": 768, "num_experts": 128,
		"num_experts_per_tok": 8, "decoder_sparse_step": 1, "mlp_only_layers": [],
		"tie_word_embeddings": false, "torch_dtype": "bfloat16"`
	deepseekV3 = `"architectures": ["DeepseekV3ForCausalLM"], "vocab_size": 129280, "hidden_size": 7168,
		"num_hidden_layers": 61, "num_attention_heads": 128, "num_key_value_heads": 128,
		"intermediate_size": 18432, "moe_intermediate_size": 2048, "n_routed_experts": 256,
		"n_shared_experts": 1, "num_experts_per_tok": 8, "first_k_dense_replace": 3, "moe_layer_freq": 1,
		"q_lora_rank": 1536, "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
		"v_head_dim": 128, "attention_bias": false, "tie_word_embeddings": false,
		"num_nextn_predict_layers": 1, "torch_dtype": "bfloat16"`
	qwen15MoE = `"architectures": ["Qwen2MoeForCausalLM"], "vocab_size": 151936, "hidden_size": 2048,
		"num_hidden_layers": 24, "num_attention_heads": 16, "num_key_value_heads": 16,
		"intermediate_size": 5632, "moe_intermediate_size": 1408, "shared_expert_intermediate_size": 5632,
		"num_experts": 60, "num_experts_per_tok": 4, "decoder_sparse_step": 1,
		"tie_word_embeddings": false, "torch_dtype": "bfloat16"`
)

// TestImportHFResident: the import keeps the count's fields and turns
// resident memory on for a family it can price, and off (saying why) for
// one it cannot, even when the config had it on.
func TestImportHFResident(t *testing.T) {
	t.Parallel()
	onBase := estimator.Default()
	onBase.Resident = &estimator.ResidentConfig{LoRARank: estimator.Int64(16)}
	onBase.FC2.ExpertParallel = 8
	tests := []struct {
		name, file string
		base       estimator.Config
		on         bool
		off        string // in ResidentOff
	}{
		{"named family", `{` + qwen3_30B + `}`, estimator.Default(), true, ""},
		{"keeps the config's group", `{` + qwen3_30B + `}`, onBase, true, ""},
		{"no family", `{"vocab_size": 1000, "hidden_size": 64, "num_hidden_layers": 2}`, onBase, false, "names no architectures"},
		{"no family, off before", `{"vocab_size": 1000, "hidden_size": 64, "num_hidden_layers": 2}`, estimator.Default(), false, ""},
		{"E does not divide the experts", `{` + qwen15MoE + `}`, onBase, false, "fc2.expert_parallel: 8 does not divide the 60 routed experts"},
		{"unknown family", `{"architectures": ["PhiForCausalLM"], "vocab_size": 1000, "hidden_size": 64, "num_hidden_layers": 2}`, estimator.Default(), false, `model.num_attention_heads: required for PhiForCausalLM (resident parameter count, by the generic formula`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, rep, err := Import(tt.base, []byte(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if (c.Resident != nil) != tt.on || (tt.off == "") != (rep.ResidentOff == "") || !strings.Contains(rep.ResidentOff, tt.off) {
				t.Errorf("resident %+v, off %q; want on %v, off %q", c.Resident, rep.ResidentOff, tt.on, tt.off)
			}
			if tt.on && tt.base.Resident != nil && c.Resident != tt.base.Resident {
				t.Error("the config's own resident group was replaced")
			}
		})
	}
	c, rep, err := Import(estimator.Default(), []byte(`{`+deepseekV3+`}`))
	if err != nil {
		t.Fatal(err)
	}
	if c.Model.KVLoRARank == nil || *c.Model.KVLoRARank != 512 || !contains(rep.Kept, "kv_lora_rank") || contains(rep.Ignored, "kv_lora_rank") {
		t.Errorf("kv_lora_rank not kept: %v", rep.Kept)
	}
	if p, err := estimator.Params(c); err != nil || p.Params.Total != 671_026_419_200 {
		t.Errorf("imported DeepSeek-V3 counts %+v, %v", p.Params, err)
	}
}

// TestImportGenericArchitectureSaysSo: a config.json of an architecture
// with no formula of its own (GLM-4.5-Air) imports with resident memory
// on, counted by the generic formula, and the report says what it
// assumed; a known family's report says nothing of the kind.
func TestImportGenericArchitectureSaysSo(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "hf", "glm-4.5-air.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, rep, err := Import(estimator.Default(), data)
	if err != nil {
		t.Fatal(err)
	}
	if c.Resident == nil || rep.ResidentOff != "" || !strings.HasPrefix(rep.ResidentAssumed, "Glm4MoeForCausalLM has no formula of its own; counted by the generic one") {
		t.Errorf("resident %+v, off %q, assumed %q", c.Resident, rep.ResidentOff, rep.ResidentAssumed)
	}
	_, rep, err = Import(estimator.Default(), []byte(`{`+qwen3_30B+`}`))
	if err != nil || rep.ResidentAssumed != "" {
		t.Errorf("Qwen3-MoE: err %v, assumed %q", err, rep.ResidentAssumed)
	}
}
