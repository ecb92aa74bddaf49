package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEstimateSaysWhatTheCountAssumed: a config.json of an architecture
// with no formula of its own was priced with nothing on the GPU, and the
// command said only "17 of its keys ignored". Its note now says the
// weights are counted, by the generic formula, and what that assumed;
// when they cannot be counted, that the estimate assumes nothing else is
// on the GPU.
func TestEstimateSaysWhatTheCountAssumed(t *testing.T) {
	glm := filepath.Join("..", "..", "estimator", "hfconfig", "testdata", "hf", "glm-4.5-air.json")
	_, _, errOut := runMain(Estimate, "", "-config", glm, "-format", "text")
	if !strings.Contains(errOut, "resident memory computed from the model: Glm4MoeForCausalLM has no formula of its own; counted by the generic one") ||
		!strings.Contains(errOut, "the Glm4MoeForCausalLM weights are 213,704,491,008 bytes (199.028 GiB)") {
		t.Errorf("stderr:\n%s", errOut)
	}
	code, _, errOut := runMain(Estimate, `{"architectures": ["FooForCausalLM"], "vocab_size": 32000, "hidden_size": 2048, "num_hidden_layers": 4}`, "-config", "-")
	if code != 0 || !strings.Contains(errOut, "resident memory not computed for FooForCausalLM (in_use_bytes stays as it was, so the estimate assumes nothing else on the GPU)") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
	code, out, errOut := runMain(Params, "", "-hf", glm, "-expert_parallel", "8")
	if code != 0 || !strings.Contains(out, "Glm4MoeForCausalLM\n(Glm4MoeForCausalLM has no formula of its own") || !strings.Contains(out, "106,852,245,504") {
		t.Errorf("params: exit %d\n%s%s", code, out, errOut)
	}
}
