package estimator

import (
	"encoding/json"
	"strings"
	"testing"
)

// badTermInputs are the bad-input rows of docs/model.md §8: a config's terms as
// JSON and the exact message, one line naming the term. Every row fails
// in the decoder and, given as Config.Terms, in Estimate with the same
// message.
var badTermInputs = []struct {
	name, json, msg string
}{
	{"unknown variable",
		`{"terms": [{"name": "router_fp32", "place": "head", "bytes": "Q * 4"}]}`,
		"terms[0] (router_fp32): unknown variable \"Q\"; known: n, p, t, r, D, Dt, N, P, T, s, V, H, L, K, M, I, O, b, E, C, k, g, Hk, Dk, Hv, Dv, X"},
	{"power",
		`{"terms": [{"name": "x", "place": "head", "bytes": "n ** 2"}]}`,
		"terms[0] (x): \"**\" (a power) and a unary \"*\" are not allowed; write a power as a product; allowed: decimal integers (_ separators allowed), the variables, + - * /, parentheses, ceil(a, b), min(a, b, ...), max(a, b, ...)"},
	{"remainder",
		`{"terms": [{"name": "x", "place": "head", "bytes": "n % 7"}]}`,
		"terms[0] (x): the operator \"%\" is not allowed; allowed: decimal integers (_ separators allowed), the variables, + - * /, parentheses, ceil(a, b), min(a, b, ...), max(a, b, ...)"},
	{"shift",
		`{"terms": [{"name": "x", "place": "head", "bytes": "n << 2"}]}`,
		"terms[0] (x): the operator \"<<\" is not allowed; allowed: decimal integers (_ separators allowed), the variables, + - * /, parentheses, ceil(a, b), min(a, b, ...), max(a, b, ...)"},
	{"comparison",
		`{"terms": [{"name": "x", "place": "head", "bytes": "n <= 2"}]}`,
		"terms[0] (x): the comparison \"<=\" is not allowed; allowed: decimal integers (_ separators allowed), the variables, + - * /, parentheses, ceil(a, b), min(a, b, ...), max(a, b, ...)"},
	{"other call",
		`{"terms": [{"name": "x", "place": "head", "bytes": "pow(n, 2)"}]}`,
		"terms[0] (x): unknown function \"pow\"; the functions are ceil(a, b), min(a, b, ...) and max(a, b, ...)"},
	{"float",
		`{"terms": [{"name": "x", "place": "head", "bytes": "n * 1.5"}]}`,
		"terms[0] (x): the number 1.5 is not an integer; allowed: decimal integers (_ separators allowed), the variables, + - * /, parentheses, ceil(a, b), min(a, b, ...), max(a, b, ...)"},
	{"string",
		`{"terms": [{"name": "x", "place": "head", "bytes": "\"n\""}]}`,
		"terms[0] (x): the literal \"n\" is not a number; strings and characters are not allowed; allowed: decimal integers (_ separators allowed), the variables, + - * /, parentheses, ceil(a, b), min(a, b, ...), max(a, b, ...)"},
	{"division by zero",
		`{"terms": [{"name": "x", "place": "head", "bytes": "n / 0"}]}`,
		"terms[0] (x): bytes divides by 0; the divisor of / and of ceil(a, b) must be > 0"},
	{"ceil by zero",
		`{"terms": [{"name": "x", "place": "head", "bytes": "ceil(n, 0)"}]}`,
		"terms[0] (x): bytes divides by 0; the divisor of / and of ceil(a, b) must be > 0"},
	{"division of a negative",
		`{"terms": [{"name": "x", "place": "head", "bytes": "(0 - 8) / 2"}]}`,
		"terms[0] (x): bytes divides a negative number (-8); / and ceil(a, b) need a >= 0"},
	{"negative result",
		`{"terms": [{"name": "x", "place": "head", "bytes": "1 - 2"}]}`,
		"terms[0] (x): bytes is negative (-1); a tensor's bytes must be >= 0"},
	{"overflow",
		`{"terms": [{"name": "x", "place": "head", "bytes": "4_611_686_018_427_387_904 * 2"}]}`,
		"terms[0] (x): bytes overflows int64 (an intermediate value is beyond ±9,223,372,036,854,775,807); the arithmetic is exact, so lower the values or rewrite the expression"},
	{"more than 16 terms",
		`{"terms": [` + strings.Repeat(`{"name": "a", "place": "head", "bytes": "1"}, `, 16) + `{"name": "a", "place": "head", "bytes": "1"}]}`,
		"terms: has 17 terms; at most 16 are allowed"},
	{"upper-case name",
		`{"terms": [{"name": "Logits", "place": "head", "bytes": "D"}]}`,
		"terms[0] (\"Logits\"): name must be 1 to 32 characters of a-z, 0-9 and _, starting with a letter, got \"Logits\""},
	{"name starting with a digit",
		`{"terms": [{"name": "9lives", "place": "head", "bytes": "D"}]}`,
		"terms[0] (\"9lives\"): name must be 1 to 32 characters of a-z, 0-9 and _, starting with a letter, got \"9lives\""},
	{"name of 33 characters",
		`{"terms": [{"name": "a_name_that_is_far_longer_than_32", "place": "head", "bytes": "D"}]}`,
		"terms[0] (\"a_name_that_is_far_longer_than_32\"): name must be 1 to 32 characters of a-z, 0-9 and _, starting with a letter, got \"a_name_that_is_far_longer_than_32\""},
	{"empty name",
		`{"terms": [{"name": "", "place": "head", "bytes": "D"}]}`,
		"terms[0] (\"\"): name must be 1 to 32 characters of a-z, 0-9 and _, starting with a letter, got \"\""},
	{"name used twice",
		`{"terms": [{"name": "copy", "place": "head", "bytes": "D"}, {"name": "copy", "place": "fc2", "bytes": "r"}]}`,
		"terms[1] (copy): the name is already used by terms[0]; names must be unique"},
	{"stage named head",
		`{"terms": [{"name": "head", "place": "stage", "bytes": "D"}]}`,
		"terms[0] (head): a term with place stage cannot be named \"head\", the name of a built-in stage; choose another name"},
	{"stage named retained",
		`{"terms": [{"name": "retained", "place": "stage", "bytes": "D"}]}`,
		"terms[0] (retained): a term with place stage cannot be named \"retained\", the name of a built-in stage; choose another name"},
	{"unknown place",
		`{"terms": [{"name": "x", "place": "heads", "bytes": "D"}]}`,
		"terms[0] (x): place must be one of retained, activations, head, fc2, gdn, stage, got \"heads\""},
	{"unknown revision",
		`{"terms": [{"name": "x", "place": "head", "revision": "neither", "bytes": "D"}]}`,
		"terms[0] (x): revision must be one of candidate, baseline, both (default candidate), got \"neither\""},
	{"more than 256 bytes",
		`{"terms": [{"name": "x", "place": "head", "bytes": "` + strings.Repeat("n+", 128) + `n"}]}`,
		"terms[0] (x): bytes is 257 bytes long; at most 256 are allowed"},
	{"unknown key",
		`{"terms": [{"name": "x", "place": "head", "bytes": "D", "colour": "red"}]}`,
		"terms[0] (x): \"colour\" is not a key of a term; allowed: bytes, mode, name, place, revision"},
	{"bytes not a string",
		`{"terms": [{"name": "x", "place": "head", "bytes": 1024}]}`,
		"terms[0] (x): bytes must be a string, got 1024"},
	{"place missing",
		`{"terms": [{"name": "x", "bytes": "D"}]}`,
		"terms[0] (x): place is missing"},
	{"terms not a list",
		`{"terms": {"name": "x", "place": "head", "bytes": "D"}}`,
		"terms: must be a list of terms, each {\"name\": ..., \"place\": ..., \"revision\": ..., \"bytes\": ...}"},
	{"term not an object",
		`{"terms": ["D"]}`,
		"terms[0] (\"\"): must be a JSON object ({\"name\": ..., \"place\": ..., \"revision\": ..., \"bytes\": ...})"},
	{"empty bytes",
		`{"terms": [{"name": "x", "place": "head", "bytes": ""}]}`,
		"terms[0] (x): bytes is empty; write the tensor's bytes as an expression, for example 2 * D; allowed: decimal integers (_ separators allowed), the variables, + - * /, parentheses, ceil(a, b), min(a, b, ...), max(a, b, ...)"},
	{"syntax error",
		`{"terms": [{"name": "x", "place": "head", "bytes": "n +"}]}`,
		"terms[0] (x): bytes is not a valid expression: 1:4: expected a number, a variable, a call or \"(\", found the end; allowed: decimal integers (_ separators allowed), the variables, + - * /, parentheses, ceil(a, b), min(a, b, ...), max(a, b, ...)"}}

func TestBadTermInputs(t *testing.T) {
	t.Parallel()
	for _, tt := range badTermInputs {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeConfig([]byte(tt.json))
			if err == nil || err.Error() != tt.msg {
				t.Fatalf("decoder: %v\nwant     %s", err, tt.msg)
			}
			if marshalConfigString(got) != marshalConfigString(Default()) {
				t.Errorf("the decoder changed the config on error")
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("more than one line")
			}
			var shape struct{ Terms []Term }
			if json.Unmarshal([]byte(tt.json), &shape) != nil || strings.Contains(tt.json, "colour") || strings.Contains(tt.json, "1024") || !strings.Contains(tt.json, "place") {
				return // not a list of terms of the right shape: the decoder's alone
			}
			c := Default()
			c.Terms = shape.Terms
			if _, err := Estimate(c); err == nil || err.Error() != tt.msg {
				t.Errorf("Estimate: %v\nwant      %s", err, tt.msg)
			}
		})
	}
}
