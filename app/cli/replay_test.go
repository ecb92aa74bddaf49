package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"headroom/estimator"
)

// examplePath is a file of examples/, from app/cli.
func examplePath(name string) string { return filepath.Join("..", "..", "examples", name) }

var update = flag.Bool("update", false, "rewrite this package's golden files under testdata/")

// checkOwnGolden compares got with this package's golden file
// testdata/name, or rewrites it with -update. (The chart goldens the plot
// command must match are the chart package's: checkGolden.)
func checkOwnGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want := mustRead(t, path); !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test ./app/cli -run Golden -update refreshes it):\ngot:\n%s", path, got)
	}
}

// TestReplayGoldenMarkdown: the README's report, examples/workload.csv
// under examples/pressure.json, exits 1 (some requests change).
func TestReplayGoldenMarkdown(t *testing.T) {
	code, out, errOut := runCmd(t, "", "replay", "-config", examplePath("pressure.json"),
		"-workload", examplePath("workload.csv"), "-format", "md")
	if code != 1 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	checkOwnGolden(t, "replay_workload.golden.md", []byte(out))
}

// TestReplayExitStatus: 0 when nothing changes, 1 when a decision or the
// number of children does, 2 when the replay cannot say.
func TestReplayExitStatus(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string { return writeTestFile(t, dir, name, []byte(text)) }
	pressure := examplePath("pressure.json")
	for _, tc := range []struct {
		name     string
		stdin    string
		args     []string
		code     int
		stderr   string // substring of the one line on stderr (exit 2)
		stdoutIn string // substring of stdout (exit 0 and 1)
	}{
		{"nothing changes", "", []string{"-config", pressure, "-workload", write("same.csv", "rows\n1000\n64902\n")}, 0, "", `"changed_requests": 0`},
		{"a decision changes", "", []string{"-config", pressure, "-workload", write("admit-split.csv", "rows\n230000\n")}, 1, "", `"changed_requests": 1`},
		{"only children change", "", []string{"-config", pressure, "-workload", write("children.jsonl", "{\"rows\": 276179}\n")}, 1, "", `"children_changed_requests": 1`},
		{"workload from stdin", "rows\n230000\n", []string{"-config", pressure, "-workload", "-", "-format", "csv"}, 1, "", "2,,230000,1,admit,split,1,2"},
		{"bad cell", "", []string{"-config", pressure, "-workload", write("bad.csv", "rows,count\n100,1\n100,0\n")}, 2, "headroom replay: -workload: line 3: count: must be an integer in 1..2,147,483,647, got 0", ""},
		{"in use above capacity", "", []string{"-config", pressure, "-workload", write("inuse.csv", "rows,in_use_bytes\n100,150754820097\n")}, 2, "line 2: budget.in_use_bytes:", ""},
		{"missing rows column", "", []string{"-config", pressure, "-workload", write("norows.csv", "count\n1\n")}, 2, "line 1: header: has no rows column", ""},
		{"empty workload", "", []string{"-config", pressure, "-workload", write("empty.csv", "")}, 2, "workload: is empty", ""},
		{"bad config", `{"request": {"rows": 0}}`, []string{"-config", "-", "-workload", write("ok.csv", "rows\n5\n")}, 2, "request.rows", ""},
		{"no workload", "", []string{"-config", pressure}, 2, "-workload: is required", ""},
		{"missing file", "", []string{"-config", pressure, "-workload", filepath.Join(dir, "nope.csv")}, 2, "-workload: open", ""},
		{"both stdin", "", []string{"-config", "-", "-workload", "-"}, 2, "cannot both be standard input", ""},
		{"bad format", "", []string{"-config", pressure, "-workload", write("f.csv", "rows\n5\n"), "-format", "html"}, 2, "-format: must be json, md or csv", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, tc.stdin, append([]string{"replay"}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tc.code, errOut)
			}
			if tc.code == 2 {
				if out != "" || !strings.Contains(errOut, tc.stderr) || strings.Count(errOut, "\n") != 1 {
					t.Fatalf("stdout %q, stderr %q: want nothing, and one line with %q", out, errOut, tc.stderr)
				}
				return
			}
			if errOut != "" || !strings.Contains(out, tc.stdoutIn) {
				t.Fatalf("stderr %q; stdout lacks %q:\n%s", errOut, tc.stdoutIn, out)
			}
		})
	}
}

// TestReplayFormats: the JSON is estimator.Replay's result; the CSV has a
// row per line that agrees with it; -o writes the file, and a bad
// workload leaves no file behind.
func TestReplayFormats(t *testing.T) {
	cfg, err := estimator.DecodeConfig(mustRead(t, examplePath("pressure.json")))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(examplePath("workload.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, err := estimator.Replay(cfg, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	args := []string{"replay", "-config", examplePath("pressure.json"), "-workload", examplePath("workload.csv")}

	t.Run("json", func(t *testing.T) {
		out := filepath.Join(dir, "r.json")
		if code, _, errOut := runCmd(t, "", append(args, "-o", out)...); code != 1 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var got estimator.ReplayResult
		if err := json.Unmarshal(mustRead(t, out), &got); err != nil {
			t.Fatal(err)
		}
		want := want
		want.ChangedLines, want.ChildrenChangedRows = 0, 0 // not in the JSON
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %+v\nwant %+v", got, want)
		}
		if !reflect.DeepEqual(got.Ignored, []string{"tenant"}) {
			t.Errorf("ignored %q, want [tenant]", got.Ignored)
		}
	})
	t.Run("csv", func(t *testing.T) {
		code, out, errOut := runCmd(t, "", append(args, "-format", "csv")...)
		if code != 1 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(recs[0], ",") != "line,id,rows,count,baseline,candidate,baseline_children,candidate_children" {
			t.Fatalf("header %q", recs[0])
		}
		if int64(len(recs)-1) != want.Lines {
			t.Fatalf("%d rows for %d lines", len(recs)-1, want.Lines)
		}
		var changed []estimator.ReplayLine
		var requests int64
		for _, r := range recs[1:] {
			l := estimator.ReplayLine{ID: r[1]}
			l.Line, _ = strconv.ParseInt(r[0], 10, 64)
			l.Rows, _ = strconv.ParseInt(r[2], 10, 64)
			l.Count, _ = strconv.ParseInt(r[3], 10, 64)
			if err := l.Baseline.UnmarshalText([]byte(r[4])); err != nil {
				t.Fatal(err)
			}
			if err := l.Candidate.UnmarshalText([]byte(r[5])); err != nil {
				t.Fatal(err)
			}
			l.BaselineChildren, _ = strconv.ParseInt(r[6], 10, 64)
			l.CandidateChildren, _ = strconv.ParseInt(r[7], 10, 64)
			requests += l.Count
			if l.Changed() {
				changed = append(changed, l)
			}
		}
		if requests != want.Requests || !reflect.DeepEqual(changed, want.Changed) {
			t.Fatalf("the CSV's %d requests and %d changed lines disagree with the JSON's %d and %d",
				requests, len(changed), want.Requests, len(want.Changed))
		}
	})
	t.Run("no output from a bad workload", func(t *testing.T) {
		bad := writeTestFile(t, dir, "bad.csv", []byte("rows\n100\n100\nx\n"))
		out := filepath.Join(dir, "bad-out.csv")
		code, stdout, errOut := runCmd(t, "", "replay", "-config", examplePath("pressure.json"), "-workload", bad, "-format", "csv", "-o", out)
		if code != 2 || stdout != "" || !strings.Contains(errOut, "line 4: request.rows") {
			t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errOut)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Fatalf("%s exists after a failed replay (%v)", out, err)
		}
		left, _ := filepath.Glob(filepath.Join(dir, ".headroom-replay-*"))
		if len(left) > 0 {
			t.Fatalf("temporary files left: %v", left)
		}
	})
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReplayReadmeReport: the README quotes the golden report as it is.
func TestReplayReadmeReport(t *testing.T) {
	golden := strings.TrimRight(string(mustRead(t, filepath.Join("testdata", "replay_workload.golden.md"))), "\n")
	var quoted []string
	for _, l := range strings.Split(golden, "\n") {
		if l == "" {
			quoted = append(quoted, ">")
		} else {
			quoted = append(quoted, "> "+l)
		}
	}
	if !strings.Contains(string(mustRead(t, filepath.Join("..", "..", "README.md"))), strings.Join(quoted, "\n")) {
		t.Fatal("README.md does not quote testdata/replay_workload.golden.md under \"Replay a workload\"")
	}
}
