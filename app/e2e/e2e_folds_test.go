//go:build !wasm

package e2e

import (
	"fmt"
	"time"
)

// A closed group of the controls (a <details> with data-fields, the
// control keys inside it) draws its fields only once opened: opening it
// fires its toggle event, and go-app draws them at its next update. A
// test opens the group, as a person would, and waits for the field.

// openFoldsJS opens every closed group that holds one of the keys (all of
// them when keys is empty) and answers true once each of those groups'
// fields is drawn, else what it still waits for.
const openFoldsJS = `(keys => {
	const missing = [];
	for (const d of document.querySelectorAll('details[data-fields]')) {
		const fields = d.dataset.fields.split(' ');
		if (keys.length && !fields.some(k => keys.includes(k))) continue;
		if (!d.open) d.open = true;
		for (const k of fields) {
			if (!document.getElementById('input-' + k) && !document.getElementById('check-' + k)) missing.push(k);
		}
	}
	return missing.length === 0 || 'not drawn yet: ' + missing.join(' ');
})(%s)`

// openFoldsErr opens the closed groups holding keys (every group when
// none is given) and waits until their fields are drawn.
func (tb *tab) openFoldsErr(keys ...string) error {
	if keys == nil {
		keys = []string{}
	}
	return tb.waitForErr(fmt.Sprintf("the groups holding %v to be opened and drawn", keys),
		fmt.Sprintf(openFoldsJS, js(keys)), 30*time.Second)
}

// openFolds is openFoldsErr, failing the test.
func (tb *tab) openFolds(keys ...string) {
	tb.t.Helper()
	if err := tb.openFoldsErr(keys...); err != nil {
		tb.t.Fatalf("%v\nconsole:\n%s", err, tb.consoleText())
	}
}

// A stage of the breakdown draws its built-in tensors only once opened:
// its label is a button (data-stage, aria-expanded). openStagesJS clicks
// every closed stage's button (those named in stages; all when none is)
// and answers true once each says it is open, else what it waits for.
const openStagesJS = `(stages => {
	const closed = [];
	for (const b of document.querySelectorAll('#breakdown button[data-stage]')) {
		// once per button and stage (a second click would close it; go-app
		// redraws a button in place for another stage as the rows move)
		if (stages.length && !stages.includes(b.dataset.stage)) continue;
		if (b.getAttribute('aria-expanded') !== 'true') {
			const seen = (window.__stageClicks ??= new WeakMap());
			const on = seen.get(b) ?? new Set();
			if (!on.has(b.dataset.stage)) { on.add(b.dataset.stage); seen.set(b, on); b.click(); }
			closed.push(b.dataset.stage);
		}
	}
	return closed.length === 0 || 'not open yet: ' + closed.join(' ');
})(%s)`

// openStages opens the breakdown's stages (every stage when none is
// given) and waits until each is drawn open.
func (tb *tab) openStages(stages ...string) {
	tb.t.Helper()
	if stages == nil {
		stages = []string{}
	}
	if err := tb.waitForErr(fmt.Sprintf("the breakdown's stages %v to be opened", stages),
		fmt.Sprintf(openStagesJS, js(stages)), 30*time.Second); err != nil {
		tb.t.Fatalf("%v\nconsole:\n%s", err, tb.consoleText())
	}
}
