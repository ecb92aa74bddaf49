package main

import "errors"

// renderChartPNG is not in the browser build, which draws only SVG (see
// chartpng.go); the plot command, which calls it, never runs there.
func renderChartPNG(chartInput, int, int) ([]byte, error) {
	return nil, errors.New("chart: PNG rendering is not part of the WebAssembly build")
}
