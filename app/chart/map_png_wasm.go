package chart

import "errors"

// MapPNG is not in the browser build, which draws only SVG (see
// chartmap_png.go); the map command, which calls it, never runs there.
func MapPNG(MapInput, int, int) ([]byte, error) {
	return nil, errors.New("map chart: PNG rendering is not part of the WebAssembly build")
}
