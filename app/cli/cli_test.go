package cli

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// failWriter fails every write, like a closed pipe.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestWriteErrorsReported: a result that cannot be written exits 1 and
// says why on stderr.
func TestWriteErrorsReported(t *testing.T) {
	for _, c := range []struct {
		name string
		run  func(args []string, stdin *strings.Reader, stdout, stderr *bytes.Buffer) int
	}{
		{"estimate", func(args []string, in *strings.Reader, _, stderr *bytes.Buffer) int {
			return Estimate(args, in, failWriter{}, stderr)
		}},
		{"sweep", func(args []string, in *strings.Reader, _, stderr *bytes.Buffer) int {
			return Sweep(append(args, "-to", "1000"), in, failWriter{}, stderr)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := c.run([]string{"-config", "-"}, strings.NewReader("{}"), &stdout, &stderr)
			if code != 1 || !strings.Contains(stderr.String(), "headroom "+c.name+": writing the result: broken pipe") {
				t.Errorf("exit %d, stderr %q; want 1 and the reason", code, stderr.String())
			}
		})
	}
}

// TestRunDispatch: the first argument picks the command, a flag first
// runs the default, help (-h, --help) lists the commands, anything else
// exits 2.
func TestRunDispatch(t *testing.T) {
	var ran []string
	cmd := func(name string) Command {
		return Command{Name: name, Summary: "the " + name + " command", Run: func(args []string, _ io.Reader, _, _ io.Writer) int {
			ran = append(ran, name+strings.Join(args, ","))
			return 0
		}}
	}
	cmds := []Command{cmd("serve"), cmd("plot")}
	for _, c := range []struct {
		name string
		args []string
		code int
		ran  string // the command that ran, with its arguments
		out  string // in stdout or stderr
	}{
		{"default", nil, 0, "serve", ""},
		{"default with a flag", []string{"-addr", "x"}, 0, "serve-addr,x", ""},
		{"named", []string{"plot", "-o", "-"}, 0, "plot-o,-", ""},
		{"help", []string{"help"}, 0, "", "  plot      the plot command"},
		{"help says what -config takes", []string{"help"}, 0, "", "a Hugging Face config.json (its model"},
		{"help says estimate's formats", []string{"-h"}, 0, "", "estimate -format text prints the decisions for a terminal"},
		{"-h", []string{"-h"}, 0, "", "  serve     the serve command"},
		{"--help", []string{"--help"}, 0, "", "headroom COMMAND -h lists a command's flags, for example: headroom serve -h"},
		{"-help", []string{"-help"}, 0, "", "  help      this list"},
		{"help of a command", []string{"help", "plot"}, 0, "plot-h", ""},
		{"help of no command", []string{"help", "nosuch"}, 2, "", `unknown command "nosuch"`},
		{"unknown", []string{"nosuch"}, 2, "", `headroom: unknown command "nosuch"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			ran = nil
			var stdout, stderr bytes.Buffer
			code := Run(cmds, c.args, nil, &stdout, &stderr)
			if code != c.code || strings.Join(ran, "") != c.ran || !strings.Contains(stdout.String()+stderr.String(), c.out) {
				t.Errorf("exit %d, ran %q, output %q; want %d, %q, %q", code, ran, stdout.String()+stderr.String(), c.code, c.ran, c.out)
			}
		})
	}
}
