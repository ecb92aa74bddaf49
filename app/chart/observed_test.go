package chart

import (
	"os"
	"strings"
	"testing"

	"headroom/estimator"
)

// seedObserved is the README's example of observed peaks.
const seedObserved = "../../examples/seed-observed.json"

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

// observedChart is the seed's chart along rows with its observed layer,
// as the plot command draws it for -from 1 -to 80000 -points 128.
func observedChart(t *testing.T, cfg estimator.Config, points int) Input {
	t.Helper()
	in, err := Build(cfg, "rows", 1, 80000, points)
	if err != nil {
		t.Fatal(err)
	}
	if note, err := in.AddObserved(cfg); note != "" || err != nil {
		t.Fatalf("note %q, err %v", note, err)
	}
	return in
}

func observedSVG(t *testing.T, cfg estimator.Config) string {
	t.Helper()
	w, h := goldenSize()
	svg, err := SVG(observedChart(t, cfg, 128), w, h)
	if err != nil {
		t.Fatal(err)
	}
	return string(svg)
}

// TestObservedGoldenSVG: the seed's points are drawn as markers with both
// predicted-peak lines; the golden file holds it (go test ./app/chart
// -run Golden -update refreshes it, and the plot command's test checks
// its output against the same file).
func TestObservedGoldenSVG(t *testing.T) {
	t.Parallel()
	cfg := readSeedObserved(t)
	got := observedSVG(t, cfg)
	checkGolden(t, "chart_rows_observed.golden.svg", []byte(got))
	for _, label := range []string{"observed peak", "candidate predicted peak", "baseline predicted peak", "candidate required"} {
		if !strings.Contains(got, ">"+label+"<") {
			t.Errorf("the legend lacks %q", label)
		}
	}

	// A point outside the chart's rows changes nothing drawn.
	cfg.Observed = append(cfg.Observed, estimator.ObservedPoint{Rows: 90000, PeakBytes: 1 << 40, Label: "off the chart"})
	if off := observedSVG(t, cfg); off != got {
		t.Error("a point beyond the range changed the chart")
	}

	// Without points, neither markers nor predicted lines.
	cfg.Observed = nil
	if plain := observedSVG(t, cfg); strings.Contains(plain, "predicted peak") || strings.Contains(plain, "observed peak") {
		t.Error("a config without points drew the observed layer")
	}
}

// TestObservedLayerValues: the predicted lines are the estimator's
// predictions at each grid x, in GiB, and the markers sit at the points.
func TestObservedLayerValues(t *testing.T) {
	t.Parallel()
	cfg := readSeedObserved(t)
	in := observedChart(t, cfg, 64)
	if in.observed == nil {
		t.Fatal("no observed layer")
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
			if got := in.observed.predicted[rev][i]; got != gib(peaks[rev]) {
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
	lines, top := in.observed.lines([]float64{1}, 1, 80000, &Light)
	if len(lines) != 3 || lines[2].label != CeilingLabel || top < gib(94780217856) {
		t.Errorf("%d lines, top %v below the cold peak", len(lines), top)
	}
}

// TestObservedOtherAxis: along another axis AddObserved leaves the chart
// as it was and says why.
func TestObservedOtherAxis(t *testing.T) {
	t.Parallel()
	cfg := readSeedObserved(t)
	in, err := Build(cfg, "vocab_size", 1000, 300000, 32)
	if err != nil {
		t.Fatal(err)
	}
	note, err := in.AddObserved(cfg)
	if err != nil || in.observed != nil || !strings.Contains(note, "the 2 observed points are drawn along rows only") {
		t.Errorf("note %q, err %v, layer %v", note, err, in.observed)
	}
}
