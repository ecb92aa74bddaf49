package page

import (
	"strings"
	"testing"

	"headroom/estimator"
)

// TestImportRefusesRepeatedKeys: a dropped or pasted file with a key
// given twice, at its top or in a group, is refused naming the key, in
// each of the formats the import reads.
func TestImportRefusesRepeatedKeys(t *testing.T) {
	for in, key := range map[string]string{
		`{"request": {"rows": 5000, "rows": 9000}}`:                         "rows",
		`{"headroom": 1, "config": {}, "config": {"request": {"rows": 7}}}`: "config",
		`{"model_type": "llama", "vocab_size": 1000, "vocab_size": 2000}`:   "vocab_size",
	} {
		_, err := ImportJSON(estimator.Default(), []byte(in))
		if err == nil || !strings.Contains(err.Error(), `has the key "`+key+`" twice`) {
			t.Errorf("%s: %v", in, err)
		}
	}
}
