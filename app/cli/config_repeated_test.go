package cli

import (
	"strings"
	"testing"
)

// TestEstimateConfigRepeatedKey: estimate -config refuses a key given
// twice, naming it, where it once took the last silently: in the
// interchange format, in a Headroom export and in a Hugging Face
// config.json.
func TestEstimateConfigRepeatedKey(t *testing.T) {
	for in, key := range map[string]string{
		`{"request": {"rows": 5000, "rows": 9000}}`:                                 "rows",
		`{"headroom": 1, "config": {}, "config": {"request": {"rows": 7}}}`:         "config",
		`{"model_type": "llama", "vocab_size": 1000, "vocab_size": 2000}`:           "vocab_size",
		`{"text_config": {"hidden_size": 64, "hidden_size": 128}, "vocab_size": 9}`: "hidden_size",
	} {
		code, out, errOut := runCmd(t, in, "estimate", "-config", "-")
		if code != 2 || out != "" || !strings.Contains(errOut, `has the key "`+key+`" twice`) {
			t.Errorf("%s: exit %d, stdout %.80q, stderr %q", in, code, out, errOut)
		}
	}
}
