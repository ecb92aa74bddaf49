package ui

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/chart"
	"headroom/estimator"
)

// termEdit is the edit a term's field sends.
func termEdit(part string, i int, text string) edit {
	return edit{Kind: editTerm, Key: part + "-" + strconv.Itoa(i), Text: text}
}

func appliedNames(s *pageState) string {
	var names []string
	for _, t := range s.cfg.Terms {
		names = append(names, t.Name+"="+t.Bytes)
	}
	return strings.Join(names, ",")
}

// TestTermsEditKeepsLastValid adds a term, types an unknown variable (the
// message beside it, the text kept, the chart on the last valid term),
// then a good expression, then removes it.
func TestTermsEditKeepsLastValid(t *testing.T) {
	s := newPageState()
	s.editTerms(edit{Kind: editTermAdd})
	s.validate()
	if got := appliedNames(&s); got != "term_1=0" || len(s.errs) != 0 {
		t.Fatalf("after add: applied %q, errors %v", got, s.errs)
	}
	s.editTerms(termEdit("bytes", 0, "2 * Q"))
	s.validate()
	if m := s.errs[termKey(0)]; !strings.Contains(m, `unknown variable "Q"`) || !strings.Contains(m, "known: n, p, t") {
		t.Errorf("error beside the term %q, want the unknown-variable message", m)
	}
	if got := appliedNames(&s); got != "term_1=0" {
		t.Errorf("applied %q while the text is bad, want the last valid term_1=0", got)
	}
	if got := s.terms[0].Typed.Bytes; got != "2 * Q" {
		t.Errorf("typed text %q lost", got)
	}
	if !s.valid {
		t.Errorf("the state is not valid: the last valid terms should still price")
	}
	s.editTerms(termEdit("bytes", 0, "2 * D"))
	s.validate()
	if got := appliedNames(&s); got != "term_1=2 * D" || len(s.errs) != 0 {
		t.Errorf("applied %q, errors %v; want term_1=2 * D and none", got, s.errs)
	}
	want, err := estimator.Estimate(s.cfg)
	if err != nil || s.result.Candidate.RequiredBytes != want.Candidate.RequiredBytes {
		t.Errorf("result %v, estimate %v (%v)", s.result.Candidate.RequiredBytes, want.Candidate.RequiredBytes, err)
	}
	s.editTerms(edit{Kind: editTermRemove, Key: "0"})
	s.validate()
	if len(s.terms) != 0 || len(s.cfg.Terms) != 0 {
		t.Errorf("after remove: %d drafts, %d terms", len(s.terms), len(s.cfg.Terms))
	}
}

func TestTermsErrors(t *testing.T) {
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
			s := newPageState()
			s.editTerms(edit{Kind: editTermAdd})
			s.editTerms(termEdit("name", 0, "a"))
			s.editTerms(edit{Kind: editTermAdd})
			s.editTerms(termEdit("bytes", 1, "n"))
			if c.name == "stage named after a stage" {
				s.editTerms(termEdit("place", 1, "stage"))
			}
			before := appliedNames(&s)
			s.editTerms(termEdit(c.part, 1, c.text))
			s.validate()
			if m := s.errs[termKey(1)]; !strings.Contains(m, c.msg) {
				t.Errorf("message %q, want %q", m, c.msg)
			}
			if got := appliedNames(&s); got != before {
				t.Errorf("applied %q, want the last valid %q", got, before)
			}
			if !s.valid || s.errs[termKey(0)] != "" {
				t.Errorf("valid %v, errors %v: only term 1 is in error", s.valid, s.errs)
			}
			// The address keeps what was typed, and the link reopens
			// with the term marked and the rest kept.
			back := decodePage(s.query(nil), nil)
			if got := back.terms[1].Typed; got != s.terms[1].Typed {
				t.Errorf("the link reopens term 1 as %+v, want %+v", got, s.terms[1].Typed)
			}
			if back.errs[termKey(1)] == "" || back.errs[termKey(0)] != "" || len(back.cfg.Terms) != 1 || !back.valid {
				t.Errorf("the link reopens with errors %v and terms %v", back.errs, back.cfg.Terms)
			}
		})
	}
}

// TestTermsRemoveWhileAnotherIsBad: removing a term takes it out of the
// chart even while another term is in error.
func TestTermsRemoveWhileAnotherIsBad(t *testing.T) {
	s := newPageState()
	s.editTerms(edit{Kind: editTermAdd})
	s.editTerms(termEdit("bytes", 0, "D"))
	s.editTerms(edit{Kind: editTermAdd})
	s.editTerms(termEdit("bytes", 1, "3 * D"))
	s.editTerms(termEdit("bytes", 1, "3 *"))
	s.editTerms(edit{Kind: editTermRemove, Key: "0"})
	s.validate()
	if got := appliedNames(&s); got != "term_2=3 * D" {
		t.Errorf("applied %q, want term_2=3 * D (term_1 removed, term_2's last valid kept)", got)
	}
	if m := s.errs[termKey(0)]; !strings.Contains(m, "not a valid expression") {
		t.Errorf("term_2's message moved to %v", s.errs)
	}
}

func TestTermsAtMost16(t *testing.T) {
	s := newPageState()
	for range estimator.MaxTerms + 1 {
		s.editTerms(edit{Kind: editTermAdd})
	}
	s.validate()
	if len(s.terms) != estimator.MaxTerms || len(s.cfg.Terms) != estimator.MaxTerms {
		t.Fatalf("%d drafts, %d terms; want %d", len(s.terms), len(s.cfg.Terms), estimator.MaxTerms)
	}
	if m := s.errs[keyTerms]; !strings.Contains(m, "at most 16") {
		t.Errorf("panel message %q", m)
	}
	html := app.HTMLString(&changesPanel{View: s.changesView()})
	if !strings.Contains(html, `id="term-add"`) || !strings.Contains(html, "disabled") {
		t.Errorf("the add button is not disabled at 16 terms")
	}
	s.editTerms(edit{Kind: editTermRemove, Key: "3"})
	s.validate()
	if s.errs[keyTerms] != "" {
		t.Errorf("the panel message stays after a remove: %q", s.errs[keyTerms])
	}
}

// TestTermsURLRoundTrip: every placement and revision survive the page's
// address, written as the address bar has it, and the config is the
// estimator's own decoding of it.
func TestTermsURLRoundTrip(t *testing.T) {
	terms := []estimator.Term{
		{Name: "kept", Place: "retained", Revision: "both", Bytes: "n * K * 4"},
		{Name: "logits_fp32_copy", Place: "head", Revision: "candidate", Bytes: "2 * D"},
		{Name: "ep_dispatch", Place: "fc2", Revision: "baseline", Bytes: "r * H * b"},
		{Name: "act", Place: "activations", Revision: "candidate", Bytes: "ceil(n * H, 3)"},
		{Name: "g1", Place: "gdn", Revision: "both", Bytes: "max(n, 2) / (1 + g)"},
		{Name: "router", Place: "stage", Revision: "candidate", Bytes: "n * 1_000 + 5"},
	}
	cfg := estimator.Default()
	cfg.Terms = terms
	s := decodePage(estimator.EncodeQuery(cfg), nil)
	if len(s.errs) != 0 || estimator.MarshalConfigString(s.cfg) != estimator.MarshalConfigString(cfg) {
		t.Fatalf("errors %v, config\n%s", s.errs, estimator.MarshalConfig(s.cfg))
	}
	addr := encodeAddress(s.query(nil))
	if !strings.Contains(addr, "term=logits_fp32_copy~head~candidate~2+*+D") {
		t.Errorf("the address does not read as typed: %s", addr)
	}
	q, err := url.ParseQuery(addr)
	if err != nil {
		t.Fatal(err)
	}
	if q.Encode() != s.query(nil).Encode() {
		t.Errorf("encodeAddress reads back as\n%s\nwant\n%s", q.Encode(), s.query(nil).Encode())
	}
	back := decodePage(q, nil)
	if estimator.MarshalConfigString(back.cfg) != estimator.MarshalConfigString(cfg) || len(back.errs) != 0 {
		t.Errorf("round trip: errors %v, config\n%s", back.errs, estimator.MarshalConfig(back.cfg))
	}
	page, errs := estimator.DecodeQuery(q)
	if len(errs) != 0 || estimator.MarshalConfigString(page) != estimator.MarshalConfigString(cfg) {
		t.Errorf("the estimator reads the address as\n%s (%v)", estimator.MarshalConfig(page), errs)
	}
}

func TestEncodeAddressLikeEncode(t *testing.T) {
	q := url.Values{"rows": {"1"}, "b.changes": {"a,b"}, "from": {"x y"}, "term": {"a~head~~(n + 1) * 2 / 3 & #; %"}}
	got := encodeAddress(q)
	back, err := url.ParseQuery(got)
	if err != nil || back.Encode() != q.Encode() {
		t.Fatalf("%s reads back as %v (%v)", got, back, err)
	}
	if want := "b.changes=a%2Cb&from=x+y&rows=1&"; !strings.HasPrefix(got, want) {
		t.Errorf("other keys not written as Encode writes them: %s", got)
	}
}

func TestTermsHelpValues(t *testing.T) {
	s := newPageState()
	s.editTerms(edit{Kind: editTermAdd})
	s.editTerms(termEdit("bytes", 0, "2 * D"))
	s.validate()
	if v := s.changesView(); len(v.Vars) != 0 || v.Terms[0].Value != "" {
		t.Errorf("values computed with the help closed: %+v", v)
	}
	s.editTerms(edit{Kind: editTermHelp, Key: "0"})
	v := s.changesView()
	vars := strings.Join(v.Vars, "\n")
	for _, want := range []string{"n = 64,902", "D = 155,582,464", "K = 10", "g = 1"} {
		if !strings.Contains(vars, want) {
			t.Errorf("help lacks %q:\n%s", want, vars)
		}
	}
	if got := v.Terms[0].Value; !strings.Contains(got, "2 * D = 311,164,928 bytes") {
		t.Errorf("the term's value %q", got)
	}
	s.editTerms(termEdit("bytes", 0, "2 * Q"))
	s.validate()
	if got := s.changesView().Terms[0].Value; !strings.Contains(got, `unknown variable "Q"`) {
		t.Errorf("the value of a bad expression says %q", got)
	}
}

// TestExplorerTermMovesChart drives the explorer: a term typed through
// the sink moves the required bytes, the breakdown lists it and the URL
// carries it.
func TestExplorerTermMovesChart(t *testing.T) {
	c, d := mountExplorer(t, nil)
	before, c0notes := c.shown.result.Candidate.RequiredBytes, c.shown.notes
	send(d, c, edit{Kind: editTermAdd})
	send(d, c, termEdit("name", 0, "logits_fp32_copy"))
	send(d, c, termEdit("bytes", 0, "2 * Q"))
	if c.shown.result.Candidate.RequiredBytes != before {
		t.Errorf("a bad term moved the result")
	}
	send(d, c, termEdit("place", 0, "retained"))
	send(d, c, termEdit("bytes", 0, "n * 2_000"))
	cfg := estimator.Default()
	cfg.Terms = []estimator.Term{{Name: "logits_fp32_copy", Place: "retained", Revision: "candidate", Bytes: "n * 2_000"}}
	want, err := estimator.Estimate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.shown.result.Candidate.RequiredBytes; got != want.Candidate.RequiredBytes || got == before {
		t.Errorf("required %v, want %v (before %v)", got, want.Candidate.RequiredBytes, before)
	}
	in, err := chart.Build(cfg, "rows", c.state.from, c.state.to, ChartPoints)
	if err != nil {
		t.Fatal(err)
	}
	if want := describeSweep(in, cfg.Request.SequenceRows); c.shown.notes != want || c.shown.notes.Candidate == c0notes.Candidate {
		t.Errorf("flip sentences %+v, want those of the sweep with the term %+v", c.shown.notes, want)
	}
	html := app.HTMLString(c)
	for _, id := range []string{"changes-panel", "term-0", "term-bytes-0", "term-remove-0", "error-term-0", "term-add",
		"check-head_eager_workspace", "check-fc2_known_storage", "check-gdn_early_release"} {
		if !idSet(idsIn(html)).has(id) {
			t.Errorf("no #%s", id)
		}
	}
	if q := c.state.query(c.list); q.Get("term") != "logits_fp32_copy~retained~candidate~n * 2_000" {
		t.Errorf("URL term = %q", q.Get("term"))
	}
}

func (m idSet) has(id string) bool { return m[id] }

type idSet map[string]bool
