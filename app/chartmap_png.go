//go:build !wasm

package main

import (
	"bytes"
	"image"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// renderMapPNG draws in as a PNG of exactly widthPx x heightPx pixels, at
// the text scale of an SVG of chartLogicalSize points (as renderChartPNG).
func renderMapPNG(in mapChartInput, widthPx, heightPx int) (png []byte, err error) {
	defer recoverChart(&err)
	if err := checkChartSize(float64(widthPx), float64(heightPx)); err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, widthPx, heightPx))
	c := vgimg.NewWith(vgimg.UseImage(img), vgimg.UseDPI(chartDPI(widthPx)))
	if err := drawMap(in, draw.New(c)); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
