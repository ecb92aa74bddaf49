//go:build wasm

package main

import "runtime/debug"

// In the browser the collector runs on the page's only thread, so each
// collection is a pause in the middle of a slider drag. A render allocates
// about a megabyte (the sweep, the SVG) over a live heap of a few, so the
// default GOGC=100 collects every few renders; 400 makes that four times
// rarer for some 20 MB more memory.
func init() { debug.SetGCPercent(400) }
