//go:build wasm

package main

import (
	"runtime/debug"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// main is the browser's: the page, and nothing of the command line or the
// server (main.go, which is !wasm), so app.wasm carries none of their code.
func main() {
	// In the browser the collector runs on the page's only thread, so each
	// collection is a pause in the middle of a slider drag. A render
	// allocates about a megabyte (the sweep, the SVG) over a live heap of a
	// few, so the default GOGC=100 collects every few renders; 400 makes
	// that four times rarer for some 20 MB more memory.
	debug.SetGCPercent(400)
	registerRoutes()
	app.RunWhenOnBrowser() // never returns
}
