package cli

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"headroom/app/report"
	"headroom/estimator"
)

// Replay is the replay command: it replays a workload (CSV or JSON
// Lines of request shapes) against both revisions of a config and reports
// how their decisions differ. As the Unix diff command does, it exits 0 when no request's
// decision or number of children changes, 1 when some do, and 2 when it
// cannot say (a bad config, workload or flag, or an output it cannot
// write), with one line on standard error. Nothing is written unless the
// workload was read whole: the CSV, which has a row per line, goes to a
// temporary file first, removed if the replay is interrupted (SIGINT,
// SIGTERM).
func Replay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("replay", stderr)
	configPath := fs.String("config", "", "config JSON file (- = standard input)")
	workloadPath := fs.String("workload", "", "workload: CSV with a header row, or JSON Lines (- = standard input)")
	format := fs.String("format", "json", "output: json (the result), md (a report for a pull request), csv (one row per line)")
	out := fs.String("o", "", "output file (default: standard output)")
	if err := parseFlags(fs, args); err != nil {
		return fail(stderr, "replay", err)
	}
	if err := checkFormat(*format, "json", "md", "csv"); err != nil {
		return fail(stderr, "replay", err)
	}
	if *configPath == "-" && *workloadPath == "-" {
		return fail(stderr, "replay", errors.New("-config and -workload cannot both be standard input"))
	}
	cfg, err := readConfig("replay", *configPath, stdin, stderr)
	if err != nil {
		return fail(stderr, "replay", err)
	}
	var in io.Reader
	switch *workloadPath {
	case "":
		return fail(stderr, "replay", errors.New("-workload: is required (a file, or - for standard input)"))
	case "-":
		in = stdin
	default:
		f, err := os.Open(*workloadPath)
		if err != nil {
			return fail(stderr, "replay", fmt.Errorf("-workload: %v", err))
		}
		defer f.Close()
		in = f
	}
	in = bufio.NewReaderSize(in, 256<<10)

	dst, err := newOutput(*out, stdout)
	if err != nil {
		return fail(stderr, "replay", err)
	}
	defer dst.discard()
	defer removeOnSignal(dst, stderr)()
	var each func(estimator.ReplayLine) error
	var rows *csv.Writer
	if *format == "csv" {
		rows = csv.NewWriter(dst.w)
		rows.Write(report.CSVHeader)
		each = func(l estimator.ReplayLine) error { return report.WriteCSVRow(rows, l) }
	}
	res, err := estimator.Replay(cfg, in, each)
	if err != nil {
		return fail(stderr, "replay", fmt.Errorf("-workload: %w", err))
	}
	switch *format {
	case "json":
		err = encodeJSON(dst.w, res)
	case "md":
		_, err = io.WriteString(dst.w, report.Markdown(res, cfg))
	case "csv":
		rows.Flush()
		err = rows.Error()
	}
	if err == nil {
		err = dst.commit()
	}
	if err != nil {
		return fail(stderr, "replay", fmt.Errorf("writing the output: %v", err))
	}
	if res.ChangedRequests > 0 || res.ChildrenChangedRequests > 0 {
		return 1
	}
	return 0
}

// output is where the report goes, written only once it is whole: a
// temporary file beside -o, renamed over it on commit, or (standard
// output) a temporary file copied out on commit.
type output struct {
	w      *bufio.Writer
	tmp    *os.File
	path   string    // -o, or "" for standard output
	stdout io.Writer // when path is ""
}

func newOutput(path string, stdout io.Writer) (*output, error) {
	dir := os.TempDir()
	if path != "" {
		dir = filepath.Dir(path)
	}
	tmp, err := os.CreateTemp(dir, ".headroom-replay-*")
	if err != nil {
		return nil, fmt.Errorf("-o: %v", err)
	}
	return &output{w: bufio.NewWriterSize(tmp, 256<<10), tmp: tmp, path: path, stdout: stdout}, nil
}

func (o *output) commit() error {
	if err := o.w.Flush(); err != nil {
		return err
	}
	if o.path != "" {
		if err := o.tmp.Close(); err != nil {
			return err
		}
		if err := os.Chmod(o.tmp.Name(), 0o644); err != nil {
			return err
		}
		return os.Rename(o.tmp.Name(), o.path)
	}
	if _, err := o.tmp.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(o.stdout, o.tmp)
	return err
}

// discard removes the temporary file (after commit, only what is left).
// It may run twice at once (a signal during the replay's own discard).
func (o *output) discard() {
	o.tmp.Close()
	os.Remove(o.tmp.Name())
}

// exitOnSignal ends the process after a signal; the tests replace it.
var exitOnSignal = os.Exit

// removeOnSignal removes the replay's temporary file and exits when the
// process gets SIGINT or SIGTERM (128 + the signal's number, as a shell
// reports it), until the returned stop is called: an interrupted replay
// leaves no .headroom-replay-* file behind, as serve shuts down cleanly
// on the same signals.
func removeOnSignal(dst *output, stderr io.Writer) (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			dst.discard()
			fmt.Fprintf(stderr, "headroom replay: %v: stopped; the partial output was removed\n", sig)
			code := 130
			if sig == syscall.SIGTERM {
				code = 143
			}
			exitOnSignal(code)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}
