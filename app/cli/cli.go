package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"headroom/app/report"
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
	fmt.Fprintln(w, "\n-config FILE (- = standard input) takes what the page's import box takes: a config in")
	fmt.Fprintln(w, "Headroom's JSON format ({} is the default config), a Hugging Face config.json (its model")
	fmt.Fprintln(w, "fields and dtype_bytes, the rest the defaults) or the page's JSON export (its config).")
	fmt.Fprintln(w, "-preset ID, -gpu ID, -profile seeds|art and -expert_parallel N set what the page's menus set,")
	fmt.Fprintln(w, "over -config (or over the default config when -config is left out).")
	fmt.Fprintln(w, "estimate -format text prints the decisions for a terminal, -format md for a pull request.")
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

// sweepFlags adds the flags of a sweep along an axis, which sweep and
// plot share: the config (configUsage says what it may be), the axis, the
// range and the grid.
func sweepFlags(fs *flag.FlagSet, configUsage string) (configPath, axis *string, from, to *int64, points *int) {
	configPath = fs.String("config", "", configUsage)
	axis = fs.String("axis", "rows", "axis to sweep: "+strings.Join(estimator.Axes(), ", "))
	from = fs.Int64("from", 1, "first x")
	to = fs.Int64("to", 0, "last x (required)")
	points = fs.Int("points", estimator.DefaultPoints, "grid points before bisection")
	return configPath, axis, from, to, points
}

// fail prints err on one line and returns the exit status 2.
func fail(stderr io.Writer, cmd string, err error) int {
	if err == errHelp {
		return 0
	}
	if err == errUsage {
		return 2 // the flag package said why
	}
	msg := terminalSafe(strings.ReplaceAll(err.Error(), "\n", " "))
	fmt.Fprintf(stderr, "headroom %s: %s\n", cmd, msg)
	return 2
}

// writeJSON prints v as indented JSON and returns the exit status: 1, with
// the reason on stderr, when it could not be written (a closed pipe, a
// full disk).
func writeJSON(stdout, stderr io.Writer, cmd string, v any) int {
	if err := encodeJSON(stdout, v); err != nil {
		fmt.Fprintf(stderr, "headroom %s: writing the result: %v\n", cmd, err)
		return 1
	}
	return 0
}

// encodeJSON writes v as indented JSON, each C1 control or
// bidirectional override in its strings as a \u escape (report.JSONText):
// a label or an id from a file never drives the terminal it is printed on.
func encodeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(report.JSONText(buf.Bytes()))
	return err
}

// Estimate is the estimate command: the decision of both revisions for a
// config, with every stage and tensor, as JSON (-format json, the
// default); -format text is the same for a terminal (decisions, plans,
// required and margin with GiB, what dominates, where the candidate
// differs) and -format md a report for a pull request (app/report).
func Estimate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("estimate", stderr)
	configPath := fs.String("config", "", "config JSON file (- = standard input): the format, a Hugging Face config.json or the page's JSON export")
	setup := addSetupFlags(fs)
	format := fs.String("format", "json", "output: json (every stage and tensor), text (for a terminal), md (a report for a pull request)")
	if err := parseFlags(fs, args); err != nil {
		return fail(stderr, "estimate", err)
	}
	if err := checkFormat(*format, "json", "text", "md"); err != nil {
		return fail(stderr, "estimate", err)
	}
	cfg, err := readSetup("estimate", *configPath, setup, stdin, stderr)
	if err != nil {
		return fail(stderr, "estimate", err)
	}
	res, err := estimator.Estimate(cfg)
	if err != nil {
		return fail(stderr, "estimate", err)
	}
	switch *format {
	case "text":
		return writeText(stdout, stderr, "estimate", report.EstimateText(cfg, res))
	case "md":
		return writeText(stdout, stderr, "estimate", report.EstimateMarkdown(cfg, res))
	}
	return writeJSON(stdout, stderr, "estimate", res)
}

// Sweep is the sweep command: both revisions' flips along an axis, as
// JSON (-format json, the default, docs/model.md §6), or the sweep's
// grid and flip points with every stage in exact bytes (-format csv): the
// page's CSV export of the same config, axis and range, byte for byte.
// Both are app/report's, as the page's exports are.
func Sweep(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("sweep", stderr)
	configPath, axis, from, to, points := sweepFlags(fs, "config JSON file (- = standard input): the format, a Hugging Face config.json or the page's JSON export")
	setup := addSetupFlags(fs)
	fs.Lookup("to").Usage = "last x (default: the page's range, fitted to every flip of both revisions)"
	format := fs.String("format", "json", "output: json (the flips), csv (every grid and flip point, as the page's CSV export), text (each revision's decisions along the range)")
	if err := parseFlags(fs, args); err != nil {
		return fail(stderr, "sweep", err)
	}
	if err := checkFormat(*format, "json", "csv", "text"); err != nil {
		return fail(stderr, "sweep", err)
	}
	cfg, err := readSetup("sweep", *configPath, setup, stdin, stderr)
	if err != nil {
		return fail(stderr, "sweep", err)
	}
	if !flagSet(fs, "to") {
		// The page's range for this config and axis: every flip in it.
		f, t := estimator.FitRange(*axis, cfg, estimator.LastFlip)
		if !flagSet(fs, "from") {
			*from = f
		}
		*to = t
		fmt.Fprintf(stderr, "headroom sweep: -to not given: %s %s to %s, the page's range (every flip of both revisions in it)\n", *axis, estimator.Group(*from), estimator.Group(*to))
	}
	sw, err := report.NewSweep(cfg, *axis, *from, *to, *points)
	if err != nil {
		return fail(stderr, "sweep", err)
	}
	if *format == "csv" {
		data, err := report.SweepCSV(cfg, sw)
		if err != nil {
			return fail(stderr, "sweep", err)
		}
		if _, err := stdout.Write(data); err != nil {
			return fail(stderr, "sweep", fmt.Errorf("writing the CSV: %w", err))
		}
		return 0
	}
	if *format == "text" {
		return writeText(stdout, stderr, "sweep", report.SweepText(cfg, sw))
	}
	return writeJSON(stdout, stderr, "sweep", sw.Flips())
}

// flagSet reports whether the flag name was given.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// errUsage is parseFlags' error for a flag the flag package has already
// reported (with the command's usage): the caller prints nothing more.
var errUsage = errors.New("bad flag")

// errHelp is parseFlags' error for -h: the flag package has printed the
// command's flags, which is what was asked for, so the status is 0 (as
// "help COMMAND").
var errHelp = errors.New("help")

// checkFormat refuses a -format value that is not one of allowed, naming
// them ("-format: must be json, md or csv, got ...").
func checkFormat(format string, allowed ...string) error {
	if slices.Contains(allowed, format) {
		return nil
	}
	list := allowed[len(allowed)-1]
	if len(allowed) > 1 {
		list = strings.Join(allowed[:len(allowed)-1], ", ") + " or " + list
	}
	return fmt.Errorf("-format: must be %s, got %q", list, format)
}

// parseFlags parses a command's flags, wherever they stand (see
// parseArgs), and refuses what every command refuses: a stray argument
// (estimate once swept rows when given "- axis vocab_size"), and a
// required flag left out, named as "-to: is required" (not by the range
// check its zero default fails).
func parseFlags(fs *flag.FlagSet, args []string, required ...string) error {
	rest, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("unexpected argument %q (the flags come as -name value; %s -h lists them)", rest[0], fs.Name())
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, name := range required {
		if !set[name] {
			return fmt.Errorf("-%s: is required (%s)", name, strings.TrimSuffix(fs.Lookup(name).Usage, " (required)"))
		}
	}
	return nil
}

// parseArgs parses fs's flags wherever they stand among the other
// arguments, as a person types them: "measure -planner-miss a.json
// b.json -config x.json" reads -config, where the flag package alone
// stops at a.json's neighbour and takes "-config" for a file (the shell
// expands reports/*.json in the middle of the line). It returns the
// arguments that are not flags, in order. "-" alone is an argument
// (standard input), and everything after "--" is one. -h is errHelp:
// the flag package has printed the flags, and the command exits 0.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			return nil, errHelp
		}
		if err != nil {
			return nil, errUsage
		}
		left := fs.Args()
		if len(left) == 0 {
			return rest, nil
		}
		if used := len(args) - len(left); used > 0 && args[used-1] == "--" && !takesValue(fs, args[:used-1]) {
			return append(rest, left...), nil
		}
		rest, args = append(rest, left[0]), left[1:]
	}
}

// takesValue reports whether the last of args is a flag waiting for its
// value (so that a "--" after it is that value, not the end of flags).
func takesValue(fs *flag.FlagSet, args []string) bool {
	if len(args) == 0 {
		return false
	}
	name := strings.TrimLeft(args[len(args)-1], "-")
	if len(name) == len(args[len(args)-1]) || strings.Contains(name, "=") {
		return false
	}
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// writeText prints a report and returns the exit status, as writeJSON.
func writeText(stdout, stderr io.Writer, cmd, text string) int {
	if _, err := io.WriteString(stdout, text); err != nil {
		fmt.Fprintf(stderr, "headroom %s: writing the result: %v\n", cmd, err)
		return 1
	}
	return 0
}
