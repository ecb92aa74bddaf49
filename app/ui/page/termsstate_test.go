package page

import (
	"net/url"
	"strings"
	"testing"

	"headroom/estimator"
	"headroom/estimator/urlquery"
)

func appliedNames(s *State) string {
	var names []string
	for _, t := range s.Cfg.Terms {
		names = append(names, t.Name+"="+t.Bytes)
	}
	return strings.Join(names, ",")
}

// TestTermsEditKeepsLastValid adds a term, types an unknown variable (the
// message beside it, the text kept, the chart on the last valid term),
// then a good expression, then removes it.
func TestTermsEditKeepsLastValid(t *testing.T) {
	t.Parallel()
	s := New()
	s.EditTerms(Edit{Kind: EditTermAdd})
	s.Validate()
	if got := appliedNames(&s); got != "term_1=0" || len(s.Errs) != 0 {
		t.Fatalf("after add: applied %q, errors %v", got, s.Errs)
	}
	s.EditTerms(TermEdit("bytes", 0, "2 * Q"))
	s.Validate()
	if m := s.Errs[TermKey(0)]; !strings.Contains(m, `unknown variable "Q"`) || !strings.Contains(m, "known: n, p, t") {
		t.Errorf("error beside the term %q, want the unknown-variable message", m)
	}
	if got := appliedNames(&s); got != "term_1=0" {
		t.Errorf("applied %q while the text is bad, want the last valid term_1=0", got)
	}
	if got := s.Terms[0].Typed.Bytes; got != "2 * Q" {
		t.Errorf("typed text %q lost", got)
	}
	if !s.Valid {
		t.Errorf("the state is not valid: the last valid terms should still price")
	}
	s.EditTerms(TermEdit("bytes", 0, "2 * D"))
	s.Validate()
	if got := appliedNames(&s); got != "term_1=2 * D" || len(s.Errs) != 0 {
		t.Errorf("applied %q, errors %v; want term_1=2 * D and none", got, s.Errs)
	}
	want, err := estimator.Estimate(s.Cfg)
	if err != nil || s.Result.Candidate.RequiredBytes != want.Candidate.RequiredBytes {
		t.Errorf("result %v, estimate %v (%v)", s.Result.Candidate.RequiredBytes, want.Candidate.RequiredBytes, err)
	}
	s.EditTerms(Edit{Kind: EditTermRemove, Key: "0"})
	s.Validate()
	if len(s.Terms) != 0 || len(s.Cfg.Terms) != 0 {
		t.Errorf("after remove: %d drafts, %d terms", len(s.Terms), len(s.Cfg.Terms))
	}
}

func TestTermsErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, part, text, msg string
	}{
		{"unknown variable", "bytes", "2 * Q", `unknown variable "Q"`},
		{"power", "bytes", "n ** 2", `"**"`},
		{"empty", "bytes", "", "bytes is empty"},
		{"bad name", "name", "Bad", "name must be"},
		{"duplicate name", "name", "a", "already used by terms[0]"},
		{"stage named after a stage", "name", "head", "cannot be named"},
		{"negative when priced", "bytes", "n - 100_000", "negative"},
		{"unknown place", "place", "neck", "place must be one of"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := New()
			s.EditTerms(Edit{Kind: EditTermAdd})
			s.EditTerms(TermEdit("name", 0, "a"))
			s.EditTerms(Edit{Kind: EditTermAdd})
			s.EditTerms(TermEdit("bytes", 1, "n"))
			if c.name == "stage named after a stage" {
				s.EditTerms(TermEdit("place", 1, "stage"))
			}
			before := appliedNames(&s)
			s.EditTerms(TermEdit(c.part, 1, c.text))
			s.Validate()
			if m := s.Errs[TermKey(1)]; !strings.Contains(m, c.msg) {
				t.Errorf("message %q, want %q", m, c.msg)
			}
			if got := appliedNames(&s); got != before {
				t.Errorf("applied %q, want the last valid %q", got, before)
			}
			if !s.Valid || s.Errs[TermKey(0)] != "" {
				t.Errorf("valid %v, errors %v: only term 1 is in error", s.Valid, s.Errs)
			}
			// The address keeps what was typed, and the link reopens
			// with the term marked and the rest kept.
			back := Decode(s.Query(nil), nil)
			if got := back.Terms[1].Typed; got != s.Terms[1].Typed {
				t.Errorf("the link reopens term 1 as %+v, want %+v", got, s.Terms[1].Typed)
			}
			if back.Errs[TermKey(1)] == "" || back.Errs[TermKey(0)] != "" || len(back.Cfg.Terms) != 1 || !back.Valid {
				t.Errorf("the link reopens with errors %v and terms %v", back.Errs, back.Cfg.Terms)
			}
		})
	}
}

// TestTermsRemoveWhileAnotherIsBad: removing a term takes it out of the
// chart even while another term is in error.
func TestTermsRemoveWhileAnotherIsBad(t *testing.T) {
	t.Parallel()
	s := New()
	s.EditTerms(Edit{Kind: EditTermAdd})
	s.EditTerms(TermEdit("bytes", 0, "D"))
	s.EditTerms(Edit{Kind: EditTermAdd})
	s.EditTerms(TermEdit("bytes", 1, "3 * D"))
	s.EditTerms(TermEdit("bytes", 1, "3 *"))
	s.EditTerms(Edit{Kind: EditTermRemove, Key: "0"})
	s.Validate()
	if got := appliedNames(&s); got != "term_2=3 * D" {
		t.Errorf("applied %q, want term_2=3 * D (term_1 removed, term_2's last valid kept)", got)
	}
	if m := s.Errs[TermKey(0)]; !strings.Contains(m, "not a valid expression") {
		t.Errorf("term_2's message moved to %v", s.Errs)
	}
}

// TestTermsURLRoundTrip: every placement and revision survive the page's
// address, written as the address bar has it, and the config is the
// estimator's own decoding of it.
func TestTermsURLRoundTrip(t *testing.T) {
	t.Parallel()
	terms := []estimator.Term{
		{Name: "kept", Place: "retained", Revision: "both", Bytes: "n * K * 4"},
		{Name: "logits_fp32_copy", Place: "head", Revision: "candidate", Bytes: "2 * D"},
		{Name: "ep_dispatch", Place: "fc2", Revision: "baseline", Bytes: "r * H * b"},
		{Name: "act", Place: "activations", Revision: "candidate", Bytes: "ceil(n * H, 3)"},
		{Name: "g1", Place: "gdn", Revision: "both", Bytes: "max(n, 2) / (1 + g)"},
		{Name: "router", Place: "stage", Revision: "candidate", Bytes: "n * 1_000 + 5"},
	}
	cfg := NewConfig() // the page's default: resident memory at expert parallelism 8
	cfg.Terms = terms
	s := Decode(urlquery.Encode(cfg), nil)
	if len(s.Errs) != 0 || string(estimator.MarshalConfig(s.Cfg)) != string(estimator.MarshalConfig(cfg)) {
		t.Fatalf("errors %v, config\n%s", s.Errs, estimator.MarshalConfig(s.Cfg))
	}
	addr := EncodeAddress(s.Query(nil))
	if !strings.Contains(addr, "term=logits_fp32_copy~head~candidate~2+*+D") {
		t.Errorf("the address does not read as typed: %s", addr)
	}
	q, err := url.ParseQuery(addr)
	if err != nil {
		t.Fatal(err)
	}
	if q.Encode() != s.Query(nil).Encode() {
		t.Errorf("encodeAddress reads back as\n%s\nwant\n%s", q.Encode(), s.Query(nil).Encode())
	}
	back := Decode(q, nil)
	if string(estimator.MarshalConfig(back.Cfg)) != string(estimator.MarshalConfig(cfg)) || len(back.Errs) != 0 {
		t.Errorf("round trip: errors %v, config\n%s", back.Errs, estimator.MarshalConfig(back.Cfg))
	}
	// The estimator reads the same terms from it (the page's own defaults,
	// expert parallelism 8 and the resident group, are the page's keys).
	page, errs := urlquery.Decode(q)
	page.FC2.ExpertParallel, page.Resident = cfg.FC2.ExpertParallel, cfg.Resident
	if len(errs) != 0 || string(estimator.MarshalConfig(page)) != string(estimator.MarshalConfig(cfg)) {
		t.Errorf("the estimator reads the address as\n%s (%v)", estimator.MarshalConfig(page), errs)
	}
}

func TestEncodeAddressLikeEncode(t *testing.T) {
	t.Parallel()
	q := url.Values{"rows": {"1"}, "b.changes": {"a,b"}, "from": {"x y"}, "term": {"a~head~~(n + 1) * 2 / 3 & #; %"}}
	got := EncodeAddress(q)
	back, err := url.ParseQuery(got)
	if err != nil || back.Encode() != q.Encode() {
		t.Fatalf("%s reads back as %v (%v)", got, back, err)
	}
	if want := "b.changes=a%2Cb&from=x+y&rows=1&"; !strings.HasPrefix(got, want) {
		t.Errorf("other keys not written as Encode writes them: %s", got)
	}
}
