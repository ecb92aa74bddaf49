//go:build wasm

package main

import (
	"runtime/debug"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/browser"
)

// main is the browser's: the page, and nothing of the command line or the
// server (main.go, which is !wasm), so app.wasm carries none of their code.
func main() {
	// Go's runtime and every package's init have run: make bench splits
	// the cold load's long task at this mark (BENCHMARKS.md, cold load).
	browser.Mark("headroom:main")
	// In the browser the collector runs on the page's only thread, so each
	// collection is a pause in the middle of a slider drag. A render
	// allocates about a megabyte (the sweep, the SVG) over a live heap of a
	// few, so the default GOGC=100 collects every few renders; 1000 makes
	// that ten times rarer (one render in 50 to 100), for some 50 MB more
	// memory. The soft limit keeps a page whose live heap grows (a large
	// workload) from growing tenfold past it: near the limit the collector
	// runs as often as it must. Measured with make bench (BENCHMARKS.md),
	// three interleaved runs: input_to_paint_p95_ms 12.4-13.0 ms at 400,
	// 10.8-12.1 at 1000; the rarer collections are longer, so the slowest
	// of 200 inputs rose from 19-23 ms to 28-47.
	debug.SetGCPercent(1000)
	debug.SetMemoryLimit(256 << 20)
	registerRoutes()
	app.RunWhenOnBrowser() // never returns
}
