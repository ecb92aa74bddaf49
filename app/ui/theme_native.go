//go:build !wasm

package ui

import "headroom/app/chart"

// chartPalette is Light outside the browser, which has no colour scheme.
func (c *explorer) chartPalette() *chart.Palette { return &chart.Light }
