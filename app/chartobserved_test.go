package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/estimator"
)

const seedObserved = "../examples/seed-observed.json"

// observedArgs plot the seed's observed peaks along rows.
var observedArgs = []string{"plot", "-axis", "rows", "-from", "1", "-to", "80000", "-points", "128"}

func readSeedObserved(t *testing.T) estimator.Config {
	t.Helper()
	data, err := os.ReadFile(seedObserved)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := estimator.DecodeConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestObservedGoldenSVG: the plot command draws the seed's points as
// markers with both predicted-peak lines; the golden file holds it
// (go test ./app -run Golden -update refreshes it).
func TestObservedGoldenSVG(t *testing.T) {
	code, stdout, stderr := runCmd(t, "", append(observedArgs, "-config", seedObserved, "-o", "-")...)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	checkGolden(t, "chart_rows_observed.golden.svg", []byte(stdout))
	for _, label := range []string{"observed peak", "candidate predicted peak", "baseline predicted peak", "candidate required"} {
		if !strings.Contains(stdout, ">"+label+"<") {
			t.Errorf("the legend lacks %q", label)
		}
	}

	// A point outside the chart's rows changes nothing drawn.
	cfg := readSeedObserved(t)
	cfg.Observed = append(cfg.Observed, estimator.ObservedPoint{Rows: 90000, PeakBytes: 1 << 40, Label: "off the chart"})
	code, out2, stderr := runCmd(t, string(estimator.MarshalConfig(cfg)), append(observedArgs, "-config", "-", "-o", "-")...)
	if code != 0 || stderr != "" || out2 != stdout {
		t.Errorf("a point beyond -to changed the chart (exit %d, stderr %q, same %v)", code, stderr, out2 == stdout)
	}

	// Without points, neither markers nor predicted lines.
	cfg.Observed = nil
	_, plain, _ := runCmd(t, string(estimator.MarshalConfig(cfg)), append(observedArgs, "-config", "-", "-o", "-")...)
	if strings.Contains(plain, "predicted peak") || strings.Contains(plain, "observed peak") {
		t.Error("a config without points drew the observed layer")
	}
}

// TestObservedLayerValues: the predicted lines are the estimator's
// predictions at each grid x, in GiB, and the markers sit at the points.
func TestObservedLayerValues(t *testing.T) {
	cfg := readSeedObserved(t)
	in, err := buildChartInput(cfg, "rows", 1, 80000, 64)
	if err != nil {
		t.Fatal(err)
	}
	if note, err := observedOnRows(&in, cfg); note != "" || err != nil || in.Observed == nil {
		t.Fatalf("note %q, err %v, layer %v", note, err, in.Observed)
	}
	pr, err := estimator.NewPredictor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range in.Points {
		peaks, err := pr.Peaks(p.X)
		if err != nil {
			t.Fatal(err)
		}
		for rev := range peaks {
			if got := in.Observed.predicted[rev][i]; got != gib(peaks[rev]) {
				t.Fatalf("x %d rev %d: %v, want %v", p.X, rev, got, gib(peaks[rev]))
			}
		}
	}
	// The predicted lines pass through the points' predictions.
	res, err := estimator.Estimate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Observed {
		peaks, _ := pr.Peaks(o.Rows)
		if peaks[0] != int64(o.Baseline.PredictedBytes) || peaks[1] != int64(o.Candidate.PredictedBytes) {
			t.Errorf("rows %d: line %v, points %+v", o.Rows, peaks, o)
		}
	}
	lines, top := in.Observed.lines([]float64{1}, 1, 80000)
	if len(lines) != 2 || top < gib(94780217856) {
		t.Errorf("%d lines, top %v below the cold peak", len(lines), top)
	}
}

// TestPlotObservedOtherAxis: along another axis the points are left out
// with a note on stderr, and the chart is the one without them.
func TestPlotObservedOtherAxis(t *testing.T) {
	args := []string{"plot", "-axis", "vocab_size", "-from", "1000", "-to", "300000", "-points", "32", "-o", "-"}
	code, withPts, stderr := runCmd(t, "", append(args, "-config", seedObserved)...)
	if code != 0 || !strings.Contains(stderr, "the 2 observed points are drawn along rows only") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	cfg := readSeedObserved(t)
	cfg.Observed = nil
	_, without, _ := runCmd(t, string(estimator.MarshalConfig(cfg)), append(args, "-config", "-")...)
	if withPts != without {
		t.Error("along vocab_size the points changed the chart")
	}
}

// TestEstimateObserved: estimate prints the seed's predictions, residuals
// and fits of both revisions; a bad point exits 2 naming it.
func TestEstimateObserved(t *testing.T) {
	code, stdout, stderr := runCmd(t, "", "estimate", "-config", seedObserved)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var res estimator.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Observed) != 2 || res.Fit == nil || res.Observed[0].PeakBytes != 94780217856 {
		t.Fatalf("observed %+v, fit %v", res.Observed, res.Fit)
	}
	for _, o := range res.Observed {
		for _, p := range []estimator.Prediction{o.Baseline, o.Candidate} {
			if p.PredictedBytes <= 0 || p.PredictedBytes+p.ResidualBytes != o.PeakBytes {
				t.Errorf("%s: %+v", o.Label, p)
			}
		}
	}
	// Two points: the fit is exact up to the rounding of its coefficients.
	for _, f := range []estimator.RevisionFit{res.Fit.Baseline, res.Fit.Candidate} {
		if f.ErrorPercentBefore < 80 || f.ErrorPercentAfter > 1e-4 {
			t.Errorf("fit %+v", f)
		}
	}

	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"observed": [{"rows": 5, "peak_bytes": 1}, {"rows": 5, "peak_bytes": 0}]}`), 0o644)
	code, stdout, stderr = runCmd(t, "", "estimate", "-config", bad)
	want := "headroom estimate: observed[1].peak_bytes: must be an integer in 1..1,125,899,906,842,624, got 0\n"
	if code != 2 || stdout != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr %q, want %q", code, stdout, stderr, want)
	}
	if bytes.Contains([]byte(stderr), []byte("panic")) {
		t.Error("panicked")
	}
}
