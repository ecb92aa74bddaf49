//go:build !wasm

package chart

import (
	"bytes"
	"image"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// MapPNG draws in as a PNG of exactly widthPx x heightPx pixels, at
// the text scale of an SVG of LogicalSize points (as PNG draws the
// one-axis chart).
func MapPNG(in MapInput, widthPx, heightPx int) (png []byte, err error) {
	defer recoverChart(&err)
	if err := CheckSize(float64(widthPx), float64(heightPx)); err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, widthPx, heightPx))
	c := vgimg.NewWith(vgimg.UseImage(img), vgimg.UseDPI(chartDPI(widthPx)))
	if err := drawMap(in, draw.New(c), nil); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
