package estimator

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// randomArchConfig is a config of a random family with random (mostly
// valid) model fields and resident settings, as JSON.
func randomArchConfig(rng *rand.Rand) []byte {
	archs := []string{"LlamaForCausalLM", "MixtralForCausalLM", "Qwen2MoeForCausalLM", "Qwen3MoeForCausalLM",
		"DeepseekV3ForCausalLM", "Qwen3NextForCausalLM", "Qwen3_5MoeForCausalLM", "GptOssForCausalLM"}
	L := between(rng, 1, 64)
	x := oneOf(rng, 1, 8, 16, 60, 64, 128, 256, 512)
	m := map[string]any{
		"architectures":          []string{archs[rng.IntN(len(archs))]},
		"vocab_size":             between(rng, 1, 300_000),
		"hidden_size":            oneOf(rng, 1, 64, 2048, 2880, between(rng, 1, 8192)),
		"num_hidden_layers":      L,
		"num_attention_heads":    between(rng, 1, 128),
		"num_key_value_heads":    between(rng, 1, 16),
		"head_dim":               oneOf(rng, 64, 128, 256, between(rng, 1, 512)),
		"intermediate_size":      between(rng, 1, 20000),
		"moe_intermediate_size":  between(rng, 1, 4096),
		"num_experts":            x,
		"num_experts_per_tok":    between(rng, 1, x),
		"kv_lora_rank":           between(rng, 1, 1024),
		"qk_nope_head_dim":       between(rng, 1, 256),
		"qk_rope_head_dim":       between(rng, 1, 128),
		"v_head_dim":             between(rng, 1, 256),
		"linear_num_key_heads":   between(rng, 0, 32),
		"linear_key_head_dim":    between(rng, 1, 256),
		"linear_num_value_heads": between(rng, 1, 64),
		"linear_value_head_dim":  between(rng, 1, 256),
	}
	if rng.IntN(2) == 0 {
		m["q_lora_rank"] = between(rng, 0, 2048)
	}
	if rng.IntN(2) == 0 {
		m["n_shared_experts"] = between(rng, 0, 4)
		m["shared_expert_intermediate_size"] = between(rng, 0, 8192)
	}
	if rng.IntN(2) == 0 {
		m["first_k_dense_replace"] = between(rng, 0, L)
		m["decoder_sparse_step"] = between(rng, 1, L)
		m["mlp_only_layers"] = []int64{between(rng, 0, L-1)}
	}
	if rng.IntN(2) == 0 {
		m["attention_bias"] = rng.IntN(2) == 0
		m["tie_word_embeddings"] = rng.IntN(2) == 0
		m["mtp_num_hidden_layers"] = between(rng, 0, 2)
		m["num_nextn_predict_layers"] = between(rng, 0, 2)
	}
	if rng.IntN(8) == 0 {
		delete(m, "num_attention_heads") // required: an error
	}
	r := map[string]any{"lora_rank": oneOf(rng, 0, 1, 8, 16, between(rng, 0, 256))}
	if rng.IntN(3) == 0 {
		r["expert_align"] = oneOf(rng, 1, 64, 128)
		r["include_mtp"] = true
		r["weight_dtype_bytes"] = oneOf(rng, 1, 2, 4)
		r["master_weights"] = rng.IntN(2) == 0
		r["optimizer_moments"] = between(rng, 0, 2)
	}
	c := map[string]any{
		"model":                 m,
		"resident":              r,
		"fc2":                   map[string]any{"expert_parallel": oneOf(rng, 1, 2, 8, between(rng, 1, 64))},
		"budget":                map[string]any{"capacity_bytes": int64(1) << 50},
		"allocator_round_bytes": oneOf(rng, 1, 512, between(rng, 1, 5000)),
	}
	b, _ := json.Marshal(c)
	return b
}

// TestResidentProperties: random configs of every family never panic,
// and when they price: experts + the rest = total, active <= total, the
// weights bytes are at least the parameters' bytes and fall as E grows,
// resident = weights + adapters and optimizer + framework, and the config
// reads back as it was written.
func TestResidentProperties(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(14, 25))
	priced := 0
	for i := 0; i < 400; i++ {
		src := randomArchConfig(rng)
		c, err := DecodeConfig(src)
		if err != nil {
			continue
		}
		res, err := Estimate(c)
		if err != nil {
			t.Fatalf("decodes but does not estimate: %v\n%s", err, src)
		}
		priced++
		rr := res.Resident
		p := rr.Params
		if p.Experts+p.NonExpert != p.Total || p.Active > p.Total || p.Active < p.NonExpert {
			t.Fatalf("counts %+v\n%s", p, src)
		}
		l := rr.LoRA
		if rr.ResidentBytes != rr.WeightsBytes+l.WeightsBytes+l.GradBytes+l.MasterBytes+l.OptimizerBytes+rr.FrameworkReserveBytes {
			t.Fatalf("resident %d is not the sum of its parts: %+v", rr.ResidentBytes, rr)
		}
		if rr.InUseBytes != rr.ResidentBytes || res.Candidate.Resident != rr {
			t.Fatalf("in use %d, resident %d", rr.InUseBytes, rr.ResidentBytes)
		}
		one, err := Params(withEP(c, 1))
		if err != nil {
			t.Fatal(err)
		}
		a := one.Resident
		if int64(a.WeightsBytes) < (p.Total-p.Experts)*a.WeightDtypeBytes || a.WeightsBytes < rr.WeightsBytes {
			t.Fatalf("E = 1 weights %d, at E = %d %d, params %+v\n%s", a.WeightsBytes, rr.ExpertParallel, rr.WeightsBytes, p, src)
		}
		if back, err := DecodeConfig(MarshalConfig(c)); err != nil || marshalConfigString(back) != marshalConfigString(c) {
			t.Fatalf("round trip: %v\n%s\n%s", err, MarshalConfig(c), MarshalConfig(back))
		}
	}
	if priced < 100 {
		t.Errorf("only %d of 400 random configs priced", priced)
	}
}

func withEP(c Config, ep int64) Config {
	c.FC2.ExpertParallel = ep
	return c
}
