//go:build !wasm

package chart

// The PNG renderers are for the plot and map commands only: the browser
// shows the SVG, and vgimg (with its rasterizer and image encoders) would
// add some 0.9 MB to app.wasm. png_wasm.go stands in for them there.

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
	return rasterize(widthPx, heightPx, func(c draw.Canvas) error {
		_, err := drawChart(in, c)
		return err
	})
}

// MapPNG draws in as a PNG of exactly widthPx x heightPx pixels, at
// the text scale of an SVG of LogicalSize points, as PNG does.
func MapPNG(in MapInput, widthPx, heightPx int) (png []byte, err error) {
	defer recoverChart(&err)
	return rasterize(widthPx, heightPx, func(c draw.Canvas) error { return drawMap(in, c, nil) })
}

// rasterize checks the size, has drawTo draw on an image of it at the
// DPI that gives an SVG's text scale, and encodes the image as PNG.
func rasterize(widthPx, heightPx int, drawTo func(draw.Canvas) error) ([]byte, error) {
	if err := CheckSize(float64(widthPx), float64(heightPx)); err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, widthPx, heightPx))
	c := vgimg.NewWith(vgimg.UseImage(img), vgimg.UseDPI(chartDPI(widthPx)))
	if err := drawTo(draw.New(c)); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
