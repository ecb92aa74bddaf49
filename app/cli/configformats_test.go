package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"headroom/estimator"
	"headroom/estimator/hfconfig"
)

// hfPath is a Hugging Face config.json of the estimator's tests.
func hfPath(name string) string {
	return filepath.Join("..", "..", "estimator", "hfconfig", "testdata", "hf", name)
}

// TestConfigFormats: the command line takes what the page's import box
// takes: a Hugging Face config.json (the model fields and
// dtype_bytes from it, the rest the defaults, with a note saying so) and
// the page's JSON export (its config); a file in the format is read as
// before, with no note.
func TestConfigFormats(t *testing.T) {
	hf := mustRead(t, hfPath("qwen3-30b-a3b.json"))
	want, _, err := hfconfig.Import(estimator.Default(), hf)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, string(hf), "estimate", "-config", "-")
	if code != 0 || !strings.Contains(stderr, "read as a Hugging Face config.json") || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("config.json: exit %d, stderr %q", code, stderr)
	}
	wantRes, _ := estimator.Estimate(want)
	if got := mustJSON(t, wantRes); stdout != got {
		t.Errorf("config.json: the estimate is not that of hfconfig.Import's config")
	}

	cfg := estimator.Default()
	cfg.Request.Rows = 123456
	export, _ := json.Marshal(map[string]any{
		"headroom": 1,
		"view":     map[string]any{"axis": "rows", "from": 1, "to": 9},
		"config":   json.RawMessage(estimator.MarshalConfig(cfg)),
		"result":   map[string]any{},
	})
	code, stdout, stderr = runCmd(t, string(export), "estimate", "-config", "-")
	res, _ := estimator.Estimate(cfg)
	if code != 0 || stdout != mustJSON(t, res) || !strings.Contains(stderr, "Headroom export") {
		t.Errorf("export: exit %d, stderr %q, same estimate %v", code, stderr, stdout == mustJSON(t, res))
	}
	bad := strings.Replace(string(export), "123456", "0", 1)
	if code, _, stderr = runCmd(t, bad, "estimate", "-config", "-"); code != 2 || !strings.Contains(stderr, "export config.request.rows") {
		t.Errorf("bad export: exit %d, stderr %q", code, stderr)
	}

	code, _, stderr = runCmd(t, string(estimator.MarshalConfig(cfg)), "estimate", "-config", "-")
	if code != 0 || stderr != "" {
		t.Errorf("the format: exit %d, stderr %q", code, stderr)
	}
}

// TestConfigErrorOneLine: a file with many bad keys gets one readable
// line naming the first, counting the rest and listing the allowed keys
// once (a config.json gave 4,071 characters, the allowed keys
// 25 times); a misspelt group is named in the format's terms.
func TestConfigErrorOneLine(t *testing.T) {
	obj := map[string]any{"model": map[string]any{}}
	for _, k := range []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"} {
		obj[k] = 1
	}
	data, _ := json.Marshal(obj)
	code, _, stderr := runCmd(t, string(data), "estimate", "-config", "-")
	if code != 2 || strings.Count(stderr, "\n") != 1 || len(stderr) > 400 ||
		!strings.Contains(stderr, "alpha: is not a field of the config format; allowed here:") ||
		!strings.Contains(stderr, "and 7 more errors (beta, delta, epsilon, eta, gamma, ...)") ||
		strings.Count(stderr, "allowed here") != 1 {
		t.Errorf("exit %d, stderr (%d bytes) %q", code, len(stderr), stderr)
	}
	code, _, stderr = runCmd(t, `{"modle": {"vocab_size": 5}}`, "estimate", "-config", "-")
	if code != 2 || !strings.Contains(stderr, "modle: is not a field of the config format") {
		t.Errorf("misspelt group: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCmd(t, `{"vocab_size": 5, "model_type": "x"}`, "estimate", "-config", "-")
	if code != 2 || !strings.Contains(stderr, "config.json") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("a config.json without hidden_size: exit %d, stderr %q", code, stderr)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(data) + "\n"
}
