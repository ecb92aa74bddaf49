//go:build bench && !wasm

package e2e

// second_visit_interactive_ms: a returning visitor, served by the service
// worker from its cache.

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// wasmTimingScript runs in every new document before the page's own
// scripts: it notes when the loader hands app.wasm's response to
// WebAssembly.instantiateStreaming and when the instance is ready, so a
// visit's compile can be told from its download. Chromium reuses the
// code it compiled (V8's WebAssembly code cache) only for a module that
// comes through compileStreaming or instantiateStreaming from a response
// it cached; then the instance is ready within tens of ms of the
// response, where compiling the module takes hundreds.
const wasmTimingScript = `(() => {
	const instantiate = WebAssembly.instantiateStreaming;
	if (!instantiate) return;
	WebAssembly.instantiateStreaming = function (source, imports) {
		window.__benchWasmCalled = performance.now();
		Promise.resolve(source).then(() => { window.__benchWasmResponse = performance.now(); }, () => {});
		return instantiate.call(WebAssembly, source, imports).then((r) => {
			window.__benchWasmInstantiated = performance.now();
			return r;
		});
	};
})()`

// visitTiming is one visit: ms since its navigation started.
type visitTiming struct {
	Ready        float64 `json:"ready"`        // WebAssembly running, chart drawn (readyScript)
	DocEnd       float64 `json:"docEnd"`       // the page's HTML received
	DOMReady     float64 `json:"domReady"`     // DOMContentLoaded handled
	WasmStart    float64 `json:"wasmStart"`    // app.wasm requested
	WasmResponse float64 `json:"wasmResponse"` // instantiateStreaming had app.wasm's response
	WasmEnd      float64 `json:"wasmEnd"`      // its body received (resource timing)
	Instantiated float64 `json:"instantiated"` // the instance ready
	FromWorker   bool    `json:"fromWorker"`   // a service worker controls the page and answered app.wasm
	Transfer     float64 `json:"transfer"`     // app.wasm's bytes on the wire (0 from the worker)
}

// visit navigates the tab of ctx to url and waits until the explorer is
// interactive (and, when activated is set, the service worker activated).
func visit(ctx context.Context, url string, activated bool) (visitTiming, error) {
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		return visitTiming{}, err
	}
	wait := "true"
	if activated {
		wait = `(async () => {
			const reg = await navigator.serviceWorker.getRegistration();
			return !!reg && !!reg.active && reg.active.state === 'activated' && !reg.installing && !reg.waiting;
		})()`
	}
	return chromedp.Run(ctx, chromedp.Poll[visitTiming](`(async () => {
		if (window.__benchReadyAt === undefined || !(await `+wait+`)) return null;
		const w = performance.getEntriesByType('resource').find(e => e.name.endsWith('/web/app.wasm'));
		const nav = performance.getEntriesByType('navigation')[0];
		return {ready: window.__benchReadyAt, docEnd: nav ? nav.responseEnd : -1, domReady: nav ? nav.domContentLoadedEventEnd : -1,
			wasmStart: w ? w.startTime : -1, wasmResponse: window.__benchWasmResponse ?? -1,
			wasmEnd: w ? w.responseEnd : -1, instantiated: window.__benchWasmInstantiated ?? -1,
			fromWorker: !!navigator.serviceWorker.controller && !!w && w.workerStart > 0,
			transfer: w ? w.transferSize : -1};
	})()`, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(50*time.Second)))
}

// TestBenchSecondVisit measures second_visit_interactive_ms: in a new
// browser context (the HTTP cache on, as a person's browser), a first
// visit until the page is interactive and the service worker activated,
// then the same page again, served by the worker from its cache, and a
// third time; five such contexts. The figure is the median of the second
// visits, ms from navigation start to interactive (readyScript); the log
// also gives each visit's app.wasm response and instance times, which
// say whether Chromium compiled the module again or took its code cache.
//
//	go test -tags bench -run '^TestBenchSecondVisit$' -v ./app/e2e
func TestBenchSecondVisit(t *testing.T) {
	base := benchStart(t, benchWebDir(t))
	const contexts = 5
	var second, third []float64
	for i := range contexts {
		ctx, cancel := chromedp.NewContext(e2e.browser, chromedp.WithNewBrowserContext())
		tctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
		err := chromedp.Do(tctx, chromedp.EmulateViewport(1280, 800),
			chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				for _, src := range []string{wasmTimingScript, readyScript} {
					if _, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
						return err
					}
				}
				return nil
			}))
		var visits [3]visitTiming
		for v := range visits {
			if err != nil {
				break
			}
			visits[v], err = visit(tctx, base+"/", v == 0)
		}
		cancelT()
		cancel()
		if err != nil {
			t.Fatalf("context %d: %v", i+1, err)
		}
		for v, vt := range visits {
			t.Logf("context %d, visit %d: interactive %.0f ms; HTML %.0f, DOMContentLoaded %.0f, app.wasm requested %.0f, response %.0f, body %.0f, instance %.0f (%.0f ms after the body), %.0f bytes on the wire, from the worker: %v",
				i+1, v+1, vt.Ready, vt.DocEnd, vt.DOMReady, vt.WasmStart, vt.WasmResponse, vt.WasmEnd, vt.Instantiated, vt.Instantiated-vt.WasmEnd, vt.Transfer, vt.FromWorker)
		}
		if !visits[1].FromWorker || !visits[2].FromWorker {
			t.Fatalf("context %d: the worker did not serve app.wasm on the second and third visits", i+1)
		}
		second = append(second, visits[1].Ready)
		third = append(third, visits[2].Ready)
	}
	wasmCacheEvents(t, base)
	t.Logf("second visits: %v ms; third: %v ms (median %.0f)", roundAll(second), roundAll(third), percentile(third, 50))
	line := figure{"second_visit_interactive_ms", round(percentile(second, 50), 0), "ms"}.String() + "\n"
	appendFigure(t, line)
}

// wasmCacheEvents traces four visits in one more browser context (not
// timed: tracing slows it) and logs Chromium's WebAssembly cache events
// of each: v8.wasm.streamFromResponseCallback (a module streamed from a
// response: one a visit, which splits the trace into visits),
// v8.wasm.compiledModule (compiled), v8.wasm.cachedModule (its code
// written to the cache), v8.wasm.moduleCacheHit (compiled code taken
// from the cache). One trace spans the visits, so a cache written after
// a visit became interactive is counted in that visit.
func wasmCacheEvents(t *testing.T, base string) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(e2e.browser, chromedp.WithNewBrowserContext())
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	defer cancelT()
	var rec *traceRecorder
	err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: readyScript}); err != nil {
			return err
		}
		var err error
		// Blink traces these events in the timeline's detailed
		// category, which filled the default buffer (record until
		// full) in four visits: the later visits were lost.
		rec, err = startTrace(ctx, tg, &tracing.TraceConfig{
			IncludedCategories: []string{"disabled-by-default-devtools.timeline"},
			RecordMode:         tracing.TraceConfigRecordModeRecordAsMuchAsPossible,
		}, func(e traceEvent) bool { return strings.HasPrefix(e.Name, "v8.wasm.") })
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	const visits = 4
	for v := range visits {
		if _, err := visit(ctx, base+"/", v == 0); err != nil {
			t.Fatalf("traced visit %d: %v", v+1, err)
		}
	}
	events, err := rec.stop(ctx)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(events, func(a, b traceEvent) int { return cmp.Compare(a.Ts, b.Ts) })
	var byVisit []map[string]int
	for _, e := range events {
		if e.Name == "v8.wasm.streamFromResponseCallback" || len(byVisit) == 0 {
			byVisit = append(byVisit, map[string]int{})
		}
		byVisit[len(byVisit)-1][e.Name]++
	}
	for v, counts := range byVisit {
		t.Logf("traced visit %d of %d: WebAssembly cache events %v", v+1, visits, counts)
	}
	if len(byVisit) != visits {
		t.Logf("the trace holds %d module streams for %d visits: the counts above are not by visit", len(byVisit), visits)
	}
}
