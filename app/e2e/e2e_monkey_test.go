//go:build !wasm

package e2e

// TestE2EMonkey: a seeded random walk over the whole page in headless
// Chromium. After every action the page must show no console error and no
// error banner, and its decisions must be what the estimator says for the
// state its address encodes (decoded here, natively, with page.Decode and
// estimator.Estimate); every 25 actions the address opened in a fresh tab
// must restore the same inputs, messages, decisions and breakdown. A
// failure prints the seed, the actions and the shortest sequence found
// that still fails; each sequence it found is kept as a case of
// TestE2EMonkeyFound (e2e_monkey_found_test.go).
//
//	go test -run 'TestE2EMonkey$' -v ./app/e2e -args -monkey.seed=N -monkey.actions=M

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"headroom/app/ui/page"
	"headroom/estimator"
)

var (
	monkeySeed    = flag.Uint64("monkey.seed", 0, "TestE2EMonkey's seed (0: a fresh one, printed)")
	monkeyActions = flag.Int("monkey.actions", 300, "how many actions TestE2EMonkey takes")
	monkeyShrink  = flag.Duration("monkey.shrink", 3*time.Minute, "how long a failing TestE2EMonkey looks for a shorter sequence")
)

// monkeyFreshEvery is how often the address is opened in a fresh tab.
const monkeyFreshEvery = 25

func TestE2EMonkey(t *testing.T) {
	seed := *monkeySeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	acts := monkeyPlan(seed, *monkeyActions)
	t.Logf("monkey: seed %d, %d actions (replay: go test -run 'TestE2EMonkey$' ./app/e2e -args -monkey.seed=%d -monkey.actions=%d)",
		seed, len(acts), seed, len(acts))
	m := newMonkey(t)
	defer m.close()
	start := time.Now()
	done, err := m.run(acts, monkeyFreshEvery)
	if err == nil {
		t.Logf("monkey: %d actions in %v", len(acts), time.Since(start).Round(time.Millisecond))
		return
	}
	failing := acts[:done]
	var b strings.Builder
	fmt.Fprintf(&b, "monkey: seed %d failed after action %d of %d: %v\n\nactions:\n%s", seed, done, len(acts), err, actionList(failing))
	short, serr := shrink(t, failing, done%monkeyFreshEvery == 0)
	if serr != nil {
		fmt.Fprintf(&b, "\nshortest failing sequence found (%d actions; fails with: %v):\n%s", len(short), serr, actionList(short))
	} else {
		fmt.Fprintf(&b, "\nreplayed from a fresh tab, the %d actions passed: a timing failure, or one that needs the earlier page state\n", len(failing))
	}
	t.Fatal(b.String())
}

// actionList prints actions as the Go literals TestE2EMonkeyFound takes.
func actionList(acts []action) string {
	var b strings.Builder
	for i, a := range acts {
		fmt.Fprintf(&b, "\t%s, // %d\n", a, i+1)
	}
	return b.String()
}

// shrink looks, for at most -monkey.shrink, for a shorter sequence that
// still fails from a fresh tab: first whether the whole sequence fails
// again, then without chunks of it (halves, quarters, ..., single
// actions). It returns the shortest failing sequence and its failure, or
// a nil error when even the whole sequence passed.
func shrink(t *testing.T, acts []action, freshAtEnd bool) ([]action, error) {
	deadline := time.Now().Add(*monkeyShrink)
	replay := func(seq []action) error {
		m := newMonkey(t)
		defer m.close()
		_, err := m.run(seq, 0)
		if err == nil && freshAtEnd {
			err = m.checkFresh()
		}
		return err
	}
	best := acts
	bestErr := replay(acts)
	if bestErr == nil {
		return acts, nil
	}
	for chunk := len(best) / 2; chunk >= 1 && time.Now().Before(deadline); {
		removed := false
		for i := 0; i+chunk <= len(best) && time.Now().Before(deadline); {
			seq := append(append([]action(nil), best[:i]...), best[i+chunk:]...)
			if err := replay(seq); err != nil {
				best, bestErr, removed = seq, err, true
				continue
			}
			i += chunk
		}
		if !removed {
			chunk /= 2
		}
	}
	return best, bestErr
}

// monkey drives one tab through actions and checks the page after each.
type monkey struct {
	t     *testing.T
	tb    *tab
	close func() // closes the tab
	// lastValid is, per document (window.__monkeyDoc), the decisions of its
	// last valid state: an invalid state keeps showing them.
	lastValid map[string]*decisions
	docs      int
	seen      int // console entries already checked
}

func newMonkey(t *testing.T) *monkey {
	t.Helper()
	tb, closeTab := openTab(t)
	return &monkey{t: t, tb: tb, close: closeTab, lastValid: map[string]*decisions{}}
}

// openTab opens a tab that records its console, like newTab, but leaves
// the console to the caller and closes when the caller says: the monkey
// checks the console after every action, and its replays must not keep a
// tab each.
func openTab(t *testing.T) (*tab, func()) {
	t.Helper()
	base, browser := e2eSetup(t)
	tabCtx, cancel := chromedp.NewContext(browser)
	tb := &tab{t: t, base: base}
	if err := chromedp.Listen(tabCtx, tb.record); err != nil {
		cancel()
		t.Fatalf("opening a tab: %v", err)
	}
	if err := throttle(tabCtx); err != nil {
		cancel()
		t.Fatalf("CPU throttle: %v", err)
	}
	ctx, cancelTimeout := context.WithTimeout(tabCtx, slow(20*time.Minute))
	tb.ctx = ctx
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)); err != nil {
		cancelTimeout()
		cancel()
		t.Fatalf("viewport: %v", err)
	}
	return tb, func() { cancelTimeout(); cancel() }
}

// run opens the page and takes the actions, checking after each, and the
// fresh-tab check every freshEvery actions (0: never). It returns how
// many actions it took, the failing one included, and the failure.
func (m *monkey) run(acts []action, freshEvery int) (int, error) {
	tb := m.tb
	if err := chromedp.Do(tb.ctx, chromedp.Navigate(tb.base+"/")); err != nil {
		return 0, err
	}
	if err := m.check(); err != nil {
		return 0, fmt.Errorf("opening the page: %w", err)
	}
	for i, a := range acts {
		if err := m.do(a); err != nil {
			return i + 1, fmt.Errorf("action %d %s: %w", i+1, a, err)
		}
		if err := m.check(); err != nil {
			return i + 1, fmt.Errorf("after action %d %s: %w", i+1, a, err)
		}
		if freshEvery > 0 && (i+1)%freshEvery == 0 {
			if err := m.checkFresh(); err != nil {
				return i + 1, fmt.Errorf("after action %d, in a fresh tab: %w", i+1, err)
			}
		}
	}
	return len(acts), nil
}

// check waits until the page took the last action and wrote its address,
// then checks the console, the banner and the decisions against the
// estimator's for the state the address encodes.
func (m *monkey) check() error {
	tb := m.tb
	if err := tb.waitForErr("the address to catch up with the page's state", settledExpr, 15*time.Second); err != nil {
		return err
	}
	m.docs++
	state, err := chromedp.Run(tb.ctx, chromedp.Evaluate[[]string](fmt.Sprintf(
		`[window.__monkeyDoc ??= 'doc%d', location.search, document.getElementById('error-banner')?.textContent ?? '']`, m.docs)))
	if err != nil {
		return err
	}
	doc, search, banner := state[0], state[1], state[2]
	if errs := m.newConsoleErrors(); len(errs) > 0 {
		return fmt.Errorf("console errors at ?%s: %v", strings.TrimPrefix(search, "?"), errs)
	}
	if banner != "" {
		return fmt.Errorf("the error banner shows at ?%s: %s", strings.TrimPrefix(search, "?"), banner)
	}
	want, err := m.expected(doc, search)
	if err != nil {
		return err
	}
	if want == nil { // a document that never had a valid state shows none
		return tb.waitForErr("no decision shown (the page never had a valid state)",
			`document.querySelector('#decision-baseline .decision, #decision-candidate .decision') === null || 'a decision is shown'`, 10*time.Second)
	}
	return tb.waitForErr(fmt.Sprintf("the decisions %+v the estimator gives for ?%s", *want, strings.TrimPrefix(search, "?")),
		decisionsExpr(*want), 10*time.Second)
}

// expected is what the decision panels must show for the address search
// in document doc: the estimator's decisions when the state it encodes is
// valid, else the document's last valid ones (nil: none yet). A document
// that has drawn nothing yet draws a config that prices on a wrong range
// (a link's from=500&to=10) along the default range, so it shows that
// config's decisions.
func (m *monkey) expected(doc, search string) (*decisions, error) {
	q, err := url.ParseQuery(strings.TrimPrefix(search, "?"))
	if err != nil {
		return nil, fmt.Errorf("the address ?%s does not parse: %v", search, err)
	}
	s, err := openAddress(q)
	if err != nil {
		return nil, err
	}
	if !s.Valid && (!s.CfgOK || m.lastValid[doc] != nil) {
		return m.lastValid[doc], nil
	}
	res, err := estimator.Estimate(s.Cfg)
	if err != nil {
		return nil, fmt.Errorf("the address %s decodes to a config that does not estimate: %v", search, err)
	}
	d := &decisions{res.Baseline.Decision.String(), res.Candidate.Decision.String()}
	m.lastValid[doc] = d
	return d, nil
}

// openAddress decodes an address query as the page does when it opens it.
func openAddress(q url.Values) (page.State, error) {
	list, err := page.Presets()
	if err != nil {
		return page.State{}, err
	}
	return page.Decode(q, list), nil
}

// decisionsExpr is true when the decision panels show want.
func decisionsExpr(want decisions) string {
	return fmt.Sprintf(`(() => {
		const d = rev => (document.querySelector('#decision-' + rev + ' .decision')?.textContent ?? '<no .decision>').trim();
		const b = d('baseline'), c = d('candidate');
		if (b === %s && c === %s) return true;
		// What the page shows besides, for the report.
		const e = document.getElementById('explorer');
		const errors = [...document.querySelectorAll('[id^="error-"]')].filter(x => x.textContent.trim() !== '').map(x => x.id + ': ' + x.textContent.trim());
		return {baseline: b, candidate: c, query: e?.dataset.query, address: location.search, renders: e?.dataset.renders,
			stale: document.querySelector('.stale-note')?.textContent ?? '', errors};
	})()`, js(want.baseline), js(want.candidate))
}

// newConsoleErrors returns the console errors since the last call, after a
// round trip so that every earlier message is in.
func (m *monkey) newConsoleErrors() []consoleEntry {
	chromedp.Run(m.tb.ctx, chromedp.Evaluate[chromedp.Void](`0`))
	all := m.tb.entries()
	var errs []consoleEntry
	for _, e := range all[m.seen:] {
		if e.isError() {
			errs = append(errs, e)
		}
	}
	m.seen = len(all)
	return errs
}
