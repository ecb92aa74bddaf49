//go:build !wasm

package e2e

// Terms of your own in a real browser: add one, type a bad expression
// (its message beside it, the rest of the page on the last valid state),
// fix it, read the help, see the decisions, breakdown and chart move to
// what the estimator says for the config the address encodes, open the
// address in a fresh tab, and remove the term.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"headroom/app/ui/page"
	"headroom/estimator"
	"headroom/estimator/urlquery"
)

// setField sets an input's or select's value as a person's edit does and
// fires the event the page listens to.
func (tb *tab) setField(id, value, event string) {
	tb.t.Helper()
	tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const e = document.getElementById(%q);
		e.value = %s;
		e.dispatchEvent(new Event(%q, {bubbles: true}));
	})()`, id, jsString(value), event)))
}

const (
	candidateDecisionJS = `(document.querySelector('#decision-candidate .decision')?.textContent ?? '').trim()`
	candidateRequiredJS = `(document.querySelector('#decision-candidate .facts dd')?.textContent ?? '').trim()`
)

func TestE2ETerms(t *testing.T) {
	cfg := estimator.Default()
	cfg.Request.Rows = 214000
	cfg.Budget.InUseBytes = 68451041280
	withTerm := cfg
	withTerm.Terms = []estimator.Term{{Name: "logits_fp32_copy", Place: "retained", Revision: "candidate", Bytes: "2 * D"}}
	before, after := expectedDecisions(t, cfg), expectedDecisions(t, withTerm)
	if before == after {
		t.Fatalf("fixture: the term does not flip a decision (%+v)", before)
	}

	tb := newTab(t)
	tb.open(query(cfg))
	if got := tb.decisions(); got != before {
		t.Fatalf("decisions %+v, the estimator says %+v", got, before)
	}
	svgBefore := eval[string](tb, `document.querySelector('#chart svg').outerHTML`)

	tb.do(chromedp.Click(chromedp.ID("term-add")))
	tb.waitExpr("the new term's bytes field", `document.getElementById('term-bytes-0')?.value ?? '<none>'`,
		func(s string) bool { return s == "0" })
	tb.setField("term-name-0", "logits_fp32_copy", "input")
	tb.setField("term-place-0", "retained", "change")

	// An unknown variable: the message beside the field, the text kept,
	// the decisions still the last valid ones.
	tb.setField("term-bytes-0", "2 * Q", "input")
	msg := tb.waitExpr("the unknown-variable message", `document.getElementById('error-term-0')?.textContent ?? ''`,
		func(s string) bool { return s != "" })
	if !strings.Contains(msg, `unknown variable "Q"`) || !strings.Contains(msg, "known: n, p, t") {
		t.Errorf("#error-term-0 = %q, want the unknown-variable message listing the variables", msg)
	}
	if got := tb.value("term-bytes-0"); got != "2 * Q" {
		t.Errorf("#term-bytes-0 = %q, the typed text lost", got)
	}
	if got := tb.decisions(); got != before {
		t.Errorf("with a bad term the decisions are %+v, want the last valid %+v", got, before)
	}

	tb.setField("term-bytes-0", "2 * D", "input")
	tb.waitExpr("the message to clear", `document.getElementById('error-term-0')?.textContent ?? '<none>'`,
		func(s string) bool { return s == "" })
	tb.waitExpr("the candidate's decision to move", candidateDecisionJS, func(s string) bool { return s == after.candidate })

	// The address encodes the term; what the page shows is the
	// estimator's estimate of that config.
	tb.waitExpr("the term in the address", `location.search`, func(s string) bool {
		return strings.Contains(s, "term=logits_fp32_copy~retained~candidate~2+*+D")
	})
	page, errs := urlquery.Decode(tb.query())
	if len(errs) > 0 || string(estimator.MarshalConfig(page)) != string(estimator.MarshalConfig(withTerm)) {
		t.Fatalf("the address says\n%s\n(errors %v), want\n%s", estimator.MarshalConfig(page), errs, estimator.MarshalConfig(withTerm))
	}
	res, err := estimator.Estimate(page)
	if err != nil {
		t.Fatal(err)
	}
	if got := tb.decisions(); got != (decisions{res.Baseline.Decision.String(), res.Candidate.Decision.String()}) {
		t.Errorf("decisions %+v, the estimate of the address %v / %v", got, res.Baseline.Decision, res.Candidate.Decision)
	}
	if got := eval[string](tb, candidateRequiredJS); got != res.Candidate.RequiredBytes.String() {
		t.Errorf("candidate required %q, the estimate of the address %q", got, res.Candidate.RequiredBytes.String())
	}
	row := eval[string](tb, `[...document.querySelectorAll('#breakdown tr.term')].map(r => r.textContent).join(' | ')`)
	if !strings.Contains(row, "logits_fp32_copy") || !strings.Contains(row, estimator.Group(int64(res.Candidate.Retained.Tensors[len(res.Candidate.Retained.Tensors)-1].Bytes))) {
		t.Errorf("breakdown term rows %q", row)
	}
	tb.waitExpr("the chart to move", `document.querySelector('#chart svg').outerHTML`, func(s string) bool { return s != svgBefore })

	// The help: the variables' values and the term's.
	tb.do(chromedp.Click(chromedp.ID("term-help-0")))
	vars := tb.waitExpr("the variables", `document.getElementById('term-vars-0')?.textContent ?? ''`,
		func(s string) bool { return s != "" })
	for _, want := range []string{"n = 214,000", "D = 155,582,464", "K = 10"} {
		if !strings.Contains(vars, want) {
			t.Errorf("the help lacks %q: %s", want, vars)
		}
	}
	if v := eval[string](tb, `document.getElementById('term-value-0').textContent`); !strings.Contains(v, "311,164,928 bytes") {
		t.Errorf("#term-value-0 = %q", v)
	}

	// The link, in a fresh tab: the term restored.
	link := eval[string](tb, `location.search`)
	fresh := newTab(t)
	fresh.open(link)
	for id, want := range map[string]string{"term-name-0": "logits_fp32_copy", "term-place-0": "retained",
		"term-revision-0": "candidate", "term-bytes-0": "2 * D"} {
		if got := fresh.value(id); got != want {
			t.Errorf("the shared link restores #%s = %q, want %q", id, got, want)
		}
	}
	if got := fresh.decisions(); got != after {
		t.Errorf("the shared link decides %+v, want %+v", got, after)
	}

	// Remove: the page is back where it started.
	tb.do(chromedp.Click(chromedp.ID("term-remove-0")))
	tb.waitExpr("the term to go", `String(document.getElementById('term-0') === null)`, func(s string) bool { return s == "true" })
	tb.waitExpr("the candidate's decision to move back", candidateDecisionJS, func(s string) bool { return s == before.candidate })
	tb.waitExpr("the address without the term", `location.search`, func(s string) bool { return !strings.Contains(s, "term=") })
}

// TestE2ETermsBadLink opens a hand-edited link with a bad term: the term
// shows its text and the estimator's message, the good term and the rest
// of the link are kept, and the page decides with the good term.
func TestE2ETermsBadLink(t *testing.T) {
	cfg := page.NewConfig() // the page's default, which the link changes
	cfg.Request.Rows = 100000
	cfg.Terms = []estimator.Term{{Name: "good", Place: "stage", Revision: "both", Bytes: "n * 10_000"}}
	res, err := estimator.Estimate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tb := newTab(t)
	tb.open("?rows=100000&term=bad~head~candidate~2+*+Q&term=good~stage~both~n+*+10_000")
	msg := tb.waitExpr("the bad term's message", `document.getElementById('error-term-0')?.textContent ?? ''`,
		func(s string) bool { return s != "" })
	if !strings.Contains(msg, `unknown variable "Q"`) {
		t.Errorf("#error-term-0 = %q", msg)
	}
	if got := tb.value("term-bytes-0"); got != "2 * Q" {
		t.Errorf("#term-bytes-0 = %q, want the link's text", got)
	}
	if got := eval[string](tb, `document.getElementById('error-term-1').textContent`); got != "" {
		t.Errorf("the good term is marked: %q", got)
	}
	if got := tb.value("term-bytes-1"); got != "n * 10_000" {
		t.Errorf("#term-bytes-1 = %q", got)
	}
	if got := tb.value("input-rows"); got != "100000" {
		t.Errorf("#input-rows = %q, the link's rows lost", got)
	}
	if got := eval[string](tb, candidateRequiredJS); got != res.Candidate.RequiredBytes.String() {
		t.Errorf("candidate required %q, the estimate with the good term %q", got, res.Candidate.RequiredBytes.String())
	}
	if got := eval[string](tb, `[...document.querySelectorAll('#chart svg text')].map(e => e.textContent).join('|')`); !strings.Contains(got, "good") {
		t.Errorf("the chart's legend lacks the stage term: %s", got)
	}
}
