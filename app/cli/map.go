package cli

import (
	"fmt"
	"io"
	"strings"

	"gonum.org/v1/plot/vg"

	"headroom/app/chart"
	"headroom/estimator"
)

// Map is the map command: where each revision's decision flips over
// two inputs at once. Without -o it prints the map's JSON; with -o it
// draws the picture (SVG or PNG). Its errors and exit statuses are the
// sweep's: 2 for bad flags, a bad config or a map with nothing to show
// (every point invalid), 1 for a failure while writing.
func Map(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("map", stderr)
	axes := strings.Join(estimator.Axes(), ", ")
	configPath := fs.String("config", "", "config JSON file (- = standard input)")
	setup := addSetupFlags(fs)
	xAxis := fs.String("x", "", "axis across: "+axes+" (required)")
	xFrom := fs.Int64("xfrom", 1, "first x")
	xTo := fs.Int64("xto", 0, "last x (required)")
	yAxis := fs.String("y", "", "axis up: "+axes+", not the x axis (required)")
	yFrom := fs.Int64("yfrom", 1, "first y")
	yTo := fs.Int64("yto", 0, "last y (required)")
	columns := fs.Int("columns", estimator.DefaultColumns, "values of x, 2.."+estimator.Group(estimator.MaxColumns))
	out := fs.String("o", "", "draw the map to NAME.svg or NAME.png (- writes SVG to standard output) instead of printing its JSON")
	width := fs.Int("width", chart.DefaultWidth, "with -o: width in pixels (an SVG keeps the PNG's proportions and text scale)")
	height := fs.Int("height", chart.DefaultHeight, "with -o: height in pixels")
	title := fs.String("title", "", "with -o: title above the map")
	if err := parseFlags(fs, args, "x", "xto", "y", "yto"); err != nil {
		return fail(stderr, "map", err)
	}
	format := ""
	if *out != "" {
		var err error
		if format, err = plotFormat(*out); err != nil {
			return fail(stderr, "map", err)
		}
		if err := chart.CheckSize(float64(*width), float64(*height)); err != nil {
			return fail(stderr, "map", fmt.Errorf("-width, -height: %v", err))
		}
	}
	cfg, err := readSetup("map", *configPath, setup, stdin, stderr)
	if err != nil {
		return fail(stderr, "map", err)
	}
	res, err := estimator.Map(cfg,
		estimator.MapAxis{Axis: *xAxis, From: *xFrom, To: *xTo},
		estimator.MapAxis{Axis: *yAxis, From: *yFrom, To: *yTo}, *columns)
	if err != nil {
		return fail(stderr, "map", err)
	}
	if *out == "" {
		return writeJSON(stdout, stderr, "map", res)
	}

	in := chart.NewMapInput(cfg, res)
	in.Title = *title
	return writePicture(stdout, stderr, "map", *out, format, *width, *height,
		func(w, h int) ([]byte, error) { return chart.MapPNG(in, w, h) },
		func(w, h vg.Length) ([]byte, error) { return chart.MapSVG(in, w, h) })
}
