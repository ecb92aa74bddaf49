//go:build !wasm

package main

import (
	"testing"
	"time"
)

// bannerJS is the error banner's text, "" when there is none.
const bannerJS = `(document.getElementById('error-banner')?.textContent ?? '').trim()`

// TestE2ETwoInputsWhilePrefetching: issue 27, defect 1. "Two inputs"
// clicked right after the page is ready, or right after an edit, while
// the one-input chart's read-outs are still being prefetched in idle
// time: the prefetch's next callback runs after the chart has gone, and
// must find nothing to do (it dereferenced the gone chart's element and
// the page showed a Go panic in its error banner, 4 times of 4).
func TestE2ETwoInputsWhilePrefetching(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(tb *tab)
	}{
		{"after load", func(*tab) {}},
		{"after an edit", func(tb *tab) {
			n := tb.renders()
			tb.setField("input-rows", "70000", "input")
			tb.waitRenders(n)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTab(t)
			tb.open("")
			c.edit(tb)
			// At once: the prefetch waits 250 ms of quiet, then reads out
			// a few milliseconds at a time, so it has work left.
			pre := eval[string](tb, `(() => { const p = document.getElementById('chart')?.dataset.prefetched ?? 'none';
				document.getElementById('view-map').click(); return String(p); })()`)
			tb.waitMap("in_use_bytes")
			// The prefetch's callbacks come in idle time after the quiet
			// time: watch the banner for two seconds.
			for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
				if b := eval[string](tb, bannerJS); b != "" {
					t.Fatalf("clicked Two inputs with %s read-outs prefetched; the banner says: %s", pre, b)
				}
			}
			if got := eval[bool](tb, `!document.getElementById('chart')`); !got {
				t.Errorf("the one-input chart is still there in the map view")
			}
			t.Logf("read-outs prefetched when Two inputs was clicked: %s", pre)
		})
	}
}
