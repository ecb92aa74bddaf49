package cli

import (
	"bytes"
	"encoding/json"
	"image"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"headroom/estimator"
)

// pressureConfig is the config examples/pressure.json holds.
func pressureConfig(t *testing.T) estimator.Config {
	t.Helper()
	data, err := os.ReadFile(examplePath("pressure.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := estimator.DecodeConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The golden map's axes: the chart package's golden map, which the
// command must draw byte for byte.
var (
	goldenMapX = estimator.MapAxis{Axis: "rows", From: 1, To: 600_000}
	goldenMapY = estimator.MapAxis{Axis: "in_use_bytes", From: 0, To: 120_000_000_000}
)

// goldenMapArgs are the map command's flags for the golden map.
var goldenMapArgs = []string{"-x", "rows", "-xfrom", "1", "-xto", "600000", "-y", "in_use_bytes", "-yfrom", "0", "-yto", "120000000000"}

// TestMapJSON: without -o the command prints Map's result, in the shape
// of docs/model.md §10: x and y as {axis, from, to}, then columns of {x,
// baseline, candidate}, each revision {start, flips}.
func TestMapJSON(t *testing.T) {
	cfg := examplePath("pressure.json")
	code, stdout, stderr := runCmd(t, "", append([]string{"map", "-config", cfg, "-columns", "16"}, goldenMapArgs...)...)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var got estimator.MapResult
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	want, err := estimator.Map(pressureConfig(t), goldenMapX, goldenMapY, 16)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("printed map differs from estimator.Map:\n%s", stdout)
	}

	var shape struct{ X, Y map[string]any }
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &top); err != nil {
		t.Fatal(err)
	}
	if keys := sortedKeysOf(top); !reflect.DeepEqual(keys, []string{"columns", "x", "y"}) {
		t.Fatalf("top-level keys %v", keys)
	}
	if err := json.Unmarshal([]byte(stdout), &shape); err != nil {
		t.Fatal(err)
	}
	for _, axis := range []map[string]any{shape.X, shape.Y} {
		if keys := sortedKeysOf(axis); !reflect.DeepEqual(keys, []string{"axis", "from", "to"}) {
			t.Fatalf("axis keys %v", keys)
		}
	}
	var cols []map[string]json.RawMessage
	if err := json.Unmarshal(top["columns"], &cols); err != nil {
		t.Fatal(err)
	}
	if len(cols) != 16 {
		t.Fatalf("%d columns, want 16", len(cols))
	}
	for _, col := range cols {
		if keys := sortedKeysOf(col); !reflect.DeepEqual(keys, []string{"baseline", "candidate", "x"}) {
			t.Fatalf("column keys %v", keys)
		}
		for _, rev := range []string{"baseline", "candidate"} {
			var r map[string]json.RawMessage
			if err := json.Unmarshal(col[rev], &r); err != nil {
				t.Fatal(err)
			}
			if keys := sortedKeysOf(r); !reflect.DeepEqual(keys, []string{"flips", "start"}) {
				t.Fatalf("revision keys %v", keys)
			}
			if string(r["flips"]) == "null" {
				t.Fatal("flips is null, want a list")
			}
		}
	}
}

func sortedKeysOf[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// TestMapGoldenSVGCommand: -o - and -o FILE.svg write the golden map,
// with the config from a file or from standard input.
func TestMapGoldenSVGCommand(t *testing.T) {
	cfg := examplePath("pressure.json")
	code, stdout, stderr := runCmd(t, "", append([]string{"map", "-config", cfg, "-o", "-"}, goldenMapArgs...)...)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	checkGolden(t, "map_rows_in_use.golden.svg", []byte(stdout))

	out := filepath.Join(t.TempDir(), "map.svg")
	code, stdout, stderr = runCmd(t, string(estimator.MarshalConfig(pressureConfig(t))),
		append([]string{"map", "-config", "-", "-o", out}, goldenMapArgs...)...)
	if code != 0 || stderr != "" || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "map_rows_in_use.golden.svg", got)
}

func TestMapPNGCommand(t *testing.T) {
	cfg := examplePath("pressure.json")
	dir := t.TempDir()
	for _, c := range []struct {
		size []string
		w, h int
	}{{nil, 1600, 900}, {[]string{"-width", "640", "-height", "480"}, 640, 480}} {
		out := filepath.Join(dir, "map.PNG")
		args := append(append([]string{"map", "-config", cfg, "-columns", "32", "-o", out}, goldenMapArgs...), c.size...)
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
	}
}

// TestMapCommandErrors: bad input exits 2 with one line on stderr naming
// what is wrong, prints nothing and creates no file.
func TestMapCommandErrors(t *testing.T) {
	cfg := examplePath("pressure.json")
	dir := t.TempDir()
	bad := writeTestFile(t, dir, "bad.json", []byte(`{"request": {"rows": 0}}`))
	out := filepath.Join(dir, "map.svg")
	xy := func(x, xfrom, xto, y, yfrom, yto string) []string {
		return []string{"-x", x, "-xfrom", xfrom, "-xto", xto, "-y", y, "-yfrom", yfrom, "-yto", yto}
	}
	good := xy("rows", "1", "1000", "vocab_size", "1", "1000")
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"no config", "", good, "-config"},
		{"bad config", "", append([]string{"-config", bad}, good...), "request.rows"},
		{"bad config on stdin", `{"budget": {"safety_percent": 5}}`, append([]string{"-config", "-"}, good...), "budget.safety_percent"},
		{"same axis", "", append([]string{"-config", cfg}, xy("rows", "1", "10", "rows", "1", "10")...), "y.axis: must differ from x.axis"},
		{"no x axis", "", []string{"-config", cfg, "-xto", "10", "-y", "rows", "-yto", "10"}, "-x: is required (axis across"},
		{"unknown y axis", "", append([]string{"-config", cfg}, xy("rows", "1", "10", "colour", "1", "10")...), "y.axis: must be one of"},
		{"no x range", "", []string{"-config", cfg, "-x", "rows", "-y", "vocab_size", "-yto", "10"}, "-xto: is required (last x)"},
		{"empty y range", "", append([]string{"-config", cfg}, xy("rows", "1", "10", "vocab_size", "10", "9")...), "y.to: must be at least from (10)"},
		{"negative x", "", append([]string{"-config", cfg}, xy("rows", "-5", "10", "vocab_size", "1", "9")...), "x.from: must be in 0.."},
		{"one column", "", append([]string{"-config", cfg, "-columns", "1"}, good...), "columns: must be in 2..1,024"},
		{"too many columns", "", append([]string{"-config", cfg, "-columns", "1025"}, good...), "columns: must be in 2..1,024"},
		{"every point invalid", "", append([]string{"-config", cfg}, xy("rows", "0", "0", "vocab_size", "1", "9")...), "map: every point is invalid"},
		{"bad extension", "", append([]string{"-config", cfg, "-o", filepath.Join(dir, "map.jpg")}, good...), ".svg or .png"},
		{"bad size", "", append([]string{"-config", cfg, "-o", out, "-width", "0"}, good...), "-width"},
		{"extra argument", "", append(append([]string{"-config", cfg, "-o", out}, good...), "more"), "more"},
		{"bad flag", "", append([]string{"-config", cfg, "-colour", "red"}, good...), "-colour"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, tc.stdin, append([]string{"map"}, tc.args...)...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if !strings.Contains(stderr, tc.want) || (tc.name != "bad flag" && strings.Count(stderr, "\n") != 1) {
				t.Errorf("stderr %q, want one line naming %q", stderr, tc.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Fatalf("wrote %s", out)
			}
		})
	}
}

// TestMapCommandWriteFailure: a file that cannot be written exits 1.
func TestMapCommandWriteFailure(t *testing.T) {
	cfg := examplePath("pressure.json")
	out := filepath.Join(t.TempDir(), "missing", "map.svg")
	code, _, stderr := runCmd(t, "", append([]string{"map", "-config", cfg, "-columns", "4", "-o", out}, goldenMapArgs...)...)
	if code != 1 || !strings.Contains(stderr, "headroom map:") {
		t.Fatalf("exit %d, stderr %q; want 1 and the error", code, stderr)
	}
}

// TestMapBaseline: the map command takes a config with a baseline of its
// own (examples/h100-vs-h200.json) and moves x in both setups: with no
// memory in use, each revision's column along rows flips where its sweep
// does (estimator.Sweep's first split of each); with -o it draws the
// map.
func TestMapBaseline(t *testing.T) {
	cfg := examplePath("h100-vs-h200.json")
	args := []string{"map", "-config", cfg, "-x", "in_use_bytes", "-xfrom", "0", "-xto", "40000000000", "-columns", "3",
		"-y", "rows", "-yfrom", "1", "-yto", "900000"}
	code, stdout, stderr := runCmd(t, "", args...)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var got estimator.MapResult
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Columns) != 3 || got.Columns[0].X != 0 {
		t.Fatalf("columns %+v", got.Columns)
	}
	sweep, err := estimator.Sweep(exampleConfig(t, "h100-vs-h200.json"), "rows", 1, 900000, estimator.DefaultPoints)
	if err != nil || len(sweep.Baseline.Flips) == 0 || len(sweep.Candidate.Flips) == 0 {
		t.Fatalf("estimator.Sweep: %+v, %v", sweep, err)
	}
	col := got.Columns[0]
	for rev, want := range []int64{sweep.Baseline.Flips[0].First, sweep.Candidate.Flips[0].First} {
		flips := col.Rev(estimator.Revision(rev)).Flips
		if col.Rev(estimator.Revision(rev)).Start != estimator.Admit || len(flips) == 0 || flips[0].First != want || flips[0].ToDecision != estimator.Split {
			t.Errorf("revision %d at in_use 0: start %v, flips %+v; want admit, then split from %d", rev, col.Rev(estimator.Revision(rev)).Start, flips, want)
		}
	}
	out := filepath.Join(t.TempDir(), "map.svg")
	if code, _, stderr := runCmd(t, "", append(args, "-o", out)...); code != 0 || stderr != "" {
		t.Fatalf("-o: exit %d, stderr %q", code, stderr)
	}
	if data, err := os.ReadFile(out); err != nil || !strings.Contains(string(data), "<svg") {
		t.Fatalf("-o wrote %d bytes, %v", len(data), err)
	}
}
