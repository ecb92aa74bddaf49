//go:build !wasm

package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestE2EObservedFloodLink, in the browser: a 30 KB
// link of 5,000 invalid observed points (it froze the tab for seconds,
// the panel's message rebuilt whole for each point) becomes ready in
// moments, the panel naming the first errors and counting the rest.
func TestE2EObservedFloodLink(t *testing.T) {
	tb := newTab(t)
	start := time.Now()
	tb.open("?rows=1000&" + strings.Repeat("obs=~&", 5000))
	ready := time.Since(start)
	msg := eval[string](tb, `document.getElementById('error-observed')?.textContent ?? ''`)
	for _, want := range []string{"observed[0].rows", "and 9,997 more errors", "5,000 of the link's points were left out"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the panel's message lacks %q: %.400q", want, msg)
		}
	}
	if len(msg) > 600 {
		t.Errorf("the panel's message is %d bytes", len(msg))
	}
	if got := eval[string](tb, `document.getElementById('input-rows').value`); got != "1000" && got != "1,000" {
		t.Errorf("rows shows %q: the rest of the link was not kept", got)
	}
	t.Logf("ready %v after the navigation", ready)
}
