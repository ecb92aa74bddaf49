//go:build !wasm

package e2e

// Waiting in the browser tests: every assertion on something the page does
// later (a render, the address it rewrites at most every 300 ms, a
// download, the clipboard, the service worker, an import report) polls its
// condition with a deadline and, when the deadline passes, says what it
// last saw. No test sleeps for "long enough".
//
// There is one way to wait: waitUntilErr polls a Go check that says
// whether it holds and what it saw, until a deadline scaled by slow.
// waitUntil fails the test instead of returning the error; waitFor and
// waitForErr are the same for a JavaScript condition; the others
// (waitValue, waitText, waitReady, waitMap, waitWorkload, ...) only say
// what to look at.

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// e2eCPUThrottle slows every tab's CPU by this factor (DevTools'
// Emulation.setCPUThrottlingRate): make test runs the browser tests once
// as they are and once with -e2e.cputhrottle=4, so a test that passes only
// on a fast machine, or only on a slow one, fails here.
var e2eCPUThrottle = flag.Float64("e2e.cputhrottle", 1, "slow the browser's CPU by this factor (1: not at all)")

// pollInterval is how often a wait looks again.
const pollInterval = 25 * time.Millisecond

// minWait is the shortest deadline of any wait. A deadline bounds a hang,
// not a performance figure, and the tests run on a loaded machine (two
// cores shared by several builds: TestE2EMap once took over 10 s for what
// takes one), so a wait that passes gives up nothing by being generous.
const minWait = 30 * time.Second

// slow scales a deadline: at least minWait, times the CPU throttle (a
// slowed page needs longer).
func slow(d time.Duration) time.Duration {
	return time.Duration(float64(max(d, minWait)) * max(1, *e2eCPUThrottle))
}

// throttle applies e2eCPUThrottle to a tab.
func throttle(ctx context.Context) error {
	if *e2eCPUThrottle <= 1 {
		return nil
	}
	_, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: *e2eCPUThrottle})
	return err
}

// waitFor polls the JavaScript expression cond until it is true (it may be
// a promise), for at most timeout (scaled by the throttle), and fails the
// test with desc and the value cond last had: cond returns true when the
// condition holds and, when it does not, anything that shows why (a
// string, an object).
func (tb *tab) waitFor(desc, cond string, timeout time.Duration) {
	tb.t.Helper()
	if err := tb.waitForErr(desc, cond, timeout); err != nil {
		tb.t.Fatalf("%v\nconsole:\n%s", err, tb.consoleText())
	}
}

// waitForErr is waitFor returning the failure instead of failing.
func (tb *tab) waitForErr(desc, cond string, timeout time.Duration) error {
	expr := `(async () => { try { const v = await (` + cond + `); return JSON.stringify(v === undefined ? null : v); }
		catch (e) { return JSON.stringify('threw: ' + e); } })()`
	return tb.waitUntilErr(desc, timeout, func() (bool, string) {
		v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
		if err != nil {
			return false, "evaluating: " + err.Error()
		}
		return v == "true", v
	})
}

// waitUntil polls check until it reports true, for at most timeout
// (scaled by the throttle), and fails the test with desc and what check
// last said it saw.
func (tb *tab) waitUntil(desc string, timeout time.Duration, check func() (ok bool, saw string)) {
	tb.t.Helper()
	if err := tb.waitUntilErr(desc, timeout, check); err != nil {
		tb.t.Fatalf("%v\nconsole:\n%s", err, tb.consoleText())
	}
}

// waitUntilErr is waitUntil returning the failure instead of failing: the
// one primitive every wait of the tests goes through.
func (tb *tab) waitUntilErr(desc string, timeout time.Duration, check func() (ok bool, saw string)) error {
	start := time.Now()
	deadline := start.Add(slow(timeout))
	for {
		ok, saw := check()
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("waited %v for %s; last saw: %s", time.Since(start).Round(time.Millisecond), desc, saw)
		}
		if err := tb.ctx.Err(); err != nil {
			return fmt.Errorf("waiting for %s: %v; last saw: %s", desc, err, saw)
		}
		time.Sleep(pollInterval)
	}
}

// js quotes v as a JavaScript value (a string, a number, a list).
func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// waitValue waits until the element id's value is want.
func (tb *tab) waitValue(id, want string) {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf("#%s to show %q", id, want), fmt.Sprintf(
		`(v => v === %s || v)(document.getElementById(%s)?.value ?? '<no #%s>')`, js(want), js(id), id), 10*time.Second)
}

// waitText waits until the element id's text (spaces collapsed) contains
// every one of want.
func (tb *tab) waitText(id string, want ...string) {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf("#%s to say %q", id, want), fmt.Sprintf(
		`(t => %s.every(w => t.includes(w)) || t)((document.getElementById(%s)?.textContent ?? '<no #%s>').replace(/\s+/g, ' ').trim())`,
		js(want), js(id), id), 10*time.Second)
}

// waitDecisions waits until the decision panels show want.
func (tb *tab) waitDecisions(want decisions) {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf("the decisions %+v", want), fmt.Sprintf(`(() => {
		const d = rev => (document.querySelector('#decision-' + rev + ' .decision')?.textContent ?? '<no .decision>').trim();
		const b = d('baseline'), c = d('candidate');
		return (b === %s && c === %s) || {baseline: b, candidate: c};
	})()`, js(want.baseline), js(want.candidate)), 10*time.Second)
}

// waitQuery waits until the address bar's query, decoded, satisfies ok;
// desc says what ok wants.
func (tb *tab) waitQuery(desc string, ok func(q string) bool) {
	tb.t.Helper()
	tb.waitUntil("the address to have "+desc, 10*time.Second, func() (bool, string) {
		search, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`location.search`))
		if err != nil {
			return false, err.Error()
		}
		return ok(search), "location.search " + search
	})
}

// waitEdits waits until the explorer has taken more than n edits and
// rendered after the last one (data-edits is written by the render that
// follows an edit or an import, refused or not).
func (tb *tab) waitEdits(n int) {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf("an edit after edit %d", n), fmt.Sprintf(
		`(n => n > %d || 'data-edits ' + n)(Number(document.getElementById('explorer')?.dataset.edits))`, n), 10*time.Second)
}

// edits is the explorer's data-edits now.
func (tb *tab) edits() int {
	return eval[int](tb, `Number(document.getElementById('explorer').dataset.edits)`)
}

// waitSettled waits until the address bar shows the query the page's
// state is heading for (data-query): the throttled write is done.
func (tb *tab) waitSettled() {
	tb.t.Helper()
	tb.waitFor("the address to catch up with the page's state", settledExpr, 10*time.Second)
}

// settledExpr is true once the page mounted, owes no render or address
// write for an edit it took (data-busy), and the address bar holds its
// state's query.
const settledExpr = `(() => {
	const e = document.getElementById('explorer');
	if (!e || e.dataset.live !== '1') return 'not mounted yet';
	if (e.dataset.busy === '1') return 'busy: a render or the address bar is due';
	const want = e.dataset.query ? '?' + e.dataset.query : '';
	return location.search === want || {address: location.search, state: want};
})()`

// slideTo moves the slider of key to the fraction f of its track, as a
// drag does (its value, then an input event), and waits for the edit.
func (tb *tab) slideTo(key string, f float64) {
	tb.t.Helper()
	n := tb.edits()
	tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const s = document.getElementById('slider-%s');
		s.value = String(Math.round(Number(s.max) * %g));
		s.dispatchEvent(new Event('input', {bubbles: true}));
	})()`, key, f)))
	tb.waitEdits(n)
}
