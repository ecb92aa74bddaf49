package estimator

import (
	"encoding/json"
	"strings"
	"testing"
)

// residentConfig is a full config (H200, R = 512, the default request)
// with the model fields given, expert parallelism ep and a resident group.
func residentConfig(fields string, ep int64, resident string) string {
	return `{"model": {` + fields + `}, "fc2": {"expert_parallel": ` + Group(ep) + `}, "resident": ` + resident + `}`
}

func estimateResident(t *testing.T, src string) (Config, Result) {
	t.Helper()
	c, err := DecodeConfig([]byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	res, err := Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	if res.Resident == nil {
		t.Fatal("no resident block in the result")
	}
	return c, res
}

// TestResidentReferenceFigures: §14.6, every figure.
func TestResidentReferenceFigures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		fields   string
		ep       int64
		resident string
		want     int64
	}{
		{"Qwen3-Next E=8 ART default", qwen3Next80B, 8, `{}`, 24_507_906_048},
		{"Qwen3-Next E=8 r16", qwen3Next80B, 8, `{"lora_rank": 16}`, 31_266_183_168},
		{"Qwen3-30B-A3B E=1 r0", qwen3_30B, 1, `{"lora_rank": 0}`, 61_064_269_824},
		{"Qwen3-30B-A3B E=8 r16", qwen3_30B, 8, `{"lora_rank": 16}`, 12_439_179_264},
		{"Llama-3.1-8B r16", llama31_8B, 1, `{"lora_rank": 16}`, 16_815_497_216},
		{"Mixtral-8x7B E=8 r16", mixtral8x7B, 8, `{"lora_rank": 16}`, 15_240_536_064},
		{"Qwen3-235B-A22B E=8 r16", qwen3_235B, 8, `{"lora_rank": 16}`, 81_001_977_856},
		{"DeepSeek-V3 E=32 r16", deepseekV3, 32, `{"lora_rank": 16}`, 81_073_588_224},
		{"gpt-oss-120b E=8 r16", gptOss120B, 8, `{"lora_rank": 16}`, 35_534_358_528},
		{"gpt-oss-120b E=8 r16 align 128", gptOss120B, 8, `{"lora_rank": 16, "expert_align": 128}`, 36_875_839_488},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, res := estimateResident(t, residentConfig(tt.fields, tt.ep, tt.resident))
			rr := res.Resident
			if int64(rr.ResidentBytes) != tt.want || int64(rr.InUseBytes) != tt.want {
				t.Errorf("resident %d, in use %d, want %d (difference %d)", rr.ResidentBytes, rr.InUseBytes, tt.want, int64(rr.ResidentBytes)-tt.want)
			}
		})
	}
}

// TestResidentQwen3NextBlock: the result block of §14.4, byte for byte,
// and the available bytes of §14.6.
func TestResidentQwen3NextBlock(t *testing.T) {
	t.Parallel()
	_, res := estimateResident(t, residentConfig(qwen3Next80B, 8, `{}`))
	if res.AvailableBytes != 121_724_269_446 {
		t.Errorf("available %d, want 121,724,269,446", res.AvailableBytes)
	}
	got, err := json.Marshal(res.Resident)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"source":"resident","architecture":"Qwen3NextForCausalLM",` +
		`"params":{"total":79674391296,"experts":77309411328,"non_expert":2364979968,"active":3874929408,"mtp":0},` +
		`"expert_parallel":8,"local_experts":64,"weight_dtype_bytes":2,` +
		`"weights_bytes":24057354240,"expert_weights_bytes":19327352832,"non_expert_weights_bytes":4730001408,` +
		`"lora":{"rank":1,"targets":["q_proj","k_proj","v_proj","o_proj","in_proj_qkv","in_proj_z","out_proj","experts","gate_proj","up_proj","down_proj"],` +
		`"params":25030656,"expert_params":23592960,"weights_bytes":50061312,"grad_bytes":100122624,"master_bytes":100122624,"optimizer_bytes":200245248},` +
		`"framework_reserve_bytes":0,"resident_bytes":24507906048,"in_use_bytes":24507906048}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if res.Candidate.Resident == nil || res.Baseline.Resident == nil || res.Baseline.Resident.ResidentBytes != res.Resident.ResidentBytes {
		t.Error("each revision should carry the resident block")
	}
	r16 := mustParams(t, modelConfig(t, qwen3Next80B, `, "fc2": {"expert_parallel": 8}, "resident": {"lora_rank": 16}`)).Resident.LoRA
	if r16.Params != 400_490_496 || r16.ExpertParams != 377_487_360 {
		t.Errorf("r16 LoRA %d (%d expert), want 400,490,496 (377,487,360)", r16.Params, r16.ExpertParams)
	}
}

// TestResidentWeightBytes: the tensor bytes §14.5 and §14.6 quote, and the
// rounding that separates them.
func TestResidentWeightBytes(t *testing.T) {
	t.Parallel()
	next := mustParams(t, modelConfig(t, qwen3Next80B, `, "resident": {}`)).Resident
	if next.WeightsBytes != 159_348_824_064 || next.ExpertWeightsBytes != 154_618_822_656 {
		t.Errorf("Qwen3-Next E=1 weights %d (experts %d), want 159,348,824,064 (154,618,822,656)", next.WeightsBytes, next.ExpertWeightsBytes)
	}
	// Unrounded: 2 bytes a parameter; the 41,472 bytes between are the GDN
	// layers' small tensors rounded to 512.
	raw := mustParams(t, modelConfig(t, qwen3Next80B, `, "allocator_round_bytes": 1, "resident": {}`)).Resident
	if raw.WeightsBytes != 159_348_782_592 || next.WeightsBytes-raw.WeightsBytes != 36*(448+448+256) {
		t.Errorf("Qwen3-Next unrounded weights %d, want 159,348,782,592", raw.WeightsBytes)
	}
	mtp := mustParams(t, modelConfig(t, qwen3Next80B+`, "mtp_num_hidden_layers": 1`, `, "allocator_round_bytes": 1, "resident": {"include_mtp": true}`)).Resident
	if mtp.WeightsBytes != 162_649_725_440 {
		t.Errorf("Qwen3-Next checkpoint bytes %d, want 162,649,725,440", mtp.WeightsBytes)
	}
	mix := mustParams(t, modelConfig(t, mixtral8x7B, `, "allocator_round_bytes": 1, "resident": {"lora_rank": 0}`)).Resident
	if mix.WeightsBytes != 93_405_585_408 {
		t.Errorf("Mixtral tensor bytes %d, want 93,405,585,408", mix.WeightsBytes)
	}
	q30 := mustParams(t, modelConfig(t, qwen3_30B, `, "allocator_round_bytes": 1, "resident": {"lora_rank": 0}`)).Resident
	if q30.WeightsBytes != 61_064_245_248 {
		t.Errorf("Qwen3-30B-A3B total_size %d, want 61,064,245,248", q30.WeightsBytes)
	}
	if b := mustParams(t, modelConfig(t, qwen3_235B, `, "allocator_round_bytes": 1, "resident": {}`)).Resident.WeightsBytes; b != 470_187_269_120 {
		t.Errorf("Qwen3-235B-A22B total_size %d, want 470,187,269,120", b)
	}
	q235 := mustParams(t, modelConfig(t, qwen3_235B, `, "resident": {}`))
	if q235.Resident.WeightsBytes != 470_187_317_248 || !strings.Contains(q235.Error, "470,187,317,248 bytes") {
		t.Errorf("Qwen3-235B E=1 weights %d, error %q", q235.Resident.WeightsBytes, q235.Error)
	}
	llama := mustParams(t, modelConfig(t, llama31_8B, `, "resident": {"lora_rank": 16}`)).Resident
	if llama.LoRA.Params != 41_943_040 || llama.WeightsBytes != 16_060_522_496 {
		t.Errorf("Llama r16 LoRA %d, weights %d; want 41,943,040 and 16,060,522,496", llama.LoRA.Params, llama.WeightsBytes)
	}
}

// TestResidentErrors: §14.4's two capacity errors, word for word, and the
// other bad inputs of §14.1 and §14.4.
func TestResidentErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src, want string
	}{
		{"weights exceed the GPU", residentConfig(qwen3Next80B, 1, `{}`),
			"resident: the Qwen3NextForCausalLM weights are 159,348,824,064 bytes (148.405 GiB) per GPU at fc2.expert_parallel 1, more than budget.capacity_bytes 150,754,820,096 bytes (140.401 GiB); routed experts are 154,618,822,656 bytes of them, divided by fc2.expert_parallel"},
		{"resident exceeds the GPU", residentConfig(qwen3Next80B, 2, `{"lora_rank": 64}`),
			"resident: 192,411,998,208 bytes (179.198 GiB) resident per GPU (weights 82,039,412,736, adapters and optimizer 110,372,585,472, framework 0) exceed budget.capacity_bytes 150,754,820,096 bytes (140.401 GiB)"},
		{"DeepSeek-V3 E=8", residentConfig(deepseekV3, 8, `{}`),
			"resident: the DeepseekV3ForCausalLM weights are 197,712,519,168 bytes"},
		{"Qwen3-235B E=1", residentConfig(qwen3_235B, 1, `{}`),
			"resident: the Qwen3MoeForCausalLM weights are 470,187,317,248 bytes"},
		{"E does not divide X", residentConfig(qwen3Next80B, 3, `{}`),
			"fc2.expert_parallel: 3 does not divide the 512 routed experts of Qwen3NextForCausalLM"},
		{"unknown architecture without the standard fields", `{"model": {"architectures": ["FooForCausalLM"]}, "resident": {}}`,
			`model.vocab_size: required for FooForCausalLM (resident parameter count, by the generic formula: FooForCausalLM has no formula of its own)`},
		{"required field absent", `{"model": {"architectures": ["MixtralForCausalLM"], "vocab_size": 32000, "hidden_size": 4096, "num_hidden_layers": 32, "intermediate_size": 14336, "num_local_experts": 8, "num_experts_per_tok": 2}, "resident": {}}`,
			"model.num_attention_heads: required for MixtralForCausalLM (resident parameter count)"},
		{"vocab absent", `{"model": {"architectures": ["LlamaForCausalLM"], "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128}, "resident": {}}`,
			"model.vocab_size: required for LlamaForCausalLM (resident parameter count)"},
		{"expert names disagree", `{"model": {"architectures": ["Qwen3MoeForCausalLM"], "num_experts": 128, "n_routed_experts": 64}, "resident": {}}`,
			"model.n_routed_experts: 64 disagrees with model.num_experts 128"},
		{"unknown dtype", `{"model": {` + llama31_8B[:strings.Index(llama31_8B, `, "torch_dtype"`)] + `, "torch_dtype": "float8_e4m3fn"}, "resident": {}}`,
			`model.torch_dtype: unknown dtype "float8_e4m3fn"; known: bfloat16, float16, float32 (or set resident.weight_dtype_bytes)`},
		{"target the family lacks", residentConfig(llama31_8B, 1, `{"lora_targets": ["q_proj", "k_proj", "v_proj", "o_proj", "in_proj_qkv"]}`),
			`resident.lora_targets[4]: "in_proj_qkv" is not a linear of LlamaForCausalLM; allowed: q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj`},
		{"unknown resident field", residentConfig(llama31_8B, 1, `{"rank": 4}`),
			"resident.rank: is not a field of the resident group"},
		{"rank out of range", residentConfig(llama31_8B, 1, `{"lora_rank": 70000}`),
			"resident.lora_rank: must be an integer in 0..65,536, got 70,000"},
		{"layer_types too short", `{"model": {"architectures": ["Qwen3NextForCausalLM"], "num_hidden_layers": 2, "layer_types": ["full_attention"]}, "resident": {}}`,
			"model.layer_types: has 1 entries; it must have num_hidden_layers (2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeConfig([]byte(tt.src))
			if err == nil {
				t.Fatalf("no error; want %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
		})
	}
}
