package ui

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/chart"
	"headroom/app/ui/page"
	"headroom/estimator"
)

func TestTermsAtMost16(t *testing.T) {
	s := page.New()
	for range estimator.MaxTerms + 1 {
		s.EditTerms(page.Edit{For: page.ForTerms, Kind: page.EditTermAdd})
	}
	s.Validate()
	if len(s.Terms) != estimator.MaxTerms || len(s.Cfg.Terms) != estimator.MaxTerms {
		t.Fatalf("%d drafts, %d terms; want %d", len(s.Terms), len(s.Cfg.Terms), estimator.MaxTerms)
	}
	if m := s.Errs[page.KeyTerms]; !strings.Contains(m, "at most 16") {
		t.Errorf("panel message %q", m)
	}
	html := app.HTMLString(&changesPanel{View: changesViewOf(&s)})
	if !strings.Contains(html, `id="term-add"`) || !strings.Contains(html, "disabled") {
		t.Errorf("the add button is not disabled at 16 terms")
	}
	s.EditTerms(page.Edit{For: page.ForTerms, Kind: page.EditTermRemove, Key: "3"})
	s.Validate()
	if s.Errs[page.KeyTerms] != "" {
		t.Errorf("the panel message stays after a remove: %q", s.Errs[page.KeyTerms])
	}
}

func TestTermsHelpValues(t *testing.T) {
	s := page.New()
	s.EditTerms(page.Edit{For: page.ForTerms, Kind: page.EditTermAdd})
	s.EditTerms(page.TermEdit("bytes", 0, "2 * D"))
	s.Validate()
	if v := changesViewOf(&s); len(v.Vars) != 0 || v.Terms[0].Value != "" {
		t.Errorf("values computed with the help closed: %+v", v)
	}
	s.EditTerms(page.Edit{For: page.ForTerms, Kind: page.EditTermHelp, Key: "0"})
	v := changesViewOf(&s)
	vars := strings.Join(v.Vars, "\n")
	for _, want := range []string{"n = 64,902", "D = 155,582,464", "K = 10", "g = 1"} {
		if !strings.Contains(vars, want) {
			t.Errorf("help lacks %q:\n%s", want, vars)
		}
	}
	if got := v.Terms[0].Value; !strings.Contains(got, "2 * D = 311,164,928 bytes") {
		t.Errorf("the term's value %q", got)
	}
	s.EditTerms(page.TermEdit("bytes", 0, "2 * Q"))
	s.Validate()
	if got := changesViewOf(&s).Terms[0].Value; !strings.Contains(got, `unknown variable "Q"`) {
		t.Errorf("the value of a bad expression says %q", got)
	}
}

// TestExplorerTermMovesChart drives the explorer: a term typed through
// the sink moves the required bytes, the breakdown lists it and the URL
// carries it.
func TestExplorerTermMovesChart(t *testing.T) {
	c, d := mountExplorer(t, nil)
	before, c0notes := c.shown.result.Candidate.RequiredBytes, c.shown.notes
	send(d, c, page.Edit{For: page.ForTerms, Kind: page.EditTermAdd})
	send(d, c, page.TermEdit("name", 0, "logits_fp32_copy"))
	send(d, c, page.TermEdit("bytes", 0, "2 * Q"))
	if c.shown.result.Candidate.RequiredBytes != before {
		t.Errorf("a bad term moved the result")
	}
	send(d, c, page.TermEdit("place", 0, "retained"))
	send(d, c, page.TermEdit("bytes", 0, "n * 2_000"))
	cfg := page.NewConfig() // the page's default: resident memory at expert parallelism 8
	cfg.Terms = []estimator.Term{{Name: "logits_fp32_copy", Place: "retained", Revision: "candidate", Bytes: "n * 2_000"}}
	want, err := estimator.Estimate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.shown.result.Candidate.RequiredBytes; got != want.Candidate.RequiredBytes || got == before {
		t.Errorf("required %v, want %v (before %v)", got, want.Candidate.RequiredBytes, before)
	}
	in, err := chart.Build(cfg, "rows", c.state.From, c.state.To, page.ChartPoints)
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
	if q := c.state.Query(c.list); q.Get("term") != "logits_fp32_copy~retained~candidate~n * 2_000" {
		t.Errorf("URL term = %q", q.Get("term"))
	}
}

func (m idSet) has(id string) bool { return m[id] }

type idSet map[string]bool
