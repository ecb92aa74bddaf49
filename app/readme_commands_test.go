//go:build !wasm

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"headroom/app/cli"
)

// cliEnv, set in a child's environment, makes the test binary run as
// bin/headroom: the README's commands run against this build, through a
// real shell (globs, pipes, line continuations), without a second build.
const cliEnv = "HEADROOM_TEST_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(cliEnv) == "1" {
		registerRoutes()
		os.Exit(cli.Run(commands(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// readmeCommand is one command of a shell block of README.md.
type readmeCommand struct {
	line   int    // where it starts in README.md
	text   string // as printed, continuation lines joined
	stderr string // the "# headroom ..." lines printed under it: a refusal it shows
}

// readmeCommands returns the commands of README.md's ```sh blocks that
// run bin/headroom, and the other lines (build and hosting steps).
func readmeCommands(t *testing.T, readme string) (cmds []readmeCommand, other []string) {
	t.Helper()
	inSh := false
	lines := strings.Split(readme, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "```") {
			inSh = !inSh && strings.TrimSpace(l) == "```sh"
			continue
		}
		if !inSh || strings.TrimSpace(l) == "" {
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			if n := len(cmds); n > 0 && strings.HasPrefix(l, "# headroom ") || n > 0 && cmds[n-1].stderr != "" {
				if n > 0 && cmds[n-1].line == lastCommandLine(lines, i) {
					cmds[n-1].stderr += " " + strings.TrimPrefix(l, "# ")
				}
			}
			continue
		}
		start := i
		text := l
		for strings.HasSuffix(text, `\`) && i+1 < len(lines) {
			i++
			text = strings.TrimSuffix(text, `\`) + " " + strings.TrimSpace(lines[i])
		}
		if !strings.Contains(text, "bin/headroom ") {
			other = append(other, text)
			continue
		}
		cmds = append(cmds, readmeCommand{line: start + 1, text: text})
	}
	for i := range cmds {
		cmds[i].stderr = strings.TrimSpace(cmds[i].stderr)
	}
	return cmds, other
}

// lastCommandLine is the README line (1-based) of the command the
// comment at index i follows, comments in between skipped.
func lastCommandLine(lines []string, i int) int {
	for j := i - 1; j >= 0; j-- {
		if !strings.HasPrefix(strings.TrimSpace(lines[j]), "#") {
			return j + 1
		}
	}
	return 0
}

// TestREADMECommandsRun runs every bin/headroom command of README.md's
// shell blocks as printed, from a copy of the project's layout (the
// files they name are the repository's; what they write lands in a
// temporary directory), and checks each exits 0 (replay 1 for decisions that differ, as
// the README says), or, for a command the
// README prints a refusal under ("# headroom estimate: ..."), exits 2
// with that message. A person following the README meets what it says.
// The build steps before a command ("make wasm build && ") are the
// test's own: bin/headroom is this build, web/ the repository's.
func TestREADMECommandsRun(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	cmds, other := readmeCommands(t, string(readme))
	if len(cmds) < 15 {
		t.Fatalf("found %d bin/headroom commands in README.md; its shell blocks were not read", len(cmds))
	}
	for _, o := range other {
		// Build, hosting and generator steps (make, mkdir, go run of a
		// tool under internal/tools) are not the command line's.
		if w := strings.Fields(o); w[0] != "make" && w[0] != "mkdir" && !(w[0] == "go" && len(w) > 2 && w[1] == "run" && strings.HasPrefix(w[2], "./internal/tools/")) {
			t.Errorf("README.md line %q is neither a bin/headroom command nor a build, hosting or generator step (make, mkdir, go run ./internal/tools/...): run it here", o)
		}
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(dir, "bin", "headroom")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"go.mod", "examples", "measure", "estimator", "assets", "web"} {
		if err := os.Symlink(filepath.Join(root, name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	_, wasmErr := os.Stat(filepath.Join(root, "web", "app.wasm"))
	for _, c := range cmds {
		text := c.text
		if i := strings.Index(text, "&& bin/headroom"); i >= 0 && strings.HasPrefix(text, "make ") {
			text = text[i+len("&& "):]
		}
		t.Run(strings.Join(strings.Fields(text)[:2], "_"), func(t *testing.T) {
			sh := exec.Command("sh", "-c", text)
			sh.Dir = dir
			sh.Env = append(os.Environ(), cliEnv+"=1")
			var stdout, stderr bytes.Buffer
			sh.Stdout, sh.Stderr = &stdout, &stderr
			err := sh.Run()
			code := sh.ProcessState.ExitCode()
			if err != nil && code < 0 {
				t.Fatalf("README.md:%d %s: %v", c.line, text, err)
			}
			switch {
			case strings.Contains(text, "bin/headroom static") && wasmErr != nil:
				// Without make wasm, static refuses, naming it, as the README's step before it says.
				if code != 2 || !strings.Contains(stderr.String(), "make wasm") {
					t.Errorf("README.md:%d %s without web/app.wasm: exit %d, stderr %q; want 2 naming make wasm", c.line, text, code, stderr.String())
				}
			case c.stderr != "":
				got := strings.Join(strings.Fields(stderr.String()), " ")
				if code != 2 || got != c.stderr {
					t.Errorf("README.md:%d %s: exit %d, stderr\n%s\nwant exit 2 and the README's\n%s", c.line, text, code, got, c.stderr)
				}
			case strings.HasPrefix(text, "bin/headroom replay") && code == 1 && stderr.Len() == 0:
				// replay exits 1 when some decision differs, as diff does (the README says so).
			case code != 0:
				t.Errorf("README.md:%d %s: exit %d, stderr %q", c.line, text, code, stderr.String())
			case stdout.Len() == 0 && !strings.Contains(text, " -o "):
				t.Errorf("README.md:%d %s: exit 0 but printed nothing", c.line, text)
			}
		})
	}
}
