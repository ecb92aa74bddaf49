package chart

import (
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// MapSVGFrame is MapSVG with the plane's Frame: the coordinate mapping
// of the map's data area in the SVG's own coordinates, for the page's
// pointer over the map (the column under it, a click's x and y).
func MapSVGFrame(in MapInput, width, height vg.Length, opts ...SVGOption) (svg []byte, frame Frame, err error) {
	defer recoverChart(&err)
	if err := CheckSize(float64(width), float64(height)); err != nil {
		return nil, Frame{}, err
	}
	c := newSVGCanvas(width, height, opts...)
	if err := drawMap(in, draw.New(c), &frame); err != nil {
		return nil, Frame{}, err
	}
	return c.bytes(), frame, nil
}
