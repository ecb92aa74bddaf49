package estimator

import (
	"errors"
	"strings"
	"testing"
)

// The language of a term's bytes (docs/model.md §8), on the default config for
// the whole request (n = N = 64,902; D = 155,582,464).

func TestTermLanguageValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, expr string
		want       int64
	}{
		{"add", "1 + 2", 3},
		{"sub", "7 - 2", 5},
		{"mul", "6 * 7", 42},
		{"div rounds down", "7 / 2", 3},
		{"div exact", "8 / 2", 4},
		{"ceil rounds up", "ceil(7, 2)", 4},
		{"ceil exact", "ceil(8, 2)", 4},
		{"ceil of zero", "ceil(0, 5)", 0},
		{"min", "min(3, 1, 2)", 1},
		{"max", "max(3, 1, 2)", 3},
		{"min of two", "min(n, C)", 512},
		{"max of many", "max(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)", 10},
		{"mul before add", "1 + 2 * 3", 7},
		{"parentheses", "(1 + 2) * 3", 9},
		{"sub left to right", "10 - 4 - 3", 3},
		{"div left to right", "100 / 10 / 5", 2},
		{"mul then div", "2 * 3 / 4", 1},
		{"div then mul", "2 * (3 / 4)", 0},
		{"nested parentheses", "((((n))))", 64902},
		{"separators", "1_000_000", 1_000_000},
		{"separators in every group", "9_223_372_036_854_775_807", 1<<63 - 1},
		{"unary minus", "-5 + 10", 5},
		{"unary plus", "+5", 5},
		{"negative intermediate", "max(0, 10 - n)", 0},
		{"zero", "n - 64902", 0},
		{"head chunk", "2 * D", 311_164_928},
		{"D", "D", 512 * 151936 * 2},
		{"Dt", "Dt", 512 * 151936 * 2},
		{"routed rows", "r", 649_020},
		{"fc2 input per row", "r * I * b / n", 10 * 512 * 2},
		{"piece rows", "n + p + t", 3 * 64902},
		{"request", "N + P + T", 3 * 64902},
		{"sequence", "s", 4096},
		{"model", "V + H + L + K + M", 151936 + 2048 + 48 + 10 + 512},
		{"fc2", "I + O + b + E", 512 + 2048 + 2 + 1},
		{"head and outputs", "C + k + g", 512 + 0 + 1},
		{"gdn", "2 * Hk * Dk + Hv * Dv", 2*16*128 + 32*128},
		{"ceil by a variable", "ceil(n, s)", 16},
		{"overflow-free large product", "n * 100_000_000_000", 6_490_200_000_000_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := EvalTermBytes(Default(), tc.expr, 64902)
			if err != nil || got != tc.want {
				t.Fatalf("%s = %d, %v; want %d", tc.expr, got, err, tc.want)
			}
			// The same through a config: one tensor of the candidate,
			// in a stage of its own, with no rounding.
			if tc.want > 1<<50 {
				return
			}
			c := Default()
			c.AllocatorRoundBytes = 1
			c.Terms = []Term{{Name: "x", Place: "stage", Bytes: tc.expr}}
			res := mustEstimate(t, c)
			if s := res.Candidate.Stage("x"); s.Bytes != Bytes(tc.want) {
				t.Errorf("stage x = %d, want %d", s.Bytes, tc.want)
			}
		})
	}
}

// termErrors are expressions the language refuses, with a part of the
// message that says why. Each must fail in Resolve (at decode time) or,
// for the ones that depend on the piece, when priced.
var termErrors = []struct {
	name, expr, want string
}{
	{"unknown variable", "Q", `unknown variable "Q"; known: n, p, t, r, D, Dt, N, P, T, s, V, H, L, K, M, I, O, b, E, C, k, g, Hk, Dk, Hv, Dv, X`},
	{"case-sensitive", "d", `unknown variable "d"`},
	{"a constant name", "true", `unknown variable "true"`},
	{"a function as a value", "min + 1", `unknown variable "min"`},
	{"power", "2 ** 3", `"**" (a power)`},
	{"unary star", "*n", `"**" (a power) and a unary "*"`},
	{"remainder", "7 % 2", `the operator "%" is not allowed; allowed: decimal integers`},
	{"shift left", "1 << 3", `the operator "<<" is not allowed`},
	{"shift right", "8 >> 1", `the operator ">>" is not allowed`},
	{"bitwise and", "n & 1", `the operator "&" is not allowed`},
	{"bitwise or", "n | 1", `the operator "|" is not allowed`},
	{"xor", "n ^ 1", `the operator "^" is not allowed`},
	{"logical and", "n && 1", `the operator "&&" is not allowed`},
	{"not", "!n", `the operator "!" is not allowed`},
	{"comparison less", "n < 1", `the comparison "<" is not allowed`},
	{"comparison equal", "n == 1", `the comparison "==" is not allowed`},
	{"comparison greater or equal", "n >= 1", `the comparison ">=" is not allowed`},
	{"other call", "sqrt(4)", `unknown function "sqrt"; the functions are ceil(a, b), min(a, b, ...) and max(a, b, ...)`},
	{"conversion", "int64(n)", `unknown function "int64"`},
	{"method call", "math.Max(1, 2)", `unknown variable "math"`},
	{"ceil of one", "ceil(4)", "ceil takes two arguments"},
	{"ceil of three", "ceil(4, 2, 1)", "ceil takes two arguments"},
	{"min of one", "min(4)", "min takes two or more arguments; got 1"},
	{"max of none", "max()", "max takes two or more arguments; got 0"},
	{"spread", "min(n, C...)", `"..." is not allowed; list the arguments`},
	{"float", "1.5", "the number 1.5 is not an integer"},
	{"exponent", "1e3", "the number 1e3 is not an integer"},
	{"imaginary", "2i", "the number 2i is not an integer"},
	{"string", `"abc"`, "is not a number; strings and characters are not allowed"},
	{"character", "'a'", "is not a number; strings and characters are not allowed"},
	{"hexadecimal", "0x10", "the literal 0x10 is not a decimal integer"},
	{"octal", "0o17", "the literal 0o17 is not a decimal integer"},
	{"leading zero", "010", "the literal 010 is not a decimal integer"},
	{"beyond int64", "9223372036854775808", "the literal 9223372036854775808 is beyond int64"},
	{"selector", "n.x", `the character "." is not allowed`},
	{"index", "n[1]", `the character "[" is not allowed`},
	{"division by zero", "1 / 0", "bytes divides by 0; the divisor of / and of ceil(a, b) must be > 0"},
	{"ceil by zero", "ceil(1, 0)", "bytes divides by 0"},
	{"division by a negative", "n / (0 - 2)", "bytes divides by -2"},
	{"division of a negative", "(0 - 4) / 2", "bytes divides a negative number (-4); / and ceil(a, b) need a >= 0"},
	{"ceil of a negative", "ceil(0 - 4, 2)", "bytes divides a negative number (-4)"},
	{"negative result", "0 - 1", "bytes is negative (-1); a tensor's bytes must be >= 0"},
	{"negative for the piece", "n - 100_000", "bytes is negative (-35,098) for a piece of 64,902 rows"},
	{"division by a variable that is 0", "n / k", "bytes divides by 0 for a piece of 64,902 rows"},
	{"overflow", "9223372036854775807 + 1", "bytes overflows int64"},
	{"overflow below", "0 - 9223372036854775807 - 2", "bytes overflows int64"},
	{"overflow of a negation", "-(0 - 9223372036854775807 - 1)", "bytes overflows int64"},
	{"overflow of a product", "n * 1_000_000_000_000_000", "bytes overflows int64 for a piece of 64,902 rows"},
	{"overflow when rounded", "9_223_372_036_854_775_300 + n / 64902", "bytes overflows int64 for a piece of 64,902 rows"},
	{"empty", "", "bytes is empty; write the tensor's bytes as an expression"},
	{"blank", "   ", "bytes is empty"},
	{"syntax", "n +", `bytes is not a valid expression: 1:4: expected a number, a variable, a call or "(", found the end`},
	{"bad separator", "1__0", "bytes is not a valid expression"},
	{"trailing separator", "1_000_", "bytes is not a valid expression"},
	{"statement", "n = 1", `the operator "=" is not allowed`},
	{"too long", strings.Repeat("1+", 128) + "1", "bytes is 257 bytes long; at most 256 are allowed"},
}

func TestTermLanguageErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range termErrors {
		t.Run(tc.name, func(t *testing.T) {
			c := Default()
			c.Terms = []Term{{Name: "ok", Place: "head", Bytes: "D"}, {Name: "bad_one", Place: "stage", Revision: "both", Bytes: tc.expr}}
			_, err := Estimate(c)
			if err == nil {
				t.Fatalf("%q: no error", tc.expr)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "terms[1] (bad_one): ") || !strings.Contains(msg, tc.want) {
				t.Errorf("%q:\n got %s\nwant terms[1] (bad_one): ...%s...", tc.expr, msg, tc.want)
			}
			if strings.Count(msg, "terms[") != 1 || strings.Contains(msg, "\n") {
				t.Errorf("%q: one line for the one bad term, got %q", tc.expr, msg)
			}
			var e *Error
			if list := FieldErrors(err); len(list) != 1 || !errors.As(list[0], &e) || e.Field != "terms[1] (bad_one)" {
				t.Errorf("%q: field errors %v", tc.expr, list)
			}
		})
	}
}

// TestTermLanguageAtCompileTime: an expression without variables is
// evaluated once, when the config is read, so its errors stop the decoder.
func TestTermLanguageAtCompileTime(t *testing.T) {
	t.Parallel()
	for _, expr := range []string{"1 / 0", "0 - 1", "9223372036854775807 + 1", "min(1, 2) - 3"} {
		_, err := DecodeConfig([]byte(`{"terms": [{"name": "x", "place": "head", "bytes": "` + expr + `"}]}`))
		if err == nil || !strings.HasPrefix(err.Error(), "terms[0] (x): bytes ") {
			t.Errorf("%s: decoder says %v", expr, err)
		}
	}
	// A piece-dependent failure is the estimate's, not the decoder's.
	if _, err := DecodeConfig([]byte(`{"terms": [{"name": "x", "place": "head", "bytes": "n - 100000"}]}`)); err != nil {
		t.Errorf("decoder refused a term that fails only for some pieces: %v", err)
	}
}

// TestTermsRoundTrip: a config with terms is written and read back
// unchanged; without terms the JSON has no "terms" key.
func TestTermsRoundTrip(t *testing.T) {
	t.Parallel()
	c := Default()
	if strings.Contains(marshalConfigString(c), "terms") {
		t.Fatalf("a config without terms writes the key")
	}
	c.Terms = []Term{
		{Name: "a", Place: "head", Bytes: "2 * D"},
		{Name: "b", Place: "stage", Revision: "both", Bytes: "ceil(n, 8)"},
	}
	back, err := DecodeConfig(MarshalConfig(c))
	if err != nil || marshalConfigString(back) != marshalConfigString(c) {
		t.Fatalf("read back %s, %v", MarshalConfig(back), err)
	}
	if back, err := DecodeConfig([]byte(`{"terms": null}`)); err != nil || back.Terms != nil {
		t.Errorf("null terms: %v, %v", back.Terms, err)
	}
}

// TestCheckTerms: the terms alone, with the messages Resolve gives.
func TestCheckTerms(t *testing.T) {
	t.Parallel()
	if err := CheckTerms([]Term{{Name: "a", Place: "head", Bytes: "2 * D"}}); err != nil {
		t.Errorf("a good term: %v", err)
	}
	err := CheckTerms([]Term{{Name: "a", Place: "head", Bytes: "2 * D"}, {Name: "b", Place: "fc2", Bytes: "x"}, {Name: "a", Place: "gdn", Bytes: "1"}})
	want := `terms[1] (b): unknown variable "x"; known: n, p, t, r, D, Dt, N, P, T, s, V, H, L, K, M, I, O, b, E, C, k, g, Hk, Dk, Hv, Dv, X; ` +
		`terms[2] (a): the name is already used by terms[0]; names must be unique`
	if err == nil || err.Error() != want || len(FieldErrors(err)) != 2 {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestCheckTermsDuplicateOfBad: a name is taken by the first term that
// uses it, even when that term is bad for another reason.
func TestCheckTermsDuplicateOfBad(t *testing.T) {
	t.Parallel()
	err := CheckTerms([]Term{{Name: "a", Place: "head", Bytes: "x"}, {Name: "a", Place: "gdn", Bytes: "1"}})
	if list := FieldErrors(err); len(list) != 2 || !strings.Contains(list[1].Error(), "terms[1] (a): the name is already used by terms[0]") {
		t.Errorf("got %v", err)
	}
}

func TestTermIndex(t *testing.T) {
	t.Parallel()
	cases := []struct {
		field string
		i     int
		ok    bool
	}{
		{"terms[0] (a)", 0, true},
		{`terms[12] ("Q")`, 12, true},
		{"terms", 0, false},
		{"request.rows", 0, false},
		{"terms[x] (a)", 0, false},
		{"terms[-1] (a)", 0, false},
	}
	for _, c := range cases {
		t.Run(c.field, func(t *testing.T) {
			i, ok := TermIndex(c.field)
			if i != c.i || ok != c.ok {
				t.Errorf("TermIndex(%q) = %d, %v; want %d, %v", c.field, i, ok, c.i, c.ok)
			}
		})
	}
}
