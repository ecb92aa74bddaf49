package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestMeasureTwoRuns: two snapshots give each run and their comparison,
// with both revisions' predictions beside both runs.
func TestMeasureTwoRuns(t *testing.T) {
	a := filepath.Join(measureData, "snapshots", "head.pickle")
	b := filepath.Join(measureData, "snapshots", "split.pickle")
	code, out, errOut := runMain(Measure, rows4096, "-snapshot", a, "-snapshot", b, "-config", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r MeasuredRuns
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.A.File != "head.pickle" || r.B.File != "split.pickle" || len(r.Devices) != 1 {
		t.Fatalf("runs %s, %s, %d devices", r.A.File, r.B.File, len(r.Devices))
	}
	d := r.Devices[0]
	pa, pb := r.A.Devices[0].PeakBytes, r.B.Devices[0].PeakBytes
	if d.A.PeakBytes != pa || d.B.PeakBytes != pb || d.PeakDeltaBytes != pb-pa || !d.EqualStart {
		t.Errorf("comparison %+v; peaks %d, %d", d, pa, pb)
	}
	if r.A.Devices[0].Estimate == nil || r.B.Devices[0].Estimate == nil {
		t.Error("no estimate beside a run")
	}
	code, md, _ := runMain(Measure, rows4096, "-snapshot", a, "-snapshot", b, "-config", "-", "-format", "md")
	for _, want := range []string{"## Two runs: A head.pickle, B split.pickle", "| allocated before the trace (equal) |", "| candidate predicts (4,096 rows) |", "| only in A |"} {
		if code != 0 || !strings.Contains(md, want) {
			t.Errorf("md (exit %d) lacks %q:\n%s", code, want, md)
		}
	}
	code, _, errOut = runMain(Measure, "", "-snapshot", a, "-snapshot", b, "-snapshot", a)
	if code != 2 || !strings.Contains(errOut, "-snapshot: 3 files") {
		t.Errorf("three snapshots: exit %d, %q", code, errOut)
	}
}
