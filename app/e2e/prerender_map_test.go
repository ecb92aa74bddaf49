//go:build !wasm

package e2e

import (
	"runtime"
	"strings"
	"testing"
)

// TestPrerenderMapLeftToBrowser: the server's prerender of a map link
// draws the map's controls and progress but computes none of its
// columns (the browser does), so a short link to a map of 1,000 columns,
// compared against a baseline of its own, costs the server what a map of
// two columns costs: memory allocated within twice the small map's, and
// a page of about the same size.
func TestPrerenderMapLeftToBrowser(t *testing.T) {
	s := newPrerenderServer(t)
	cost := func(q string) (body string, alloc uint64) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		body = prerender(t, s, q)
		runtime.ReadMemStats(&after)
		return body, after.TotalAlloc - before.TotalAlloc
	}
	prerender(t, s, "view=map&mcols=2") // the first request's one-time setup, not counted
	small, smallAlloc := cost("view=map&mcols=2")
	for _, q := range []string{
		"view=map&mx=rows&my=capacity_bytes&mcols=1000&compare=on&b.vocab_size=7",
		"view=map&mcols=1024",
	} {
		body, alloc := cost(q)
		cols := q[strings.Index(q, "mcols=")+len("mcols="):]
		cols, _, _ = strings.Cut(cols, "&")
		if !strings.Contains(body, "Computing column 0 of "+cols) {
			t.Errorf("%s: the prerender does not show the map waiting for the browser", q)
		}
		if alloc > 2*smallAlloc {
			t.Errorf("%s: %d bytes allocated, the two-column map %d", q, alloc, smallAlloc)
		}
		if len(body) > len(small)+len(small)/4 {
			t.Errorf("%s: a page of %d bytes, the two-column map's %d", q, len(body), len(small))
		}
	}
}
