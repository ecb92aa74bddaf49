//go:build !wasm

package main

import (
	"bytes"
	"strings"
	"testing"

	"headroom/app/cli"
)

// TestEveryCommandRefusesStrayArguments: every command of the binary,
// serve and static included, refuses an argument that is not a flag with
// one line and status 2, before it reads, listens or writes anything
// (estimate, sweep and static ignored them).
func TestEveryCommandRefusesStrayArguments(t *testing.T) {
	for _, c := range commands() {
		t.Run(c.Name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := []string{c.Name, "-" + firstFlag(c.Name), "x", "extra"}
			code := cli.Run(commands(), args, strings.NewReader("{}"), &stdout, &stderr)
			if code != 2 || !strings.Contains(stderr.String(), `unexpected argument "extra"`) || strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout.String(), stderr.String())
			}
		})
	}
}

// firstFlag is a flag each command takes with a value.
func firstFlag(cmd string) string {
	switch cmd {
	case "serve":
		return "addr"
	case "static":
		return "o"
	}
	return "config"
}
