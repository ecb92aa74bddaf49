package estimator

import (
	"strings"
	"testing"
)

// TestParamsQwen35FourProjections: §14.2 counts one tensor per weight name
// of the checkpoint, and Qwen3.5 stores the GDN input projections as four
// (in_proj_qkv, in_proj_z, in_proj_b, in_proj_a) where Qwen3-Next stores
// two (in_proj_qkvz, in_proj_ba). The parameters are the same; the tensor
// count has two more per GDN layer, and each of the four is rounded on its
// own, so the bytes differ where a width is not a multiple of the block.
func TestParamsQwen35FourProjections(t *testing.T) {
	t.Parallel()
	next := modelConfig(t, qwen3Next80B, `, "resident": {}, "fc2": {"expert_parallel": 8}`)
	q35 := modelConfig(t, strings.Replace(qwen3Next80B, "Qwen3NextForCausalLM", "Qwen3_5MoeForCausalLM", 1),
		`, "resident": {}, "fc2": {"expert_parallel": 8}`)
	a, b := mustParams(t, next), mustParams(t, q35)
	if a.Params.Total != b.Params.Total {
		t.Errorf("total %d (Qwen3.5) != %d (Qwen3-Next)", b.Params.Total, a.Params.Total)
	}
	if b.Params.Tensors != a.Params.Tensors+2*36 {
		t.Errorf("Qwen3.5 tensors %d, want %d (Qwen3-Next's + 2 per GDN layer)", b.Params.Tensors, a.Params.Tensors+2*36)
	}
	// model_type alone names Qwen3.5 too.
	mt := strings.Replace(qwen3Next80B, `"architectures": ["Qwen3NextForCausalLM"]`, `"model_type": "qwen3_5_moe_text"`, 1)
	if c := mustParams(t, modelConfig(t, mt, "")); c.Params.Tensors != b.Params.Tensors {
		t.Errorf("model_type qwen3_5_moe_text: tensors %d, want %d", c.Params.Tensors, b.Params.Tensors)
	}
	// H = 2049, R = 512, BF16: in_proj_b and in_proj_a are 2049 x 32 x 2 =
	// 131,136 bytes each, 131,584 rounded; in_proj_ba 262,272, 262,656
	// rounded: 512 bytes more per layer. in_proj_qkv (2049 x 8192 x 2) and
	// in_proj_z (2049 x 4096 x 2) are multiples of 512, as in_proj_qkvz is.
	odd := `, "resident": {}, "fc2": {"expert_parallel": 8}`
	na := mustParams(t, modelConfig(t, strings.Replace(qwen3Next80B, `"hidden_size": 2048`, `"hidden_size": 2049`, 1), odd))
	nb := mustParams(t, modelConfig(t, strings.Replace(strings.Replace(qwen3Next80B, `"hidden_size": 2048`, `"hidden_size": 2049`, 1),
		"Qwen3NextForCausalLM", "Qwen3_5MoeForCausalLM", 1), odd))
	if na.Resident == nil || nb.Resident == nil {
		t.Fatal("no resident report")
	}
	if d := int64(nb.Resident.WeightsBytes) - int64(na.Resident.WeightsBytes); d != 36*512 {
		t.Errorf("Qwen3.5 weights - Qwen3-Next weights = %d, want %d (512 a GDN layer)", d, 36*512)
	}
}
