//go:build bench && !wasm

package e2e

// Where the tab's renderer memory goes after a cold load: the largest
// mappings of /proc/PID/smaps, the WebAssembly memory's size (Go's heap
// lives in it, and it never shrinks), V8's heap, and the PSS and USS
// before and after a forced collection.

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

var benchMemVariant = flag.String("bench.memvariant", "", "TestBenchMemory's variant of the page's loader: nocaches (no hand-off cache: window.caches hidden)")

// wasmMemoryProbe notes every WebAssembly instance the page makes, so the
// test can read the size of its memory (Go's wasm exports it as mem).
const wasmMemoryProbe = `(() => {
	const orig = WebAssembly.instantiateStreaming;
	WebAssembly.instantiateStreaming = async (...args) => {
		const r = await orig.apply(WebAssembly, args);
		window.__benchWasmInstance = r.instance;
		return r;
	};
})()`

// hideCaches is the nocaches variant: the loader sees no CacheStorage and
// so neither clones app.wasm's response nor puts it in the hand-off cache.
const hideCaches = `Object.defineProperty(window, 'caches', {value: undefined, configurable: true});`

// TestBenchMemory loads the page cold -bench.loads times, each in a new
// browser context, and logs where its renderer's memory is.
//
//	go test -tags bench -run '^TestBenchMemory$' -v ./app/e2e -args -bench.loads=3
func TestBenchMemory(t *testing.T) {
	web := benchWebDir(t)
	base := benchStart(t, web)
	var pss, uss, pssGC, ussGC, wasmMem []float64
	for i := 0; i < *benchLoads; i++ {
		ctx, cancel := chromedp.NewContext(e2e.browser, chromedp.WithNewBrowserContext())
		scripts := []string{wasmMemoryProbe}
		if *benchMemVariant == "nocaches" {
			scripts = append(scripts, hideCaches)
		}
		if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			for _, s := range scripts {
				if _, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: s}); err != nil {
					return err
				}
			}
			return nil
		})); err != nil {
			t.Fatal(err)
		}
		_, lf, err := measuredColdLoad(ctx, base)
		if err != nil {
			cancel()
			t.Fatalf("cold load %d: %v", i+1, err)
		}
		type jsMem struct {
			Wasm     float64 `json:"wasm"`
			HeapUsed float64 `json:"heapUsed"`
			HeapTot  float64 `json:"heapTotal"`
		}
		m, err := chromedp.Run(ctx, chromedp.Evaluate[jsMem](`({wasm: window.__benchWasmInstance ? window.__benchWasmInstance.exports.mem.buffer.byteLength : -1,
			heapUsed: performance.memory.usedJSHeapSize, heapTotal: performance.memory.totalJSHeapSize})`))
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		top := smapsTop(lf.pid, 8)
		if err := collectGarbage(ctx); err != nil {
			cancel()
			t.Fatal(err)
		}
		p2, u2, err := pssMB(lf.pid)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		m2, _ := chromedp.Run(ctx, chromedp.Evaluate[jsMem](`({heapUsed: performance.memory.usedJSHeapSize, heapTotal: performance.memory.totalJSHeapSize})`))
		topGC := smapsTop(lf.pid, 8)
		cancel()
		t.Logf("load %d: PSS %.1f USS %.1f MB; wasm memory %.1f MB; JS heap used %.1f of %.1f MB; Blink nodes %.0f; largest mappings: %s",
			i+1, lf.pss, lf.uss, m.Wasm/1e6, m.HeapUsed/1e6, m.HeapTot/1e6, lf.metrics["Nodes"], top)
		t.Logf("load %d after a forced collection: PSS %.1f USS %.1f MB; JS heap used %.1f of %.1f MB; largest mappings: %s",
			i+1, p2, u2, m2.HeapUsed/1e6, m2.HeapTot/1e6, topGC)
		pss, uss, pssGC, ussGC, wasmMem = append(pss, lf.pss), append(uss, lf.uss), append(pssGC, p2), append(ussGC, u2), append(wasmMem, m.Wasm/1e6)
	}
	t.Logf("variant %q: PSS %v, USS %v; after a forced collection PSS %v, USS %v; wasm memory %v MB",
		*benchMemVariant, roundAll(pss), roundAll(uss), roundAll(pssGC), roundAll(ussGC), roundAll(wasmMem))
	fmt.Println(figure{"renderer_pss_mb", round(percentile(pss, 50), 1), "MB"})
	fmt.Println(figure{"renderer_uss_mb", round(percentile(uss, 50), 1), "MB"})
	fmt.Println(figure{"renderer_uss_after_gc_mb", round(percentile(ussGC, 50), 1), "MB"})
	fmt.Println(figure{"wasm_memory_mb", round(percentile(wasmMem, 50), 1), "MB"})
}

// smapsTop is the n largest mappings of the process by their private
// bytes (USS), as "name start-end: MB" entries.
func smapsTop(pid int64, n int) string {
	data, err := os.ReadFile("/proc/" + strconv.FormatInt(pid, 10) + "/smaps")
	if err != nil {
		return err.Error()
	}
	type mapping struct {
		name string
		priv float64
	}
	var ms []mapping
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			name := "[anon]"
			if len(f) >= 6 {
				name = f[5]
			}
			ms = append(ms, mapping{name: name + " " + f[0]})
			continue
		}
		if (f[0] == "Private_Clean:" || f[0] == "Private_Dirty:") && len(ms) > 0 && len(f) >= 2 {
			kb, _ := strconv.ParseFloat(f[1], 64)
			ms[len(ms)-1].priv += kb * 1024 / 1e6
		}
	}
	slices.SortFunc(ms, func(a, b mapping) int { return int((b.priv - a.priv) * 1e3) })
	var parts []string
	for i := 0; i < n && i < len(ms); i++ {
		parts = append(parts, fmt.Sprintf("%s: %.1f", ms[i].name, ms[i].priv))
	}
	return strings.Join(parts, "; ")
}
