package estimator

import (
	"strings"
	"testing"
)

// glm45Air is GLM-4.5-Air's config.json model fields: an architecture
// (Glm4MoeForCausalLM) with no formula of its own, counted by the
// generic one.
const glm45Air = `"architectures": ["Glm4MoeForCausalLM"], "vocab_size": 151552, "hidden_size": 4096,
	"num_hidden_layers": 46, "num_attention_heads": 96, "num_key_value_heads": 8, "head_dim": 128,
	"attention_bias": true, "intermediate_size": 10944, "moe_intermediate_size": 1408,
	"n_routed_experts": 128, "n_shared_experts": 1, "num_experts_per_tok": 8,
	"first_k_dense_replace": 1, "num_nextn_predict_layers": 1, "tie_word_embeddings": false,
	"torch_dtype": "bfloat16"`

// TestParamsGenericArchitecture: an architecture with no formula of its
// own was refused by the count, so an import priced it with nothing on
// the GPU (GLM-4.5-Air, about 199 GiB of weights, "admits up to 188,420
// rows" on one H200). The generic formula counts it from the standard
// fields, tensor by tensor as written out here, near the published 106B
// total, and says what it assumed.
func TestParamsGenericArchitecture(t *testing.T) {
	const V, H, L, nh, nkv, d, F, X, M, K = 151552, 4096, 46, 96, 8, 128, 10944, 128, 1408, 8
	const moeLayers = L - 1                                     // first_k_dense_replace 1
	attn := int64(H*nh*d + 2*H*nkv*d + nh*d*H + nh*d + 2*nkv*d) // q, k, v, o; q, k, v biases
	expert := int64(3 * H * M)
	total := int64(2*V*H+H+2*L*H) + L*attn + 3*H*F + moeLayers*(H*X+X*expert+expert)
	rep := mustParams(t, modelConfig(t, glm45Air, ""))
	if rep.Params.Total != total || total != 106_852_245_504 {
		t.Errorf("total %d, want %d (written out: %d)", rep.Params.Total, int64(106_852_245_504), total)
	}
	if want := total - moeLayers*(X-K)*expert; rep.Params.Active != want {
		t.Errorf("active %d, want %d", rep.Params.Active, want)
	}
	if r := float64(rep.Params.Total) / 106e9; r < 0.99 || r > 1.01 {
		t.Errorf("total %d is %.3f of the published 106B", rep.Params.Total, r)
	}
	if rep.Architecture != "Glm4MoeForCausalLM" || !strings.Contains(rep.Assumed, "Glm4MoeForCausalLM has no formula of its own") ||
		!strings.Contains(rep.Assumed, "multi-token prediction layers not counted") {
		t.Errorf("architecture %q, assumed %q", rep.Architecture, rep.Assumed)
	}
	// A known family says nothing of the kind.
	if rep := mustParams(t, modelConfig(t, qwen3_30B, "")); rep.Assumed != "" {
		t.Errorf("Qwen3-MoE: assumed %q", rep.Assumed)
	}
	// The estimate's resident block says it too, at expert parallelism 8.
	c := modelConfig(t, glm45Air, `, "resident": {}, "fc2": {"expert_parallel": 8}`)
	res, err := Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	if rr := res.Candidate.Resident; rr == nil || rr.Assumed == "" || rr.Architecture != "Glm4MoeForCausalLM" {
		t.Errorf("resident %+v", rr)
	}
}

// TestParamsGenericDense: a dense architecture with no formula of its own
// is counted as attention and a gated MLP; a field the generic formula
// needs and the config lacks is named.
func TestParamsGenericDense(t *testing.T) {
	const V, H, L, nh, F = 32000, 2048, 4, 16, 5632
	rep := mustParams(t, modelConfig(t, `"architectures": ["FooForCausalLM"], "vocab_size": 32000, "hidden_size": 2048,
		"num_hidden_layers": 4, "num_attention_heads": 16, "intermediate_size": 5632`, ""))
	want := int64(2*V*H + H + 2*L*H + L*4*H*H + L*3*H*F)
	if rep.Params.Total != want || rep.Params.Experts != 0 {
		t.Errorf("total %d experts %d, want %d and 0", rep.Params.Total, rep.Params.Experts, want)
	}
	_, err := Params(modelConfig(t, `"architectures": ["FooForCausalLM"], "vocab_size": 32000, "hidden_size": 2048, "num_hidden_layers": 4, "num_attention_heads": 16`, ""))
	if err == nil || !strings.Contains(err.Error(), "model.intermediate_size: required for FooForCausalLM (resident parameter count, by the generic formula") {
		t.Errorf("err %v", err)
	}
}
