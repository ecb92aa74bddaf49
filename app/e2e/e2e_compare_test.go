//go:build !wasm

package e2e

// Comparing two setups in a real browser: the ready-made "H100 against
// H200", both decisions and the flip sentence naming the setups, and the
// link that restores it in a fresh page.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"headroom/app/ui/page"
	"headroom/estimator"
)

// waitExpr polls a JavaScript expression (a string) until ok accepts it,
// failing with the last value seen when the deadline passes.
func (tb *tab) waitExpr(what, expr string, ok func(string) bool) string {
	tb.t.Helper()
	var got string
	tb.waitUntil(what, 20*time.Second, func() (bool, string) {
		got = eval[string](tb, expr)
		return ok(got), fmt.Sprintf("%q", got)
	})
	return got
}

// comparedView is what the page shows of a comparison.
type comparedView struct {
	baseTitle, candTitle string
	decisions            decisions
	sentence             string
}

func (tb *tab) comparedView() comparedView {
	tb.t.Helper()
	text := func(sel string) string {
		return eval[string](tb, fmt.Sprintf(`(document.querySelector(%q)?.textContent ?? '<missing>').trim()`, sel))
	}
	return comparedView{
		baseTitle: text("#decision-baseline h3"),
		candTitle: text("#decision-candidate h3"),
		decisions: tb.decisions(),
		sentence:  text("#change-summary"),
	}
}

// forgetOrigin unregisters the page's service worker and empties its
// caches, so a test that runs later sees the origin's first load, as
// TestE2EPageLoads (which checks that app.wasm comes compressed, not from
// the worker's cache) expects: this file's tests run before it.
func (tb *tab) forgetOrigin() {
	tb.t.Helper()
	tb.do(chromedp.Evaluate[chromedp.Void](`(async () => {
		for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
		for (const k of await caches.keys()) await caches.delete(k);
		return true;
	})()`, chromedp.EvalAwaitPromise))
}

func TestE2ECompareH100H200(t *testing.T) {
	// 300,000 rows: the H100 splits them, the H200 admits them whole.
	cfg := estimator.Default()
	cfg.Request.Rows = 300000
	tb := newTab(t)
	tb.open(query(cfg))
	defer tb.forgetOrigin()

	n := tb.renders()
	tb.do(chromedp.Evaluate[chromedp.Void](`(() => {
		const m = document.getElementById('compare-preset');
		m.value = 'h100-h200';
		m.dispatchEvent(new Event('change', {bubbles: true}));
	})()`))
	tb.waitRenders(n)

	cmp := cfg
	cmp.Budget.CapacityBytes = estimator.H200CapacityBytes
	cmp.Baseline = &estimator.Baseline{Changes: cfg.Changes,
		Overrides: estimator.Overrides{"budget.capacity_bytes": {Int: estimator.H100CapacityBytes}}}
	want := expectedDecisions(t, cmp)
	if want.baseline != "split" || want.candidate != "admit" {
		t.Fatalf("fixture: at 300,000 rows the H100 and H200 decide %+v", want)
	}
	const sentence = "Between 227,374 rows (55.511 sequences) and 375,781 rows (91.743 sequences) H200 admits where H100 80GB split"
	check := func(tb *tab, where string) {
		t.Helper()
		tb.waitExpr(where+": the baseline's title", `document.querySelector('#decision-baseline h3')?.textContent ?? ''`,
			func(s string) bool { return s == "H100 80GB" })
		got := tb.comparedView()
		if got.baseTitle != "H100 80GB" || got.candTitle != "H200" {
			t.Errorf("%s: panels titled %q and %q, want H100 80GB and H200", where, got.baseTitle, got.candTitle)
		}
		if got.decisions != want {
			t.Errorf("%s: decisions shown %+v, the estimator says %+v", where, got.decisions, want)
		}
		if !strings.HasPrefix(got.sentence, sentence) {
			t.Errorf("%s: the sentence says %q, want it to start %q", where, got.sentence, sentence)
		}
		legend := eval[string](tb, `document.querySelector('#chart svg')?.textContent ?? ''`)
		for _, w := range []string{"H100 80GB flip", "H200 flip", "H100 80GB available", "H200 available"} {
			if !strings.Contains(legend, w) {
				t.Errorf("%s: the chart's legend lacks %q", where, w)
			}
		}
		if mode := tb.value("compare"); mode != "setup" {
			t.Errorf("%s: the Compare menu says %q, want setup", where, mode)
		}
		if gpu := tb.value("b.gpu"); gpu != "h100" {
			t.Errorf("%s: the baseline's GPU menu says %q, want h100", where, gpu)
		}
	}
	check(tb, "after choosing H100 against H200")

	// Share by link: the address carries the comparison; a fresh page
	// opened on it shows the same.
	wantQuery := page.ConfigQuery(cmp, nil).Encode()
	tb.waitURL(wantQuery)
	if !strings.Contains(wantQuery, "b.capacity_bytes=85020000000") {
		t.Fatalf("fixture: the link %q lacks the baseline", wantQuery)
	}
	link := eval[string](tb, `location.href`)
	fresh := newTab(t)
	fresh.do(chromedp.Navigate(link))
	fresh.waitReady()
	check(fresh, "the shared link in a fresh page")
	if got := fresh.query().Encode(); got != wantQuery {
		t.Errorf("the fresh page's address says ?%s, want ?%s", got, wantQuery)
	}
}
