//go:build !wasm

package chart

// The PNG renderer is for the plot command only: the browser shows the
// SVG, and vgimg (with its rasterizer and image encoders) would add some
// 0.9 MB to app.wasm. png_wasm.go stands in for it there.

import (
	"bytes"
	"image"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// PNG draws in as a PNG of exactly widthPx x heightPx pixels,
// at the text scale of an SVG of LogicalSize points.
func PNG(in Input, widthPx, heightPx int) (png []byte, err error) {
	defer recoverChart(&err)
	if err := CheckSize(float64(widthPx), float64(heightPx)); err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, widthPx, heightPx))
	c := vgimg.NewWith(vgimg.UseImage(img), vgimg.UseDPI(chartDPI(widthPx)))
	if _, err := drawChart(in, draw.New(c)); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
