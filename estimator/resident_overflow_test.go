package estimator

import (
	"strings"
	"testing"
)

// TestResidentOverflowNamesFields: an overflow is an error that names the
// fields involved (docs/model.md §1, §14's "overflow an error naming the
// fields"); the count's message said "lower one of these values" without
// naming any.
func TestResidentOverflowNamesFields(t *testing.T) {
	t.Parallel()
	src := `{"model": {"architectures": ["Qwen3MoeForCausalLM"], "vocab_size": 67108864, "hidden_size": 1048576,
		"num_hidden_layers": 1048576, "num_attention_heads": 1048576, "head_dim": 1048576,
		"moe_intermediate_size": 1048576, "num_experts": 65536, "num_experts_per_tok": 1},
		"budget": {"in_use_bytes": 1}, "resident": {}}`
	c, err := DecodeConfig([]byte(src))
	if err == nil {
		_, err = Estimate(c)
	}
	if err == nil {
		t.Fatal("no error")
	}
	for _, f := range []string{"model.hidden_size", "model.num_hidden_layers", "model.num_experts"} {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("%v: does not name %s", err, f)
		}
	}
}
