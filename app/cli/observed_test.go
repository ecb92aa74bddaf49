package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"headroom/estimator"
)

// observedArgs plot the seed's observed peaks along rows.
var observedArgs = []string{"plot", "-axis", "rows", "-from", "1", "-to", "80000", "-points", "128"}

// readSeedObserved reads the README's example of observed peaks.
func readSeedObserved(t *testing.T) estimator.Config {
	t.Helper()
	cfg, err := estimator.DecodeConfig(mustRead(t, examplePath("seed-observed.json")))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestPlotObservedGoldenSVG: the plot command draws the seed's points as
// the chart package's golden file has them, read from a file or stdin.
func TestPlotObservedGoldenSVG(t *testing.T) {
	code, stdout, stderr := runCmd(t, "", append(observedArgs, "-config", examplePath("seed-observed.json"), "-o", "-")...)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	checkGolden(t, "chart_rows_observed.golden.svg", []byte(stdout))
	code, stdin, stderr := runCmd(t, string(estimator.MarshalConfig(readSeedObserved(t))), append(observedArgs, "-config", "-", "-o", "-")...)
	if code != 0 || stderr != "" || stdin != stdout {
		t.Errorf("from stdin: exit %d, stderr %q, same %v", code, stderr, stdin == stdout)
	}
}

// TestPlotObservedOtherAxis: along another axis the points are left out
// with a note on stderr, and the chart is the one without them.
func TestPlotObservedOtherAxis(t *testing.T) {
	args := []string{"plot", "-axis", "vocab_size", "-from", "1000", "-to", "300000", "-points", "32", "-o", "-"}
	code, withPts, stderr := runCmd(t, "", append(args, "-config", examplePath("seed-observed.json"))...)
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
	code, stdout, stderr := runCmd(t, "", "estimate", "-config", examplePath("seed-observed.json"))
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

	bad := writeTestFile(t, t.TempDir(), "bad.json", []byte(`{"observed": [{"rows": 5, "peak_bytes": 1}, {"rows": 5, "peak_bytes": 0}]}`))
	code, stdout, stderr = runCmd(t, "", "estimate", "-config", bad)
	want := "headroom estimate: observed[1].peak_bytes: must be an integer in 1..1,125,899,906,842,624, got 0\n"
	if code != 2 || stdout != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr %q, want %q", code, stdout, stderr, want)
	}
	if strings.Contains(stderr, "panic") {
		t.Error("panicked")
	}
}
