//go:build !wasm

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestE2EProgramStopped: when the page's Go program dies, the page says
// so. The test kills it as a bug would: it calls go-app's goappNav (a Go
// function the page exposes to JavaScript) with no argument, so the Go
// side indexes past its arguments and panics with no handler to catch
// it, and the runtime exits. The banner must then say what happened (the
// runtime's panic line), keep the address, and reload the page at that
// address, which then works again.
func TestE2EProgramStopped(t *testing.T) {
	tb := newTab(t)
	tb.expectErrors = true // the panic is written to the console on purpose
	const query = "?rows=50000&vocab_size=64000"
	tb.open(query)
	before := eval[string](tb, `location.href`)
	if eval[bool](tb, `!!document.getElementById('headroom-stopped')`) {
		t.Fatal("the stopped banner is there on a page that works")
	}
	// The call throws in JavaScript too (the Go side never returns).
	eval[string](tb, `(() => { try { window.goappNav(); return 'returned'; } catch (e) { return String(e); } })()`)
	tb.waitFor("the stopped banner", `(() => {
		const b = document.getElementById('headroom-stopped');
		return (!!b && b.getAttribute('role') === 'alert' && b.textContent.includes('index out of range')
			&& b.textContent.includes('reload')) || (b ? b.textContent : 'no banner; data-renders ' + document.getElementById('explorer')?.dataset.renders);
	})()`, 30*time.Second)
	if after := eval[string](tb, `location.href`); after != before {
		t.Errorf("the address changed from %s to %s", before, after)
	}
	text := eval[string](tb, `document.getElementById('headroom-stopped').textContent`)
	for _, want := range []string{"Headroom has stopped", "exited with status 2", "panic: runtime error: index out of range", "address still holds your settings"} {
		if !strings.Contains(text, want) {
			t.Errorf("the banner says %q; it should say %q", text, want)
		}
	}
	// The reload starts again at the same address, and the page works.
	tb.do(chromedp.Click(chromedp.ID("headroom-reload")))
	tb.waitFor("the reloaded page without the banner", `!document.getElementById('headroom-stopped') && `+readyExpr+
		` || (document.getElementById('headroom-stopped') ? 'banner still there' : 'not ready')`, 90*time.Second)
	if after := eval[string](tb, `location.href`); after != before {
		t.Errorf("the reload went to %s, not %s", after, before)
	}
}

// TestE2EDeepReportRefused: a planner-miss report of 100,000 nested
// arrays (200 KB), which once overflowed the page's stack and killed its
// Go program, is refused by name with the depth bound; the program is
// alive after it (no stopped banner, and an edit still renders).
func TestE2EDeepReportRefused(t *testing.T) {
	deep := []byte(`{"kind":"art-planner-miss","replay":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "}")
	link, _ := measuredLink(t)
	tb := newTab(t)
	tb.open(link)
	tb.waitFor("the measured part of the panel", `!!document.getElementById('measured-status')`, 10*time.Second)
	tb.dropFiles("observed-panel", []string{"deep.json"}, [][]byte{deep})
	tb.waitFor("the report refused", `(s => s?.dataset.state === 'failed' && s.textContent.includes('deep.json')
		&& s.textContent.includes('deeper than 1000 levels'))(document.getElementById('measured-status')) || `+measuredStatus, 30*time.Second)
	if eval[bool](tb, `!!document.getElementById('headroom-stopped')`) {
		t.Fatal("the page's program stopped")
	}
	n := tb.renders()
	tb.setField("input-rows", "5000", "input")
	tb.waitRenders(n)
}
