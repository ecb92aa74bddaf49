//go:build wasm

package chart

import "errors"

// PNG is not in the browser build, which draws only SVG (see
// png_native.go); the plot command, which calls it, never runs there.
func PNG(Input, int, int) ([]byte, error) {
	return nil, errors.New("chart: PNG rendering is not part of the WebAssembly build")
}
