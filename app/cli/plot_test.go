package cli

import (
	"bytes"
	"image"
	_ "image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/estimator"
)

// runMain runs one command's main (Estimate, Measure, ...) in-process on
// args, with stdin as its input.
func runMain(main func(args []string, stdin io.Reader, stdout, stderr io.Writer) int, stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = main(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// runCmd runs the command line in-process.
func runCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runMain(func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		return Run(testCommands, args, stdin, stdout, stderr)
	}, stdin, args...)
}

// testCommands are the commands that need no page: those runCmd runs.
var testCommands = []Command{{"estimate", "", Estimate}, {"sweep", "", Sweep}, {"plot", "", Plot}, {"replay", "", Replay}, {"map", "", Map}}

// writeTestFile writes data as the file name in dir and returns its path.
func writeTestFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeDefaultConfig writes the default config as a file and returns its
// path.
func writeDefaultConfig(t *testing.T) string {
	t.Helper()
	return writeTestFile(t, t.TempDir(), "config.json", estimator.MarshalConfig(estimator.Default()))
}

// chartTestdata holds the golden chart the plot command must write.
const chartTestdata = "../chart/testdata"

// checkGolden compares got with the chart package's golden file name
// (go test ./app/chart -run Golden -update refreshes it).
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	want, err := os.ReadFile(filepath.Join(chartTestdata, name))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the plot command's output differs from %s (go test ./app/chart -run Golden -update refreshes it)", name)
	}
}

// TestPlotGoldenSVG renders the golden chart through the command line: the
// same config read from a file or from stdin, written to stdout or to a
// file, gives the same bytes as chart.SVG.
func TestPlotGoldenSVG(t *testing.T) {
	cfg := writeDefaultConfig(t)
	args := []string{"plot", "-axis", "rows", "-from", "1", "-to", "1000000", "-points", "128"}

	code, stdout, stderr := runCmd(t, "", append(args, "-config", cfg, "-o", "-")...)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	checkGolden(t, "chart_rows.golden.svg", []byte(stdout))

	out := filepath.Join(t.TempDir(), "chart.SVG")
	code, stdout, stderr = runCmd(t, string(estimator.MarshalConfig(estimator.Default())),
		append(args, "-config", "-", "-o", out)...)
	if code != 0 || stderr != "" || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "chart_rows.golden.svg", got)
}

func TestPlotPNG(t *testing.T) {
	cfg := writeDefaultConfig(t)
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		size []string
		w, h int
	}{{"default size", nil, 1600, 900}, {"640x480", []string{"-width", "640", "-height", "480"}, 640, 480}} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, "chart.png")
			args := append([]string{"plot", "-config", cfg, "-from", "1", "-to", "1000000", "-points", "64", "-o", out}, c.size...)
			if code, stdout, stderr := runCmd(t, "", args...); code != 0 || stdout != "" || stderr != "" {
				t.Fatalf("%v: exit %d, stdout %q, stderr %q", c.size, code, stdout, stderr)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			// The chart package checks the picture; here, the file and its size.
			img, format, err := image.DecodeConfig(bytes.NewReader(data))
			if err != nil || format != "png" || img.Width != c.w || img.Height != c.h {
				t.Errorf("%v: got a %q of %dx%d (%v), want a png of %dx%d", c.size, format, img.Width, img.Height, err, c.w, c.h)
			}
		})
	}
}

// TestPlotErrors checks that bad input exits 2 with one line on stderr
// naming what is wrong, writes nothing to stdout and creates no file.
func TestPlotErrors(t *testing.T) {
	cfg := writeDefaultConfig(t)
	dir := t.TempDir()
	bad := writeTestFile(t, dir, "bad.json", []byte(`{"request": {"rows": 0}}`))
	out := filepath.Join(dir, "chart.svg")
	cases := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"bad config file", "", []string{"-config", bad, "-to", "10", "-o", out}, "request.rows"},
		{"bad config on stdin", `{"budget": {"safety_percent": 5}}`, []string{"-config", "-", "-to", "10", "-o", "-"}, "budget.safety_percent"},
		{"unknown key", `{"request": {"rowz": 5}}`, []string{"-config", "-", "-to", "10", "-o", "-"}, "rowz"},
		{"no config", "", []string{"-to", "10", "-o", out}, "-config"},
		{"missing file", "", []string{"-config", filepath.Join(dir, "none.json"), "-to", "10", "-o", out}, "-config"},
		{"bad axis", "", []string{"-config", cfg, "-axis", "colour", "-to", "10", "-o", out}, "axis"},
		{"no range", "", []string{"-config", cfg, "-o", out}, "to"},
		{"too many points", "", []string{"-config", cfg, "-to", "10", "-points", "1", "-o", out}, "points"},
		{"no output", "", []string{"-config", cfg, "-to", "10"}, "-o"},
		{"bad extension", "", []string{"-config", cfg, "-to", "10", "-o", filepath.Join(dir, "chart.jpg")}, ".svg or .png"},
		{"bad size", "", []string{"-config", cfg, "-to", "10", "-width", "0", "-o", out}, "-width"},
		{"extra argument", "", []string{"-config", cfg, "-to", "10", "-o", out, "more"}, "more"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, c.stdin, append([]string{"plot"}, c.args...)...)
			if code != 2 {
				t.Errorf("%s: exit %d, want 2", c.name, code)
			}
			if stdout != "" {
				t.Errorf("%s: stdout %q, want nothing", c.name, stdout)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
				t.Errorf("%s: stderr %q, want one line naming %q", c.name, stderr, c.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Fatalf("%s: wrote %s", c.name, out)
			}
		})
	}
}

// TestPlotCaption: -title and -caption put a title line and a caption in
// the SVG; without them the drawing is the golden one (TestPlotGoldenSVG).
func TestPlotCaption(t *testing.T) {
	cfg := writeDefaultConfig(t)
	code, out, errOut := runCmd(t, "", "plot", "-config", cfg, "-axis", "rows", "-from", "1", "-to", "1000000",
		"-o", "-", "-title", "Qwen3-Next on H200", "-caption", "preset Qwen3-Next-80B-A3B · GPU H200 · 2026-12-01")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{">Qwen3-Next on H200<", "preset Qwen3-Next-80B-A3B · GPU H200 · 2026-12-01"} {
		if !strings.Contains(out, want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
}
