package estimator

import (
	"encoding/json"
	"testing"
)

// The config.json fields of the models docs/model.md §14.5 checks, as the
// sources it cites give them (only the fields the count reads).
var (
	llama31_8B = `"architectures": ["LlamaForCausalLM"], "vocab_size": 128256, "hidden_size": 4096,
		"num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
		"intermediate_size": 14336, "tie_word_embeddings": false, "attention_bias": false,
		"mlp_bias": false, "torch_dtype": "bfloat16"`
	mixtral8x7B = `"architectures": ["MixtralForCausalLM"], "vocab_size": 32000, "hidden_size": 4096,
		"num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
		"intermediate_size": 14336, "num_local_experts": 8, "num_experts_per_tok": 2,
		"tie_word_embeddings": false, "torch_dtype": "bfloat16"`
	qwen3_30B = `"architectures": ["Qwen3MoeForCausalLM"], "vocab_size": 151936, "hidden_size": 2048,
		"num_hidden_layers": 48, "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128,
		"intermediate_size": 6144, "moe_intermediate_size": 768, "num_experts": 128,
		"num_experts_per_tok": 8, "decoder_sparse_step": 1, "mlp_only_layers": [],
		"tie_word_embeddings": false, "torch_dtype": "bfloat16"`
	qwen3_235B = `"architectures": ["Qwen3MoeForCausalLM"], "vocab_size": 151936, "hidden_size": 4096,
		"num_hidden_layers": 94, "num_attention_heads": 64, "num_key_value_heads": 4, "head_dim": 128,
		"intermediate_size": 12288, "moe_intermediate_size": 1536, "num_experts": 128,
		"num_experts_per_tok": 8, "decoder_sparse_step": 1, "mlp_only_layers": [],
		"tie_word_embeddings": false, "torch_dtype": "bfloat16"`
	qwen3Next80B = `"architectures": ["Qwen3NextForCausalLM"], "vocab_size": 151936, "hidden_size": 2048,
		"num_hidden_layers": 48, "num_attention_heads": 16, "num_key_value_heads": 2, "head_dim": 256,
		"intermediate_size": 5120, "moe_intermediate_size": 512, "shared_expert_intermediate_size": 512,
		"num_experts": 512, "num_experts_per_tok": 10, "decoder_sparse_step": 1, "mlp_only_layers": [],
		"full_attention_interval": 4, "linear_num_key_heads": 16, "linear_key_head_dim": 128,
		"linear_num_value_heads": 32, "linear_value_head_dim": 128, "linear_conv_kernel_dim": 4,
		"tie_word_embeddings": false, "torch_dtype": "bfloat16"`
	deepseekV3 = `"architectures": ["DeepseekV3ForCausalLM"], "vocab_size": 129280, "hidden_size": 7168,
		"num_hidden_layers": 61, "num_attention_heads": 128, "num_key_value_heads": 128,
		"intermediate_size": 18432, "moe_intermediate_size": 2048, "n_routed_experts": 256,
		"n_shared_experts": 1, "num_experts_per_tok": 8, "first_k_dense_replace": 3, "moe_layer_freq": 1,
		"q_lora_rank": 1536, "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
		"v_head_dim": 128, "attention_bias": false, "tie_word_embeddings": false,
		"num_nextn_predict_layers": 1, "torch_dtype": "bfloat16"`
	gptOss120B = `"architectures": ["GptOssForCausalLM"], "vocab_size": 201088, "hidden_size": 2880,
		"num_hidden_layers": 36, "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 64,
		"intermediate_size": 2880, "num_local_experts": 128, "experts_per_token": 4,
		"num_experts_per_tok": 4, "attention_bias": true, "tie_word_embeddings": false,
		"torch_dtype": "bfloat16"`
	gptOss20B = `"architectures": ["GptOssForCausalLM"], "vocab_size": 201088, "hidden_size": 2880,
		"num_hidden_layers": 24, "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 64,
		"intermediate_size": 2880, "num_local_experts": 32, "experts_per_token": 4,
		"num_experts_per_tok": 4, "attention_bias": true, "tie_word_embeddings": false,
		"torch_dtype": "bfloat16"`
	qwen15MoE = `"architectures": ["Qwen2MoeForCausalLM"], "vocab_size": 151936, "hidden_size": 2048,
		"num_hidden_layers": 24, "num_attention_heads": 16, "num_key_value_heads": 16,
		"intermediate_size": 5632, "moe_intermediate_size": 1408, "shared_expert_intermediate_size": 5632,
		"num_experts": 60, "num_experts_per_tok": 4, "decoder_sparse_step": 1,
		"tie_word_embeddings": false, "torch_dtype": "bfloat16"`
	qwen2_57B = `"architectures": ["Qwen2MoeForCausalLM"], "vocab_size": 151936, "hidden_size": 3584,
		"num_hidden_layers": 28, "num_attention_heads": 28, "num_key_value_heads": 4,
		"intermediate_size": 18944, "moe_intermediate_size": 2560, "shared_expert_intermediate_size": 20480,
		"num_experts": 64, "num_experts_per_tok": 8, "decoder_sparse_step": 1,
		"tie_word_embeddings": false, "torch_dtype": "bfloat16"`
	qwen35_35B = `"architectures": ["Qwen3_5MoeForConditionalGeneration"], "vocab_size": 248320,
		"hidden_size": 2048, "num_hidden_layers": 40, "num_attention_heads": 16, "num_key_value_heads": 2,
		"head_dim": 256, "moe_intermediate_size": 512, "shared_expert_intermediate_size": 512,
		"num_experts": 256, "num_experts_per_tok": 8, "full_attention_interval": 4,
		"linear_num_key_heads": 16, "linear_key_head_dim": 128, "linear_num_value_heads": 32,
		"linear_value_head_dim": 128, "linear_conv_kernel_dim": 4, "mtp_num_hidden_layers": 1,
		"tie_word_embeddings": false, "dtype": "bfloat16"`
)

// modelConfig decodes a config whose model group is fields, with more
// (other groups, as JSON members) after it.
func modelConfig(t *testing.T, fields string, more string) Config {
	t.Helper()
	src := `{"model": {` + fields + `}` + more + `}`
	c, err := DecodeModelConfig([]byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return c
}

func mustParams(t *testing.T, c Config) ParamReport {
	t.Helper()
	rep, err := Params(c)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestParamsPublished: every parameter count of §14.5 (the published
// figures, which the formulas reproduce exactly).
func TestParamsPublished(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                   string
		fields                 string
		total, active, experts int64
		mtp, tensors           int64 // 0: not checked
	}{
		{"Llama-3.1-8B", llama31_8B, 8_030_261_248, 8_030_261_248, 0, 0, 0},
		{"Mixtral-8x7B", mixtral8x7B, 46_702_792_704, 12_879_925_248, 0, 0, 0},
		{"Qwen3-30B-A3B", qwen3_30B, 30_532_122_624, 3_353_032_704, 0, 0, 0},
		{"Qwen3-235B-A22B", qwen3_235B, 235_093_634_560, 22_190_763_520, 0, 0, 36_945},
		{"Qwen3-Next-80B-A3B", qwen3Next80B, 79_674_391_296, 3_874_929_408, 77_309_411_328, 0, 74_391},
		{"DeepSeek-V3", deepseekV3, 671_026_419_200, 37_552_297_472, 0, 11_610_068_224, 0},
		{"gpt-oss-120b", gptOss120B, 116_829_156_672, 0, 114_714_874_368 - 36*(2880*128+128), 0, 0},
		{"gpt-oss-20b", gptOss20B, 20_914_757_184, 0, 0, 0, 0},
		{"Qwen1.5-MoE-A2.7B", qwen15MoE, 14_315_784_192, 0, 0, 0, 0},
		{"Qwen2-57B-A14B", qwen2_57B, 57_408_658_944, 0, 0, 0, 0},
		{"Qwen3.5-35B-A3B text", qwen35_35B, 34_660_610_688, 0, 0, 844_640_768, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustParams(t, modelConfig(t, tt.fields, "")).Params
			if got.Total != tt.total {
				t.Errorf("total %d, want %d (difference %d)", got.Total, tt.total, got.Total-tt.total)
			}
			if tt.active != 0 && got.Active != tt.active {
				t.Errorf("active %d, want %d", got.Active, tt.active)
			}
			if tt.experts != 0 && got.Experts != tt.experts {
				t.Errorf("experts %d, want %d", got.Experts, tt.experts)
			}
			if tt.mtp != 0 && got.MTP != tt.mtp {
				t.Errorf("mtp %d, want %d", got.MTP, tt.mtp)
			}
			if tt.tensors != 0 && got.Tensors != tt.tensors {
				t.Errorf("tensors %d, want %d", got.Tensors, tt.tensors)
			}
			if got.NonExpert != got.Total-got.Experts {
				t.Errorf("non_expert %d != total - experts %d", got.NonExpert, got.Total-got.Experts)
			}
		})
	}
}

// TestParamsPublishedParts: the finer figures of §14.5: Qwen3-Next with
// its MTP module, DeepSeek-V3's copies, gpt-oss-120b's card in its parts,
// and the Qwen3.5 total with its vision tower.
func TestParamsPublishedParts(t *testing.T) {
	t.Parallel()
	next := mustParams(t, modelConfig(t, qwen3Next80B+`, "mtp_num_hidden_layers": 1`, "")).Params
	if next.MTP != 1_650_471_424 || next.Total+next.MTP != 81_324_862_720 {
		t.Errorf("Qwen3-Next MTP %d (total with it %d), want 1,650,471,424 (81,324,862,720)", next.MTP, next.Total+next.MTP)
	}
	if next.Tensors+next.MTPTensors != 75_944 {
		t.Errorf("Qwen3-Next checkpoint tensors %d, want 75,944", next.Tensors+next.MTPTensors)
	}
	if nonEmb := next.Total - 151936*2048*2; nonEmb != 79_052_061_440 {
		t.Errorf("Qwen3-Next non-embedding %d, want 79,052,061,440", nonEmb)
	}
	ds := mustParams(t, modelConfig(t, deepseekV3, "")).Params
	// The Hub's FP8 checkpoint adds its 128x128 F32 scales: of its
	// 41,555,600 F32 values, 59 x 256 are e_score_correction_bias (58
	// MoE layers and the MTP module's), the rest scales.
	const dsCopy, scales = 129280 * 7168, 41_555_600 - 59*256
	if dsCopy != 926_679_040 || ds.Total+ds.MTP+2*dsCopy+scales != 684_531_386_000 {
		t.Errorf("DeepSeek-V3 Hub total %d, want 684,531,386,000", ds.Total+ds.MTP+2*dsCopy+scales)
	}
	oss := mustParams(t, modelConfig(t, gptOss120B, "")).Params
	const vh = 201088 * 2880
	if oss.Active-vh != 5_132_849_472 || 2*vh != 1_158_266_880 {
		t.Errorf("gpt-oss-120b active without the embedding %d, want 5,132,849,472", oss.Active-vh)
	}
	// The card's MLP is the routed experts and the router (weight, bias).
	if mlp := oss.Experts + 36*(2880*128+128); mlp != 114_714_874_368 {
		t.Errorf("gpt-oss-120b MLP %d, want 114,714,874,368", mlp)
	}
	if attn := oss.Total - oss.Experts - 36*(2880*128+128) - 2*vh - 2880*(2*36+1); attn != 955_805_184 {
		t.Errorf("gpt-oss-120b attention %d, want 955,805,184", attn)
	}
	q35 := mustParams(t, modelConfig(t, qwen35_35B, "")).Params
	if sum := q35.Total + q35.MTP + 446_571_248; sum != 35_951_822_704 {
		t.Errorf("Qwen3.5-35B-A3B text + MTP + vision %d, want 35,951,822,704", sum)
	}
}

// TestParamsJSON: the report marshals with §14.4's params keys.
func TestParamsJSON(t *testing.T) {
	t.Parallel()
	rep := mustParams(t, modelConfig(t, qwen3Next80B, ""))
	if rep.Tensors != 74_391 || rep.MTPTensors != 0 {
		t.Errorf("tensors %d and %d, want 74,391 and 0", rep.Tensors, rep.MTPTensors)
	}
	b, err := json.Marshal(rep.Params)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"total":79674391296,"experts":77309411328,"non_expert":2364979968,"active":3874929408,"mtp":0}`
	if string(b) != want {
		t.Errorf("got %s\nwant %s", b, want)
	}
}
