package urlquery

import (
	"headroom/estimator"
	"net/url"
	"strings"
	"testing"
)

func TestQueryTermsRoundTrip(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		terms []estimator.Term
	}{
		{"none", nil},
		{"one of each place", []estimator.Term{
			{Name: "kept", Place: "retained", Revision: "both", Bytes: "n * K * 4"},
			{Name: "act", Place: "activations", Revision: "candidate", Bytes: "n * H"},
			{Name: "logits_fp32_copy", Place: "head", Revision: "candidate", Bytes: "2 * D"},
			{Name: "ep_dispatch", Place: "fc2", Revision: "baseline", Bytes: "r * H * b"},
			{Name: "g1", Place: "gdn", Bytes: "ceil(n * Hv, 3) + min(1, 2, 3)"},
			{Name: "router", Place: "stage", Revision: "both", Bytes: "(n + 1_000) / 2 - 0"},
		}},
		{"characters a URL escapes", []estimator.Term{{Name: "x", Place: "head", Bytes: "max(D, 2 * Dt) / (1 + g)"}}},
		{"art places and modes", []estimator.Term{
			{Name: "one_gradient", Place: "input_gradient", Mode: "replace", Bytes: "min(B, 2 * n * H)"},
			{Name: "state", Place: "head", Revision: "both", Mode: "add", Bytes: "256 * ng"},
			{Name: "own", Place: "stage", Revision: "baseline", Bytes: "q * 4096"},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := estimator.Default()
			cfg.Terms = c.terms
			if strings.HasPrefix(c.name, "art") {
				cfg.Profile = estimator.ProfileArt
			}
			q := Encode(cfg)
			if got := len(q[TermKey]); got != len(c.terms) {
				t.Fatalf("%d term values, want %d: %v", got, len(c.terms), q)
			}
			back, err := url.ParseQuery(q.Encode())
			if err != nil {
				t.Fatal(err)
			}
			got, errs := Decode(back)
			if len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			if string(estimator.MarshalConfig(got)) != string(estimator.MarshalConfig(cfg)) {
				t.Errorf("round trip\n%s\nwant\n%s", estimator.MarshalConfig(got), estimator.MarshalConfig(cfg))
			}
		})
	}
}

func TestQueryTermValue(t *testing.T) {
	t.Parallel()
	tm := estimator.Term{Name: "logits_fp32_copy", Place: "head", Revision: "candidate", Bytes: "2 * D"}
	if got, want := EncodeTerm(tm), "logits_fp32_copy~head~candidate~2 * D"; got != want {
		t.Errorf("EncodeTerm = %q, want %q", got, want)
	}
	short, err := DecodeTerm("x~head~2 * D")
	if err != nil || short != (estimator.Term{Name: "x", Place: "head", Bytes: "2 * D"}) {
		t.Errorf("name~place~bytes: %+v %v", short, err)
	}
	rep := estimator.Term{Name: "x", Place: "input_gradient", Mode: "replace", Bytes: "2 * n * H"}
	if got := EncodeTerm(rep); got != "x~input_gradient~~replace~2 * n * H" {
		t.Errorf("EncodeTerm(replace) = %q", got)
	}
	if back, err := DecodeTerm(EncodeTerm(rep)); err != nil || back != rep {
		t.Errorf("replace round trip: %+v %v", back, err)
	}
	if _, err := DecodeTerm("x~head"); err == nil || !strings.Contains(err.Error(), "name~place~revision~bytes") {
		t.Errorf("two parts: %v", err)
	}
}

// TestQueryBadTermKept: a bad term in a hand-edited link is reported,
// named by its place in the link, and the rest of the link is kept.
func TestQueryBadTermKept(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, bad, field, msg string
	}{
		{"unknown variable", "q~head~candidate~2 * Q", "terms[1] (q)", `unknown variable "Q"`},
		{"shape", "nonsense", "terms[1] (nonsense)", "name~place~revision~bytes"},
		{"unknown place", "q~neck~candidate~1", "terms[1] (q)", "place must be one of"},
		{"duplicate name", "a~fc2~~1", "terms[1] (a)", "already used by terms[0]"},
		{"bad name", "Q~head~~1", `terms[1] ("Q")`, "name must be"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := url.Values{"rows": {"1000"}, TermKey: {"a~head~candidate~2 * D", c.bad, "b~retained~both~n * 4"}}
			cfg, errs := Decode(q)
			if len(errs) != 1 || errs[0].Field != c.field || !strings.Contains(errs[0].Message, c.msg) {
				t.Fatalf("errors %v, want one on %s saying %q", errs, c.field, c.msg)
			}
			if cfg.Request.Rows != 1000 {
				t.Errorf("rows = %d, the link's 1000 lost", cfg.Request.Rows)
			}
			var names []string
			for _, tm := range cfg.Terms {
				names = append(names, tm.Name)
			}
			if got := strings.Join(names, ","); got != "a,b" {
				t.Errorf("terms kept %q, want a,b", got)
			}
		})
	}
}

func TestQueryTooManyTerms(t *testing.T) {
	t.Parallel()
	var vals []string
	for i := range estimator.MaxTerms + 2 {
		vals = append(vals, "t"+string(rune('a'+i))+"~head~~1")
	}
	cfg, errs := Decode(url.Values{TermKey: vals})
	if len(cfg.Terms) != estimator.MaxTerms || len(errs) != 2 {
		t.Fatalf("%d terms kept, errors %v; want %d kept and 2 errors", len(cfg.Terms), errs, estimator.MaxTerms)
	}
	if i, ok := estimator.TermIndex(errs[0].Field); !ok || i != estimator.MaxTerms || !strings.Contains(errs[0].Message, "at most 16") {
		t.Errorf("first error %v", errs[0])
	}
}
