package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"headroom/estimator"
)

// newFlags returns a flag set that reports its errors to stderr, once.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// readConfig reads a config file ("-" = stdin) in the interchange format.
// The error is one line naming the field.
func readConfig(path string, stdin io.Reader) (estimator.Config, error) {
	var r io.Reader
	switch path {
	case "":
		return estimator.Config{}, errors.New("-config: is required (a file, or - for standard input)")
	case "-":
		r = stdin
	default:
		f, err := os.Open(path)
		if err != nil {
			return estimator.Config{}, fmt.Errorf("-config: %v", err)
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, estimator.MaxInputBytes+1))
	if err != nil {
		return estimator.Config{}, fmt.Errorf("-config: %v", err)
	}
	return estimator.DecodeConfig(data)
}

// fail prints err on one line and returns the exit status 2.
func fail(stderr io.Writer, cmd string, err error) int {
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	fmt.Fprintf(stderr, "headroom %s: %s\n", cmd, msg)
	return 2
}

func writeJSON(stdout io.Writer, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return 1
	}
	return 0
}

func runEstimate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("estimate", stderr)
	configPath := fs.String("config", "", "config JSON file (- = standard input)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg, err := readConfig(*configPath, stdin)
	if err != nil {
		return fail(stderr, "estimate", err)
	}
	res, err := estimator.Estimate(cfg)
	if err != nil {
		return fail(stderr, "estimate", err)
	}
	return writeJSON(stdout, res)
}

func runSweep(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("sweep", stderr)
	configPath := fs.String("config", "", "config JSON file (- = standard input)")
	axis := fs.String("axis", "rows", "axis to sweep: "+strings.Join(estimator.Axes(), ", "))
	from := fs.Int64("from", 1, "first x")
	to := fs.Int64("to", 0, "last x (required)")
	points := fs.Int("points", estimator.DefaultPoints, "grid points before bisection")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg, err := readConfig(*configPath, stdin)
	if err != nil {
		return fail(stderr, "sweep", err)
	}
	res, err := estimator.Sweep(cfg, *axis, *from, *to, *points)
	if err != nil {
		return fail(stderr, "sweep", err)
	}
	return writeJSON(stdout, res)
}
