//go:build !wasm

package e2e

// A term under ART's code in a real browser: write ART's newer input
// gradient (one incoming gradient, replacing one per boundary) as a term,
// see a bad expression marked with its text kept, read the decision and
// the breakdown (the term under ART's checkpoint), and restore both from
// the link in a fresh tab; then write a switch as terms there.

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"headroom/estimator"
	"headroom/estimator/urlquery"
)

func TestE2ETermsUnderArt(t *testing.T) {
	cfg := estimator.Default()
	cfg.Profile = estimator.ProfileArt
	cfg.Request.Rows = 120000
	cfg.Budget.InUseBytes = 68451041280
	term := estimator.Term{Name: "one_gradient", Place: "input_gradient", Revision: "candidate", Mode: "replace", Bytes: "min(B, 2 * n * H)"}
	withTerm := cfg
	withTerm.Terms = []estimator.Term{term}
	before, after := expectedDecisions(t, cfg), expectedDecisions(t, withTerm)
	if before == after {
		t.Fatalf("fixture: the term does not flip a decision (%+v)", before)
	}
	res, err := estimator.Estimate(withTerm)
	if err != nil {
		t.Fatal(err)
	}

	tb := newTab(t)
	tb.open(query(cfg))
	if got := tb.decisions(); got != before {
		t.Fatalf("decisions %+v, the estimator says %+v", got, before)
	}
	tb.do(chromedp.Click(chromedp.ID("term-add")))
	tb.waitExpr("the new term's mode menu", `document.getElementById('term-mode-0')?.value ?? '<none>'`,
		func(s string) bool { return s == "add" })
	tb.setField("term-name-0", term.Name, "input")
	tb.setField("term-place-0", term.Place, "change")
	tb.setField("term-mode-0", term.Mode, "change")

	// A variable ART's code does not have: marked, the text kept, the
	// decisions the last valid ones.
	tb.setField("term-bytes-0", "n * R", "input")
	msg := tb.waitExpr("the unknown-variable message", `document.getElementById('error-term-0')?.textContent ?? ''`,
		func(s string) bool { return s != "" })
	if !strings.Contains(msg, `unknown variable "R"`) || !strings.Contains(msg, "q, h, hb, Db, B, ng") {
		t.Errorf("#error-term-0 = %q, want ART's variables", msg)
	}
	if got := tb.value("term-bytes-0"); got != "n * R" {
		t.Errorf("#term-bytes-0 = %q, the typed text lost", got)
	}
	if got := tb.decisions(); got != before {
		t.Errorf("with a bad term the decisions are %+v, want the last valid %+v", got, before)
	}

	tb.setField("term-bytes-0", term.Bytes, "input")
	tb.waitExpr("the candidate's decision to move", candidateDecisionJS, func(s string) bool { return s == after.candidate })
	if got := eval[string](tb, candidateRequiredJS); got != res.Candidate.RequiredBytes.String() {
		t.Errorf("candidate required %q, the estimator says %q", got, res.Candidate.RequiredBytes.String())
	}
	breakdown := func(tb *tab) string {
		return tb.waitExpr("the term's breakdown row", `[...document.querySelectorAll('#breakdown tr.term')].map(r => r.textContent).join(' | ')`,
			func(s string) bool { return strings.Contains(s, term.Name) })
	}
	gradient := estimator.Group(120000 * 2 * 2048)
	if row := breakdown(tb); !strings.Contains(row, gradient) {
		t.Errorf("breakdown term rows %q, want %s bytes", row, gradient)
	}

	tb.waitExpr("the term in the address", `location.search`, func(s string) bool {
		return strings.Contains(s, "term=one_gradient~input_gradient~candidate~replace~min")
	})
	got, errs := urlquery.Decode(tb.query())
	if len(errs) > 0 || string(estimator.MarshalConfig(got)) != string(estimator.MarshalConfig(withTerm)) {
		t.Fatalf("the address says\n%s\n(errors %v), want\n%s", estimator.MarshalConfig(got), errs, estimator.MarshalConfig(withTerm))
	}

	// The link in a fresh tab: the term, the decision and the breakdown.
	fresh := newTab(t)
	fresh.open(eval[string](tb, `location.search`))
	for id, want := range map[string]string{"term-name-0": term.Name, "term-place-0": term.Place,
		"term-mode-0": term.Mode, "term-bytes-0": term.Bytes} {
		if v := fresh.value(id); v != want {
			t.Errorf("the link restores #%s = %q, want %q", id, v, want)
		}
	}
	if d := fresh.decisions(); d != after {
		t.Errorf("the link decides %+v, want %+v", d, after)
	}
	if row := breakdown(fresh); !strings.Contains(row, gradient) {
		t.Errorf("the link's breakdown term rows %q", row)
	}

	// "Write as terms": the switch off, its terms in, the price the same.
	required := eval[string](fresh, candidateRequiredJS)
	fresh.do(chromedp.Click(chromedp.ID("as-terms-fc2_known_storage")))
	fresh.waitExpr("the switch's terms", `document.getElementById('term-name-1')?.value ?? ''`,
		func(s string) bool { return s == "known_moe" })
	fresh.waitExpr("the switch off", `String(document.getElementById('check-fc2_known_storage')?.checked)`,
		func(s string) bool { return s == "false" })
	if r := eval[string](fresh, candidateRequiredJS); r != required {
		t.Errorf("written as terms the candidate needs %q, the switch %q", r, required)
	}
}
