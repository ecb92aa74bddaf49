package cli

import (
	"headroom/estimator"
	"strings"
	"testing"
)

// artTermsConfig is a config under ART's code with a term at three kinds
// of place: a part inside the checkpoint's maximum, a replaced part, and
// a stage of its own that both revisions hold.
const artTermsConfig = `{"profile": "art", "request": {"rows": 200000}, "budget": {"in_use_bytes": 68451041280},
 "terms": [
  {"name": "row_state", "place": "head", "bytes": "256 * n"},
  {"name": "one_gradient", "place": "input_gradient", "mode": "replace", "bytes": "min(B, 2 * n * H)"},
  {"name": "routing_state", "place": "stage", "revision": "both", "bytes": "n * 128"}
 ],
 "observed": [{"rows": 20000, "peak_bytes": 80000000000, "label": "a"}, {"rows": 40000, "peak_bytes": 90000000000, "label": "b"}]}`

// TestArtTermsEveryCommand: every command that prices terms under the
// seeds prices them under art: estimate in its three formats (with the
// observed peaks' fit), a sweep along every axis, a map, a replay, and a
// compare whose baseline is the seeds' reading.
func TestArtTermsEveryCommand(t *testing.T) {
	dir := t.TempDir()
	cfg := writeTestFile(t, dir, "art.json", []byte(artTermsConfig))
	compare := writeTestFile(t, dir, "compare.json", []byte(strings.Replace(artTermsConfig, `"profile": "art",`,
		`"profile": "art", "baseline": {"overrides": {"profile": "seeds"}},`, 1)))
	work := writeTestFile(t, dir, "work.csv", []byte("id,rows\na,1000\nb,90000\nc,200000\nd,400000\n"))
	check := func(want string, code int, args ...string) string {
		t.Helper()
		got, stdout, stderr := runCmd(t, "", args...)
		if got != code || !strings.Contains(stdout, want) {
			t.Errorf("%v: exit %d (want %d), stderr %q; stdout lacks %q:\n%.600s", args, got, code, stderr, want, stdout)
		}
		return stdout
	}
	check(`"name": "row_state"`, 0, "estimate", "-config", cfg)
	check(`"name": "one_gradient"`, 0, "estimate", "-config", cfg)
	check(`"fit"`, 0, "estimate", "-config", cfg)
	check("stage moe (largest child)", 0, "estimate", "-config", cfg, "-format", "text")
	check("| stage routing_state (largest child) |", 0, "estimate", "-config", cfg, "-format", "md")
	for _, axis := range estimator.Axes() {
		check(`"axis": "`+axis+`"`, 0, "sweep", "-config", cfg, "-axis", axis, "-from", "1", "-to", "300000", "-points", "16")
	}
	check(`"columns"`, 0, "map", "-config", cfg, "-x", "rows", "-xfrom", "1000", "-xto", "300000", "-y", "capacity_bytes", "-yfrom", "80000000000", "-yto", "300000000000", "-columns", "8")
	check(`"requests": 4`, 0, "replay", "-config", cfg, "-workload", work)
	check(`"name": "routing_state"`, 0, "estimate", "-config", compare)
}

// TestArtTermsBadInput: a term under art that art cannot price exits 2
// with one line naming the term and its place.
func TestArtTermsBadInput(t *testing.T) {
	dir := t.TempDir()
	// A sweep reports a point where a term fails as invalid, with the same
	// message (docs/model.md §5); a term that fails everywhere stops it.
	for _, c := range []struct {
		term, want string
		sweep      bool
	}{
		{`{"name": "x", "place": "fc2", "bytes": "n"}`, `terms[0] (x): place "fc2": profile art has no such part of its price`, true},
		{`{"name": "x", "place": "moe", "bytes": "n * R"}`, `terms[0] (x): place moe: unknown variable "R"`, true},
		{`{"name": "x", "place": "workspace", "bytes": "n * n * n * n * n"}`, `terms[0] (x): place workspace: bytes overflows int64`, false},
		{`{"name": "x", "place": "backward", "bytes": "n - 2 * N"}`, `terms[0] (x): place backward: bytes is negative`, false},
	} {
		cfg := writeTestFile(t, dir, "bad.json", []byte(`{"profile": "art", "terms": [`+c.term+`]}`))
		cmds := [][]string{{"estimate"}, {"estimate", "-format", "md"}}
		if c.sweep {
			cmds = append(cmds, []string{"sweep", "-to", "100000"})
		}
		for _, args := range cmds {
			code, _, stderr := runCmd(t, "", append(args, "-config", cfg)...)
			if code != 2 || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("%s %v: exit %d, stderr %q; want 2 and %q", c.term, args, code, stderr, c.want)
			}
		}
	}
}
