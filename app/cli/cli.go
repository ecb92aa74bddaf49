package cli

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

// Command is one subcommand of the binary; main lists them.
type Command struct {
	Name    string
	Summary string // one line for the usage message
	Run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// Run executes the command line with commands and returns the exit
// status: 0 ok, 1 a failure while running, 2 bad usage or a bad config.
// The first argument names the command unless it is a flag; the first
// command is the default.
//
// "-h", "-help", "--help" and "help" print the usage (the commands, one
// line each) on stdout and exit 0; "help COMMAND" prints that command's
// flags, as "COMMAND -h" does.
func Run(commands []Command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "-h", "-help", "--help":
			usage(stdout, commands)
			return 0
		case "help":
			if len(args) == 1 {
				usage(stdout, commands)
				return 0
			}
			for _, c := range commands {
				if c.Name == args[1] {
					c.Run([]string{"-h"}, stdin, stdout, stdout)
					return 0
				}
			}
			fmt.Fprintf(stderr, "headroom help: unknown command %q\n", args[1])
			usage(stderr, commands)
			return 2
		}
	}
	name := commands[0].Name
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	for _, c := range commands {
		if c.Name == name {
			return c.Run(args, stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "headroom: unknown command %q\n", name)
	usage(stderr, commands)
	return 2
}

// usage lists the commands, one line each, and says how to get a
// command's flags.
func usage(w io.Writer, commands []Command) {
	fmt.Fprintln(w, "usage: headroom [command] [flags]")
	fmt.Fprintln(w, "\nHeadroom: where a change to the memory estimate flips the trainer's decision (admit, split or refuse).")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.Name, c.Summary)
	}
	fmt.Fprintf(w, "  %-9s %s\n", "help", "this list; help COMMAND lists a command's flags")
	fmt.Fprintf(w, "\nheadroom COMMAND -h lists a command's flags, for example: headroom %s -h\n", example(commands))
	fmt.Fprintf(w, "With no command, headroom runs %s.\n", commands[0].Name)
}

// example is the command the usage shows "-h" on: estimate when there is
// one.
func example(commands []Command) string {
	for _, c := range commands {
		if c.Name == "estimate" {
			return c.Name
		}
	}
	return commands[0].Name
}

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

// writeJSON prints v as indented JSON and returns the exit status: 1, with
// the reason on stderr, when it could not be written (a closed pipe, a
// full disk).
func writeJSON(stdout, stderr io.Writer, cmd string, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "headroom %s: writing the result: %v\n", cmd, err)
		return 1
	}
	return 0
}

// Estimate is the estimate command: the decision of both revisions for a
// config, with every stage and tensor, as JSON.
func Estimate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
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
	return writeJSON(stdout, stderr, "estimate", res)
}

// Sweep is the sweep command: both revisions' flips along an axis, as
// JSON.
func Sweep(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
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
	return writeJSON(stdout, stderr, "sweep", res)
}
