package estimator

import (
	"strings"
	"testing"
)

// TestDecodeConfigRefusesRepeatedKeys: a key given twice, at the top or
// in any group, is an error naming the group and the key, as workloads
// and reports refuse it; it is not read as its last value.
func TestDecodeConfigRefusesRepeatedKeys(t *testing.T) {
	for in, want := range map[string]string{
		`{"model": {"vocab_size": 1000, "vocab_size": 2000}}`:                   `model: has the key "vocab_size" twice`,
		`{"request": {"rows": 5}, "request": {"rows": 6}}`:                      `has the key "request" twice`,
		`{"budget": {"capacity_bytes": 85020000000, "capacity\u005fbytes": 1}}`: `has the key "capacity_bytes" twice`,
		`{"resident": {"lora_rank": 8, "lora_rank": 16}}`:                       `has the key "lora_rank" twice`,
		`{"baseline": {"overrides": {"request": {"rows": 1, "rows": 2}}}}`:      `has the key "rows" twice`,
	} {
		_, err := DecodeConfig([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
	if _, err := DecodeConfig([]byte(`{"model": {"vocab_size": 1000}, "request": {"rows": 5}}`)); err != nil {
		t.Errorf("distinct keys: %v", err)
	}
}
