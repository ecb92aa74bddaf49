package ui

import (
	"strings"
	"testing"

	"headroom/estimator"
)

// TestResidentLineNamesTheGenericCount: resident memory counted by the
// generic formula says so in the decision panel's line.
func TestResidentLineNamesTheGenericCount(t *testing.T) {
	r := &estimator.ResidentResult{Source: "resident", Architecture: "Glm4MoeForCausalLM", Assumed: estimator.GenericAssumed("Glm4MoeForCausalLM")}
	if got := ResidentLine(r); !strings.HasSuffix(got, "(Glm4MoeForCausalLM counted by the generic formula, docs/model.md §14.2)") {
		t.Errorf("ResidentLine: %q", got)
	}
	r.Assumed = ""
	if got := ResidentLine(r); strings.Contains(got, "generic") {
		t.Errorf("a known family's line: %q", got)
	}
}
