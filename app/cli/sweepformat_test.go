package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"headroom/app/chart"
	"headroom/app/report"
	"headroom/estimator"
)

// TestSweepJSONUnchanged: sweep's JSON, now written through app/report
// (the code path of the page's export flips), is what estimator.Sweep
// gives, byte for byte as writeJSON wrote it before.
func TestSweepJSONUnchanged(t *testing.T) {
	c := exampleConfig(t, "h100-vs-h200.json")
	res, err := estimator.Sweep(c, "rows", 1, 900000, 40)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "", "sweep", "-config", examplePath("h100-vs-h200.json"), "-from", "1", "-to", "900000", "-points", "40")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if stdout != want.String() {
		t.Errorf("sweep's JSON\n%s\nwant estimator.Sweep's\n%s", stdout, want.String())
	}
	if len(res.Baseline.Flips) == 0 {
		t.Fatal("fixture: no flips to compare")
	}
}

// TestSweepCSV: sweep -format csv is the page's CSV export of the same
// config, axis and range: report.SweepCSV over the chart's sweep
// (chart.Build, as the page builds it).
func TestSweepCSV(t *testing.T) {
	c := exampleConfig(t, "h100-vs-h200.json")
	in, err := chart.Build(c, "rows", 1, 900000, 40)
	if err != nil {
		t.Fatal(err)
	}
	want, err := report.SweepCSV(c, report.Sweep{Axis: in.Axis.Key, From: in.From, To: in.To, Points: in.Points,
		Baseline: in.Baseline, Candidate: in.Candidate, Terms: in.Terms})
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "", "sweep", "-config", examplePath("h100-vs-h200.json"), "-from", "1", "-to", "900000", "-points", "40", "-format", "csv")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if stdout != string(want) {
		t.Errorf("sweep -format csv\n%s\nwant the page's export\n%s", stdout, want)
	}
	rows := strings.Count(stdout, "\n")
	if rows != 1+len(in.Points)+strings.Count(stdout, "\nflip,") {
		t.Errorf("%d lines for %d grid points", rows, len(in.Points))
	}
	code, _, stderr = runCmd(t, "", "sweep", "-config", examplePath("h100-vs-h200.json"), "-to", "10", "-format", "md")
	if code != 2 || !strings.Contains(stderr, "-format: must be json, csv or text") {
		t.Errorf("-format md: exit %d, %q", code, stderr)
	}
}
