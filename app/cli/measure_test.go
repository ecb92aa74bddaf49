package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var measureData = filepath.Join("..", "..", "measure", "testdata")

const rows4096 = `{"request": {"rows": 4096, "sequence_rows": 4096}}`

func TestMeasureSnapshotJSON(t *testing.T) {
	code, out, errOut := runMain(Measure, rows4096, "-snapshot", filepath.Join(measureData, "snapshots", "head.pickle"), "-config", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res MeasuredSnapshot
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	d := res.Devices[0]
	// 3 GiB of weights, a 1,024-byte block and 7D, D = 155,582,464.
	if d.PeakBytes != 3<<30+1024+7*155_582_464 || d.Estimate == nil || len(d.Observed) != 1 {
		t.Fatalf("device %+v", d)
	}
	if s := d.Estimate.Candidate.Best.Summary; s != "1 x D + 3 x 2D of the head, 4 of 4 priced tensors found" {
		t.Errorf("candidate: %q", s)
	}
	if d.Observed[0].Rows != 4096 || d.Observed[0].PeakBytes != d.PeakBytes {
		t.Errorf("observed %+v", d.Observed)
	}
}

func TestMeasureSnapshotMarkdownToFile(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "report.md")
	code, out, errOut := runMain(Measure, rows4096, "-snapshot", filepath.Join(measureData, "snapshots", "split.pickle"), "-config", "-", "-format", "md", "-o", dst)
	if code != 0 || out != "" {
		t.Fatalf("exit %d, stdout %q: %s", code, out, errOut)
	}
	md, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Measured peak: split.pickle", "| child 0 forward | 1-", "| child 1 forward |", "free_requested", `"label":"cuda:0 child 1 forward"`} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
}

func TestMeasureNoHistory(t *testing.T) {
	code, out, _ := runMain(Measure, "", "-snapshot", filepath.Join(measureData, "snapshots", "nohistory.pickle"), "-format", "md")
	if code != 0 || !strings.Contains(out, "history recording was off") || !strings.Contains(out, "3,222,278,144 bytes") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestMeasurePlannerMiss(t *testing.T) {
	dir := filepath.Join(measureData, "reports")
	code, out, errOut := runMain(Measure, `{"budget": {"in_use_bytes": 1000}}`, "-config", "-", "-planner-miss",
		filepath.Join(dir, "miss-forward-a.json"), filepath.Join(dir, "miss-forward-b.json"), filepath.Join(dir, "miss-split.json"), filepath.Join(dir, "oom.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Comparisons []json.RawMessage `json:"comparisons"`
		Observed    []struct {
			Rows      int64 `json:"rows"`
			PeakBytes int64 `json:"peak_bytes"`
		} `json:"observed"`
		Skipped []json.RawMessage `json:"skipped"`
		Profile map[string]any    `json:"profile_memory"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Comparisons) != 3 || len(res.Observed) != 2 || len(res.Skipped) != 2 || res.Profile["packed_tokens"] != 8192.0 {
		t.Errorf("result %s", out)
	}
	if res.Observed[0].PeakBytes != 22_400_000_000+1000 {
		t.Errorf("observed %+v: in_use_bytes is added", res.Observed)
	}
	code, out, _ = runMain(Measure, "", "-format", "md", "-planner-miss", filepath.Join(dir, "miss-forward-a.json"))
	if code != 0 || !strings.Contains(out, `{"profile_memory":{"bytes_per_token":`) {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestMeasureBadFiles(t *testing.T) {
	global := writeTestFile(t, t.TempDir(), "evil.pickle", []byte("cos\nsystem\n(S'echo hi'\ntR."))
	bad := filepath.Join(measureData, "reports", "bad")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-snapshot", global}, "evil.pickle: pickle: byte 0: opcode GLOBAL"},
		{[]string{"-snapshot", filepath.Join(t.TempDir(), "missing.pickle")}, "-snapshot:"},
		{[]string{"-planner-miss", filepath.Join(measureData, "reports", "miss-forward-a.json"), filepath.Join(bad, "error-pct.json")}, "error-pct.json: report percentage/threshold does not match measurements"},
		{[]string{"-planner-miss", filepath.Join(bad, "noncanonical.json")}, "noncanonical.json: report must be canonical JSON"},
		{[]string{}, "give one of -snapshot FILE or -planner-miss FILE"},
		{[]string{"-snapshot", global, "-planner-miss", global}, "give one of"},
		{[]string{"-snapshot", global, "-format", "csv"}, "-format: must be json or md"},
		{[]string{"-snapshot", global, "extra"}, `unexpected argument "extra"`},
	} {
		code, out, errOut := runMain(Measure, "", c.args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and one line with %q", c.args, code, out, errOut, c.want)
		}
	}
}

func TestHelpListsMeasure(t *testing.T) {
	var out bytes.Buffer
	cmds := []Command{{Name: "estimate", Summary: "e", Run: Estimate}, {Name: "measure", Summary: "measured peaks", Run: Measure}}
	if code := Run(cmds, []string{"help", "measure"}, nil, &out, &out); code != 0 || !strings.Contains(out.String(), "-planner-miss") {
		t.Errorf("help measure: %d %s", code, out.String())
	}
}

// TestMeasureGolden pins the two Markdown reports.
func TestMeasureGolden(t *testing.T) {
	code, out, errOut := runMain(Measure, rows4096, "-snapshot", filepath.Join(measureData, "snapshots", "head.pickle"), "-config", "-", "-format", "md")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	checkOwnGolden(t, "measure_head.golden.md", []byte(out))
	dir := filepath.Join(measureData, "reports")
	code, out, errOut = runMain(Measure, "", "-format", "md", "-planner-miss", filepath.Join(dir, "miss-forward-a.json"),
		filepath.Join(dir, "miss-forward-b.json"), filepath.Join(dir, "miss-split.json"), filepath.Join(dir, "miss-caller-v1.json"), filepath.Join(dir, "oom.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	checkOwnGolden(t, "measure_planner.golden.md", []byte(out))
}
