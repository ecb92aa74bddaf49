//go:build !wasm

package e2e

// How the monkey takes an action in the page, and the fresh-tab check.

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"headroom/app/ui/page"
	"headroom/estimator"
)

// do takes one action and waits until the page has taken it: an edit has
// rendered (data-edits counts them), or a new document has mounted.
func (m *monkey) do(a action) error {
	tb := m.tb
	edits, err := chromedp.Run(tb.ctx, chromedp.Evaluate[int](`Number(document.getElementById('explorer')?.dataset.edits)`))
	if err != nil {
		return err
	}
	doc, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`window.__monkeyDoc ?? ''`))
	if err != nil {
		return err
	}
	taken := 0      // edits the page must count
	newDoc := false // the action opens a document
	// A control in a closed group is drawn once the group is opened: open
	// it, as a person would before using it, and wait for it.
	switch key := a.Key; a.Op {
	case "type":
		key = strings.TrimPrefix(key, "input-")
		fallthrough
	case "slide", "keys", "switch":
		if err := tb.openFoldsErr(key); err != nil {
			return err
		}
	}
	// reveal opens the closed <details> around a control, as a person
	// would before using it.
	if err := chromedp.Do(tb.ctx, chromedp.Evaluate[chromedp.Void](`window.reveal = e => {
		for (let d = e.closest('details'); d; d = d.parentElement?.closest('details')) d.open = true;
	}`)); err != nil {
		return err
	}
	switch a.Op {
	case "slide":
		ok, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool](fmt.Sprintf(`((id, pos) => {
			const s = document.getElementById(id);
			if (!s || s.disabled) return false;
			s.value = String(pos);
			s.dispatchEvent(new Event('input', {bubbles: true}));
			return true;
		})(%s, %d)`, js("slider-"+a.Key), a.N)))
		if err != nil {
			return err
		}
		if ok {
			taken = 1
		}
	case "keys":
		id := "slider-" + a.Key
		ok, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool](fmt.Sprintf(
			`(s => !!s && !s.disabled && (reveal(s), s.focus(), document.activeElement === s))(document.getElementById(%s))`, js(id))))
		if err != nil || !ok {
			return err
		}
		for range a.N {
			before, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.getElementById(%s).value`, js(id))))
			if err != nil {
				return err
			}
			if err := chromedp.Do(tb.ctx, chromedp.KeyEvent(monkeyKeys[a.Text])); err != nil {
				return err
			}
			after, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.getElementById(%s).value`, js(id))))
			if err != nil {
				return err
			}
			if after != before { // the browser fired an input event
				taken++
			}
		}
	case "type":
		ok, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(e => {
			if (!e || e.disabled) return false;
			reveal(e); e.focus(); e.select();
			return document.activeElement === e;
		})(document.getElementById(%s))`, js(a.Key))))
		if err != nil || !ok {
			return err
		}
		if a.Text == "" { // insertText of nothing types nothing: clear it as a cut would

			if err := chromedp.Do(tb.ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(e => {
				e.value = ''; e.dispatchEvent(new Event('input', {bubbles: true}));
			})(document.getElementById(%s))`, js(a.Key)))); err != nil {
				return err
			}
		} else if _, err := chromedp.Call(tb.ctx, input.InsertText, input.InsertTextParams{Text: a.Text}); err != nil {
			return err
		}
		taken = 1
		if a.N == 1 { // commit it: the change event Enter or leaving the field sends
			if err := chromedp.Do(tb.ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(
				`document.getElementById(%s).dispatchEvent(new Event('change', {bubbles: true}))`, js(a.Key)))); err != nil {
				return err
			}
			taken = 2
		}
	case "fit":
		ok, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool](
			`(b => !!b && !b.disabled && (b.click(), true))(document.getElementById('axis-fit'))`))
		if err != nil {
			return err
		}
		if ok {
			taken = 1
		}
	case "menu":
		ok, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool](fmt.Sprintf(`((id, n) => {
			const m = document.getElementById(id);
			if (!m || m.disabled || !m.options.length) return false;
			m.value = m.options[n %% m.options.length].value;
			m.dispatchEvent(new Event('change', {bubbles: true}));
			return true;
		})(%s, %d)`, js(a.Key), a.N)))
		if err != nil {
			return err
		}
		if ok {
			taken = 1
		}
	case "switch":
		ok, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool](fmt.Sprintf(
			`(c => !!c && !c.disabled && (c.click(), true))(document.getElementById(%s))`, js("check-"+a.Key))))
		if err != nil {
			return err
		}
		if ok {
			taken = 1
		}
	case "import":
		if err := chromedp.Do(tb.ctx, chromedp.Evaluate[chromedp.Void](
			`(() => { const t = document.getElementById('import-text'); t.value = ''; t.focus(); })()`)); err != nil {
			return err
		}
		if _, err := chromedp.Call(tb.ctx, input.InsertText, input.InsertTextParams{Text: a.Text}); err != nil {
			return err
		}
		if err := chromedp.Do(tb.ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById('import-button').click()`)); err != nil {
			return err
		}
		taken = 1
	case "address", "edit-address":
		q := a.Text
		if a.Op == "edit-address" {
			search, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`location.search`))
			if err != nil {
				return err
			}
			cur, _ := url.ParseQuery(strings.TrimPrefix(search, "?"))
			if a.N == 1 {
				cur.Del(a.Key)
			} else {
				cur.Set(a.Key, a.Text)
			}
			q = cur.Encode()
		}
		if q != "" {
			q = "?" + q
		}
		if err := chromedp.Do(tb.ctx, chromedp.Navigate(tb.base+"/"+q)); err != nil {
			return err
		}
		newDoc = true
	case "reload":
		if err := chromedp.Do(tb.ctx, chromedp.Reload()); err != nil {
			return err
		}
		newDoc = true
	case "back", "forward":
		step := -1
		if a.Op == "forward" {
			step = 1
		}
		// An entry the page pushed itself (a gesture: main's undo) is the
		// same document, which restores the entry's state (popstate); an
		// entry of an earlier load is a new document.
		to, err := chromedp.Run(tb.ctx, chromedp.Evaluate[[]int](fmt.Sprintf(`(step => {
			const i = navigation.currentEntry.index + step, e = navigation.entries();
			if (i < 0 || i >= e.length || !(e[i].url ?? '').startsWith(location.origin + '/')) return [];
			const same = e[i].sameDocument ? 1 : 0;
			history.go(step);
			return [i, same];
		})(%d)`, step)))
		if err != nil {
			return err
		}
		if len(to) == 2 && to[1] == 1 {
			return tb.waitForErr(fmt.Sprintf("the page to go to its history entry %d", to[0]), fmt.Sprintf(
				`navigation.currentEntry.index === %d || 'at entry ' + navigation.currentEntry.index`, to[0]), 10*time.Second)
		}
		newDoc = len(to) == 2
	default:
		return fmt.Errorf("no monkey action %q", a.Op)
	}
	if newDoc {
		return tb.waitForErr("a new document, mounted", fmt.Sprintf(
			`(window.__monkeyDoc ?? '') !== %s && document.getElementById('explorer')?.dataset.live === '1' || (window.__monkeyDoc ?? 'a new document, not mounted')`,
			js(doc)), 60*time.Second)
	}
	if taken > 0 {
		return tb.waitForErr(fmt.Sprintf("the page to take %d edit(s) after edit %d", taken, edits), fmt.Sprintf(
			`(n => n >= %d || 'data-edits ' + n)(Number(document.getElementById('explorer')?.dataset.edits))`, edits+taken), 10*time.Second)
	}
	return nil
}

// pageSnapshot is what a tab shows: its address, every field, switch and
// menu, the messages, the decisions and the breakdown.
type pageSnapshot struct {
	Search    string            `json:"search"`
	Inputs    map[string]string `json:"inputs"`
	Checks    map[string]bool   `json:"checks"`
	Menus     map[string]string `json:"menus"`
	Errors    map[string]string `json:"errors"`
	Baseline  string            `json:"baseline"`
	Candidate string            `json:"candidate"`
	Breakdown string            `json:"breakdown"`
}

const snapshotExpr = `JSON.stringify((() => {
	const o = {search: location.search, inputs: {}, checks: {}, menus: {}, errors: {}};
	const x = document.getElementById('explorer');
	x.querySelectorAll('input[type=text]').forEach(e => { if (e.id) o.inputs[e.id] = e.value; });
	x.querySelectorAll('input[type=checkbox]').forEach(e => { if (e.id) o.checks[e.id] = e.checked; });
	x.querySelectorAll('select').forEach(e => { if (e.id) o.menus[e.id] = e.value; });
	x.querySelectorAll('[id^="error-"]').forEach(e => {
		if (e.id !== 'error-banner' && e.id !== 'error-details') o.errors[e.id] = e.textContent.trim();
	});
	const d = rev => (document.querySelector('#decision-' + rev + ' .decision')?.textContent ?? '').trim();
	o.baseline = d('baseline'); o.candidate = d('candidate');
	o.breakdown = (document.getElementById('breakdown')?.textContent ?? '').replace(/\s+/g, ' ').trim();
	return o;
})())`

func (tb *tab) snapshot() (pageSnapshot, error) {
	var s pageSnapshot
	text, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](snapshotExpr))
	if err != nil {
		return s, err
	}
	return s, json.Unmarshal([]byte(text), &s)
}

// checkFresh opens the page's address in a fresh tab and checks that it
// restores the same state: the address, the fields (by value: "64,902"
// typed is 64902 restored), switches, menus and messages, and, when the
// state is valid, the decisions and the breakdown.
func (m *monkey) checkFresh() error {
	// Every group open in both tabs, so each compares every field (a
	// closed group draws none; which ones the monkey opened is no state).
	if err := m.tb.openFoldsErr(); err != nil {
		return err
	}
	want, err := m.tb.snapshot()
	if err != nil {
		return err
	}
	href, err := chromedp.Run(m.tb.ctx, chromedp.Evaluate[string](`location.href`))
	if err != nil {
		return err
	}
	fresh, closeTab := openTab(m.t)
	defer closeTab()
	if err := chromedp.Do(fresh.ctx, chromedp.Navigate(href)); err != nil {
		return err
	}
	if err := fresh.waitForErr("the fresh tab to mount and write its address", settledExpr, 60*time.Second); err != nil {
		return err
	}
	if err := fresh.openFoldsErr(); err != nil {
		return err
	}
	q, _ := url.ParseQuery(strings.TrimPrefix(want.Search, "?"))
	opened, err := openAddress(q)
	if err != nil {
		return err
	}
	valid := opened.Valid
	if valid {
		if err := fresh.waitForErr("the fresh tab's decisions", decisionsExpr(decisions{want.Baseline, want.Candidate}), 15*time.Second); err != nil {
			return err
		}
	}
	got, err := fresh.snapshot()
	if err != nil {
		return err
	}
	for _, e := range fresh.entries() {
		if e.isError() {
			return fmt.Errorf("the fresh tab's console: %s", e)
		}
	}
	var diffs []string
	if got.Search != want.Search {
		diffs = append(diffs, fmt.Sprintf("address %s, the tab's %s", got.Search, want.Search))
	}
	for id, w := range want.Inputs {
		if g := got.Inputs[id]; !sameInput(id, g, w) {
			diffs = append(diffs, fmt.Sprintf("#%s %q, the tab's %q", id, g, w))
		}
	}
	for id, w := range want.Checks {
		if g := got.Checks[id]; g != w {
			diffs = append(diffs, fmt.Sprintf("#%s checked %v, the tab's %v", id, g, w))
		}
	}
	for id, w := range want.Menus {
		if g := got.Menus[id]; g != w {
			diffs = append(diffs, fmt.Sprintf("#%s %q, the tab's %q", id, g, w))
		}
	}
	for id, w := range want.Errors {
		if g := got.Errors[id]; g != w {
			diffs = append(diffs, fmt.Sprintf("#%s %q, the tab's %q", id, g, w))
		}
	}
	if valid {
		if got.Breakdown != want.Breakdown {
			diffs = append(diffs, fmt.Sprintf("#breakdown %.200q, the tab's %.200q", got.Breakdown, want.Breakdown))
		}
	}
	if len(diffs) > 0 {
		return fmt.Errorf("%s opened fresh differs:\n  %s", href, strings.Join(diffs, "\n  "))
	}
	return nil
}

// sameInput reports whether two texts of field id say the same value: the
// same text but for spaces around it, or the same number as the field reads it (GiB for the in-use
// field, units such as MiB for the others, as the page takes them).
func sameInput(id, a, b string) bool {
	if strings.TrimSpace(a) == strings.TrimSpace(b) { // " " left in an auto field is "" restored
		return true
	}
	parse := estimator.ParseInt
	if id == "input-"+page.KeyInUseGiB {
		parse = estimator.ParseGiB
	} else if f, ok := estimator.FieldByKey(strings.TrimPrefix(id, "input-")); ok && strings.HasPrefix(id, "input-") {
		parse = f.Parse // with its units: "2048MiB" typed is 2147483648 restored
	}
	x, errA := parse(a)
	y, errB := parse(b)
	return errA == nil && errB == nil && x == y
}
