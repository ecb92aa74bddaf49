// Package chart draws Headroom's chart: it sweeps a config along one input
// with the estimator (Build), and renders the result with gonum/plot, as
// SVG through its own canvas (SVG, byte for byte what gonum's vgsvg wrote,
// less the inline styles) or as PNG (PNG, native builds only: the browser
// shows the SVG). The explorer page and the plot command both call it, so
// they show the same picture. AddObserved adds a config's observed peaks
// (markers and each revision's predicted-peak line) to a chart along rows.
// The map of two inputs (estimator.Map) has its own picture: NewMapInput
// builds it from a config and its map, MapSVG and MapPNG draw it (regions
// by the candidate's decision, differences hatched, both boundaries).
//
// A chart is a pure function of its Input: the golden files under
// testdata/ pin it byte for byte.
//
// It may import the estimator, gonum/plot and golang.org/x/image; never
// go-app, the page (app/ui), the server or the command line.
package chart
