package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestCommandsRefuseBadInput: bad input to the commands, one row each:
// every command refuses a stray argument,
// a config's BOM is skipped, a key's control characters never reach the
// terminal, and a required flag left out is named as such.
func TestCommandsRefuseBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string { return writeTestFile(t, dir, name, []byte(text)) }
	cfg := write("config.json", "{}")
	bom := write("bom.json", "\ufeff{\"request\": {\"rows\": 1000}}")
	work := write("work.csv", "id,rows\na,1000\n")
	ctl := write("ctl.json", `{"\u001b]0;PWNED\u0007\u001b[31mred":1}`)
	png := filepath.Join(dir, "chart.svg")
	for _, c := range []struct {
		name  string
		args  []string
		code  int
		want  string // in stderr, or stdout when code is 0
		never string // in neither
	}{
		// Stray positional arguments.
		{"estimate stray", []string{"estimate", "-config", cfg, "extra"}, 2, `unexpected argument "extra"`, ""},
		{"sweep stray", []string{"sweep", "-config", cfg, "-to", "9", "-", "axis", "vocab_size"}, 2, `unexpected argument "-"`, ""},
		{"plot stray", []string{"plot", "-config", cfg, "-to", "9", "-o", png, "x"}, 2, `unexpected argument "x"`, ""},
		{"map stray", []string{"map", "-config", cfg, "-x", "rows", "-xto", "9", "-y", "vocab_size", "-yto", "9", "x"}, 2, `unexpected argument "x"`, ""},
		{"replay stray", []string{"replay", "-config", cfg, "-workload", work, "x"}, 2, `unexpected argument "x"`, ""},
		// A byte order mark.
		{"estimate BOM", []string{"estimate", "-config", bom, "-format", "text"}, 0, "Estimate of 1,000 rows", ""},
		{"replay BOM", []string{"replay", "-config", bom, "-workload", work}, 0, `"requests": 1`, ""},
		// A key's control characters, quoted.
		{"control key", []string{"estimate", "-config", ctl}, 2, `config key "\x1b]0;PWNED\a\x1b[31mred": is not a field`, "\x1b"},
		// A required flag left out, but sweep's -to: the page's range.
		{"sweep without -to: the page's range", []string{"sweep", "-config", cfg, "-axis", "rows"}, 0, `"candidate"`, "must be at least"},
		{"plot without -to", []string{"plot", "-config", cfg, "-o", png}, 2, "-to: is required", "must be at least"},
		{"map without -yto", []string{"map", "-config", cfg, "-x", "rows", "-xto", "9", "-y", "vocab_size"}, 2, "-yto: is required", ""},
		{"estimate md", []string{"estimate", "-config", cfg, "-format", "md"}, 0, "| required | ", ""},
		{"estimate bad format", []string{"estimate", "-config", cfg, "-format", "yaml"}, 2, "-format: must be json, text or md", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, "", c.args...)
			where := stderr
			if c.code == 0 {
				where = stdout
			}
			if code != c.code || !strings.Contains(where, c.want) {
				t.Errorf("exit %d, stdout %.300q, stderr %q; want %d and %q", code, stdout, stderr, c.code, c.want)
			}
			if c.code != 0 && strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr is not one line: %q", stderr)
			}
			if c.never != "" && strings.Contains(stdout+stderr, c.never) {
				t.Errorf("output holds %q: %q", c.never, stdout+stderr)
			}
		})
	}
	if _, err := os.Stat(png); err == nil {
		t.Errorf("a refused plot wrote %s", png)
	}
}

// firstRead closes started at the first Read, then blocks on r.
type firstRead struct {
	r       io.Reader
	once    sync.Once
	started chan struct{}
}

func (f *firstRead) Read(p []byte) (int, error) {
	f.once.Do(func() { close(f.started) })
	return f.r.Read(p)
}

// TestReplayRemovesTempOnSignal: a replay interrupted while it reads the
// workload (SIGINT, SIGTERM) removes its .headroom-replay-* file and
// exits 128 + the signal.
func TestReplayRemovesTempOnSignal(t *testing.T) {
	cfg := writeDefaultConfig(t)
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			pr, pw := io.Pipe()
			in := &firstRead{r: pr, started: make(chan struct{})}
			exited := make(chan int, 1)
			exitOnSignal = func(code int) {
				exited <- code
				pw.CloseWithError(io.ErrUnexpectedEOF) // as the process would end: the replay stops
			}
			defer func() { exitOnSignal = os.Exit }()
			done := make(chan struct{})
			var stderr strings.Builder
			go func() {
				defer close(done)
				Replay([]string{"-config", cfg, "-workload", "-", "-o", filepath.Join(dir, "out.md"), "-format", "md"}, in, io.Discard, &stderr)
			}()
			pw.Write([]byte("id,rows\na,1000\n"))
			<-in.started
			if m, _ := filepath.Glob(filepath.Join(dir, ".headroom-replay-*")); len(m) != 1 {
				t.Fatalf("temporary files before the signal: %v, want one", m)
			}
			if err := syscall.Kill(os.Getpid(), c.sig); err != nil {
				t.Fatal(err)
			}
			select {
			case code := <-exited:
				if code != c.code {
					t.Errorf("exit %d, want %d", code, c.code)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the signal did not stop the replay")
			}
			<-done
			if m, _ := filepath.Glob(filepath.Join(dir, "*")); len(m) != 0 {
				t.Errorf("left behind: %v", m)
			}
			m, _ := filepath.Glob(filepath.Join(dir, ".*"))
			if len(m) != 0 {
				t.Errorf("left behind: %v", m)
			}
		})
	}
}

// TestEstimateGoldenFormats: estimate's text and Markdown of the FC2
// seed's pressure run, byte for byte (go test ./app/cli -run Golden
// -update refreshes them).
func TestEstimateGoldenFormats(t *testing.T) {
	for _, f := range []string{"text", "md"} {
		code, out, errOut := runCmd(t, "", "estimate", "-config", examplePath("pressure.json"), "-format", f)
		if code != 0 || errOut != "" {
			t.Fatalf("-format %s: exit %d, stderr %q", f, code, errOut)
		}
		ext := map[string]string{"text": "txt", "md": "md"}[f]
		checkOwnGolden(t, "estimate_pressure.golden."+ext, []byte(out))
	}
}
