package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/vg"

	"headroom/app/chart"
)

// Plot is the plot command: it renders the explorer's chart for a
// config and a swept axis, natively, to an SVG or a PNG (for a pull
// request comment or a paper).
func Plot(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("plot", stderr)
	configPath, axis, from, to, points := sweepFlags(fs, "config JSON file (- = standard input)")
	setup := addSetupFlags(fs)
	out := fs.String("o", "", "output file: NAME.svg or NAME.png; - writes SVG to standard output")
	width := fs.Int("width", chart.DefaultWidth, "width in pixels (an SVG keeps the PNG's proportions and text scale)")
	height := fs.Int("height", chart.DefaultHeight, "height in pixels")
	title := fs.String("title", "", "title above the chart")
	caption := fs.String("caption", "", "caption under the legend, wrapped to the width (parts separated by \" · \" stay whole where they fit)")
	if err := parseFlags(fs, args, "to"); err != nil {
		return fail(stderr, "plot", err)
	}
	format, err := plotFormat(*out)
	if err != nil {
		return fail(stderr, "plot", err)
	}
	if err := chart.CheckSize(float64(*width), float64(*height)); err != nil {
		return fail(stderr, "plot", fmt.Errorf("-width, -height: %v", err))
	}
	cfg, err := readSetup("plot", *configPath, setup, stdin, stderr)
	if err != nil {
		return fail(stderr, "plot", err)
	}
	in, err := chart.Build(cfg, *axis, *from, *to, *points)
	if err != nil {
		return fail(stderr, "plot", err)
	}
	in.Title, in.Caption = *title, *caption
	if note, err := in.AddObserved(cfg); err != nil {
		return fail(stderr, "plot", err)
	} else if note != "" {
		fmt.Fprintf(stderr, "headroom plot: %s\n", note)
	}

	return writePicture(stdout, stderr, "plot", *out, format, *width, *height,
		func(w, h int) ([]byte, error) { return chart.PNG(in, w, h) },
		func(w, h vg.Length) ([]byte, error) { return chart.SVG(in, w, h) })
}

// writePicture renders a chart as format ("png" at width x height pixels,
// else SVG at the logical size of those pixels) and writes it to out ("-":
// standard output). A failure is one line on stderr and the status 1.
func writePicture(stdout, stderr io.Writer, cmd, out, format string, width, height int,
	png func(w, h int) ([]byte, error), svg func(w, h vg.Length) ([]byte, error)) int {
	var data []byte
	var err error
	if format == "png" {
		data, err = png(width, height)
	} else {
		w, h := chart.LogicalSize(width, height)
		data, err = svg(w, h)
	}
	if err == nil {
		if out == "-" {
			_, err = stdout.Write(data)
		} else {
			err = os.WriteFile(out, data, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "headroom %s: %v\n", cmd, err)
		return 1
	}
	return 0
}

// plotFormat picks the output format from the -o file name.
func plotFormat(out string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(out)); {
	case out == "":
		return "", errors.New("-o: is required (NAME.svg, NAME.png, or - for SVG on standard output)")
	case out == "-" || ext == ".svg":
		return "svg", nil
	case ext == ".png":
		return "png", nil
	default:
		return "", fmt.Errorf("-o: must end in .svg or .png (or be -), got %q", out)
	}
}
