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
