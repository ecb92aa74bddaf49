//go:build wasm

package chart

import "errors"

// PNG and MapPNG are not in the browser build, which draws only SVG (see
// png_native.go); the plot and map commands, which call them, never run
// there.

// PNG is png_native.go's, absent here.
func PNG(Input, int, int) ([]byte, error) {
	return nil, errors.New("chart: PNG rendering is not part of the WebAssembly build")
}

// MapPNG is png_native.go's, absent here.
func MapPNG(MapInput, int, int) ([]byte, error) {
	return nil, errors.New("map chart: PNG rendering is not part of the WebAssembly build")
}
