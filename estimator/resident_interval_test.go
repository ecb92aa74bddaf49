package estimator

import (
	"strings"
	"testing"
)

// TestParamsFullAttentionIntervalAboveLayers: §14.1 bounds
// decoder_sparse_step and moe_layer_freq by num_hidden_layers but not
// full_attention_interval, a count (1..2^20): an interval above the layers
// is a model with no full-attention layer, as layer_types all
// linear_attention says, not an error.
func TestParamsFullAttentionIntervalAboveLayers(t *testing.T) {
	t.Parallel()
	base := strings.Replace(qwen3Next80B, `"num_hidden_layers": 48`, `"num_hidden_layers": 2`, 1)
	byInterval := strings.Replace(base, `"full_attention_interval": 4`, `"full_attention_interval": 5`, 1)
	byTypes := strings.Replace(base, `"full_attention_interval": 4`, `"layer_types": ["linear_attention", "linear_attention"]`, 1)
	a := mustParams(t, modelConfig(t, byInterval, `, "resident": {}, "fc2": {"expert_parallel": 8}`))
	b := mustParams(t, modelConfig(t, byTypes, `, "resident": {}, "fc2": {"expert_parallel": 8}`))
	if a.Params != b.Params || a.Resident.ResidentBytes != b.Resident.ResidentBytes {
		t.Errorf("interval 5 of 2 layers: %+v, resident %d; layer_types all linear: %+v, resident %d",
			a.Params, a.Resident.ResidentBytes, b.Params, b.Resident.ResidentBytes)
	}
	c, err := DecodeModelConfig([]byte(`{"model": {` + strings.Replace(base, `"full_attention_interval": 4`, `"full_attention_interval": 2097152`, 1) + `}, "resident": {}}`))
	if err == nil {
		_, err = Params(c)
	}
	if err == nil || !strings.Contains(err.Error(), "model.full_attention_interval") {
		t.Errorf("interval 2^21: %v, want an error naming model.full_attention_interval", err)
	}
}
