package page

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportReportSaysWhetherWeightsAreCounted: a GLM-4.5-Air
// config.json (Glm4MoeForCausalLM, no formula of its own) imported with
// resident memory quietly off, and the report said nothing about it. Its
// first note now says the weights are counted, by the generic formula,
// and what it assumed; a config whose weights cannot be counted says the
// estimate assumes nothing else on the GPU.
func TestImportReportSaysWhetherWeightsAreCounted(t *testing.T) {
	list, err := Presets()
	if err != nil {
		t.Fatal(err)
	}
	s := Decode(url.Values{}, list)
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "estimator", "hfconfig", "testdata", "hf", "glm-4.5-air.json"))
	if err != nil {
		t.Fatal(err)
	}
	imp, err := ImportJSON(s.Cfg, data)
	if err != nil {
		t.Fatal(err)
	}
	r := ReportOf(imp, &s, list)
	if imp.Config.Resident == nil || len(r.Notes) == 0 ||
		!strings.HasPrefix(r.Notes[0], "resident memory computed from the model: Glm4MoeForCausalLM has no formula of its own") {
		t.Errorf("resident %v, notes %q", imp.Config.Resident, r.Notes)
	}
	imp, err = ImportJSON(s.Cfg, []byte(`{"architectures": ["FooForCausalLM"], "vocab_size": 32000, "hidden_size": 2048, "num_hidden_layers": 4}`))
	if err != nil {
		t.Fatal(err)
	}
	r = ReportOf(imp, &s, list)
	if imp.Config.Resident != nil || len(r.Notes) == 0 || !strings.Contains(r.Notes[0], "the estimate assumes nothing else on the GPU") {
		t.Errorf("resident %v, notes %q", imp.Config.Resident, r.Notes)
	}
}
