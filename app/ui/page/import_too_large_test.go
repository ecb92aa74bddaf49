package page

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportTooLargeForOneGPUOffersExpertParallelism: a config.json whose
// weights do not fit the GPU at the page's expert parallelism (DeepSeek-V3
// at 8 on an H200) was refused, "Nothing was imported", while the
// DeepSeek-V3 preset in the same place offers the expert parallelism that
// fits. The import goes through, the page shows why no request runs
// (WeightsDoNotFit) with the offer, and the report names it.
func TestImportTooLargeForOneGPUOffersExpertParallelism(t *testing.T) {
	list, err := Presets()
	if err != nil {
		t.Fatal(err)
	}
	s := Decode(url.Values{}, list)
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "estimator", "hfconfig", "testdata", "hf", "deepseek-v3.json"))
	if err != nil {
		t.Fatal(err)
	}
	imp, err := ImportJSON(s.Cfg, data)
	if err != nil {
		t.Fatal(err)
	}
	next, err := s.WithImport(imp, list)
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	if next.WeightsDoNotFit() == "" {
		t.Fatalf("the weights fit at expert parallelism %d; the test needs a model that does not", next.Cfg.FC2.ExpertParallel)
	}
	e, _, ok := next.FitExpertParallel()
	if !ok || e <= next.Cfg.FC2.ExpertParallel {
		t.Errorf("offer %d, %v", e, ok)
	}
	r := ReportOf(imp, &next, list)
	if len(r.Notes) == 0 || !strings.Contains(r.Notes[0], "the page offers expert parallelism 16, the smallest that fits") {
		t.Errorf("notes %q", r.Notes)
	}
	// Another new error still refuses the import.
	imp.Config.Model.VocabSize = 0
	if _, err := s.WithImport(imp, list); err == nil {
		t.Error("a bad vocab_size was imported")
	}
}
