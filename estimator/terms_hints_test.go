package estimator

import (
	"strings"
	"testing"
)

// TestTermFieldNamePointsToItsVariable: a term written with a config
// field's name was refused with the list of variables alone; it names the
// variable to write.
func TestTermFieldNamePointsToItsVariable(t *testing.T) {
	for field, want := range map[string]string{
		"rows":        `unknown variable "rows"; write n (the piece's rows; N is the request's)`,
		"hidden_size": `unknown variable "hidden_size"; write H (`,
		"vocab_size":  `unknown variable "vocab_size"; write V (`,
	} {
		_, err := DecodeConfig([]byte(`{"terms": [{"name": "x", "place": "head", "bytes": "` + field + ` * 2"}]}`))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", field, err)
		}
	}
	// A name that is no field keeps the plain message.
	_, err := DecodeConfig([]byte(`{"terms": [{"name": "x", "place": "head", "bytes": "zz * 2"}]}`))
	if err == nil || !strings.Contains(err.Error(), `unknown variable "zz"; known: n, p, t`) {
		t.Errorf("zz: %v", err)
	}
}

// TestTermHintsAreFieldsAndVariables: every hint is a field's key (or
// num_experts) and points to a variable of the language.
func TestTermHintsAreFieldsAndVariables(t *testing.T) {
	for field, hint := range termLang.Hints() {
		if _, ok := FieldByKey(field); !ok && field != "num_experts" {
			t.Errorf("hint for %q: no such field", field)
		}
		v := strings.Fields(hint)[0]
		found := false
		for _, n := range varNames {
			found = found || n == v
		}
		if !found {
			t.Errorf("hint for %q: %q is no variable", field, v)
		}
	}
}
