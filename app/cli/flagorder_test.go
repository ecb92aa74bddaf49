package cli

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlagsAmongFiles: flags after -planner-miss's files are read as
// flags, as a person types them after a shell glob: the -config among
// the files changes the points' in_use_bytes, and "-" alone and what
// follows "--" stay files.
func TestFlagsAmongFiles(t *testing.T) {
	reports := filepath.Join(measureData, "reports")
	a, b := filepath.Join(reports, "miss-forward-a.json"), filepath.Join(reports, "miss-forward-b.json")
	code, before, errOut := runMain(Measure, `{"budget": {"in_use_bytes": 1000}}`, "-planner-miss", a, b, "-config", "-", "-format", "md")
	if code != 0 {
		t.Fatalf("measure -planner-miss a b -config - -format md: exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(before, "## ART planner-miss reports") {
		t.Errorf("-format md after the files was not read:\n%s", before)
	}
	_, flagsFirst, _ := runMain(Measure, `{"budget": {"in_use_bytes": 1000}}`, "-config", "-", "-format", "md", "-planner-miss", a, b)
	if before != flagsFirst {
		t.Errorf("flags after the files gave\n%s\nflags first gave\n%s", before, flagsFirst)
	}
	code, _, errOut = runMain(Measure, "", "-planner-miss", a, "--", "-config")
	if code != 2 || !strings.Contains(errOut, "open -config") {
		t.Errorf("after --, -config is a file: exit %d, %q", code, errOut)
	}
}

// TestFlagsAfterAStrayArgumentStillRefused: reading flags anywhere does
// not make a stray argument welcome, wherever it stands.
func TestFlagsAfterAStrayArgumentStillRefused(t *testing.T) {
	for _, args := range [][]string{
		{"extra", "-config", "-"},
		{"-config", "-", "extra", "-format", "text"},
	} {
		code, _, errOut := runMain(Estimate, "{}", args...)
		if code != 2 || !strings.Contains(errOut, `unexpected argument "extra"`) {
			t.Errorf("estimate %v: exit %d, %q", args, code, errOut)
		}
	}
	code, out, errOut := runMain(Estimate, "{}", "-format", "text", "-config", "-")
	if code != 0 || out == "" {
		t.Errorf("estimate -format text -config -: exit %d: %s", code, errOut)
	}
}

// TestDashHExitsZero: "COMMAND -h" lists the flags and exits 0, as
// "help COMMAND" does: it asked for them and got them.
func TestDashHExitsZero(t *testing.T) {
	for name, cmd := range map[string]func([]string, io.Reader, io.Writer, io.Writer) int{
		"estimate": Estimate, "sweep": Sweep, "plot": Plot, "replay": Replay,
		"measure": Measure, "params": Params, "map": Map,
	} {
		code, _, errOut := runMain(cmd, "", "-h")
		if code != 0 || !strings.Contains(errOut, "-config") {
			t.Errorf("%s -h: exit %d, %q", name, code, errOut)
		}
	}
}
