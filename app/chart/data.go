package chart

import (
	"headroom/estimator"
)

// Input is everything the chart shows, computed by the estimator: the
// UI, the plot command and the CSV export all build it with
// Build, so they show the same thing.
type Input struct {
	Title string
	// Caption, when set, is drawn in small text under the legend,
	// wrapped to the width: what a picture pasted elsewhere needs to
	// explain itself (the page's exports set it; the plot command and the
	// page's own chart leave it empty, so their drawings are unchanged).
	Caption   string
	Axis      *estimator.Field  // the swept input
	From, To  int64             // the swept range
	Current   int64             // the axis input's current value (marked)
	Points    []estimator.Point // the grid, increasing X
	Baseline  []estimator.Flip  // flips of the baseline, increasing
	Candidate []estimator.Flip  // flips of the candidate, increasing
	Terms     []estimator.Term  // the config's terms: a stage term has a line (terms.go)
	// Names are the revisions' names in the legend (baseline, candidate),
	// when two setups are compared ("H100 80GB", "H200"); empty, the
	// legend says "baseline" and "candidate".
	Names   [2]string
	Palette *Palette // the colours; nil is Light
	// Art is set when ART's code prices the candidate (docs/model.md
	// §13): its stage lines are then ART's alternatives, which
	// estimator.Point's WholeStages carry in the seeds' slots (stageLabel).
	Art bool

	observed *chartObserved // observed peaks, along rows only (AddObserved)
}

// Build sweeps cfg along axis over [from, to] on a grid of points
// and finds both revisions' flips, bisected from those points: the same
// flips the sweep command prints for the same grid.
func Build(cfg estimator.Config, axis string, from, to int64, points int) (Input, error) {
	if err := estimator.CheckRange(from, to, points); err != nil {
		return Input{}, err
	}
	s, err := estimator.NewSweeper(cfg, axis)
	if err != nil {
		return Input{}, err
	}
	xs := estimator.Grid(from, to, points)
	in := Input{Axis: s.Field(), From: from, To: to, Current: estimator.AxisValue(axis, cfg), Terms: cfg.Terms,
		Art: cfg.Profile == estimator.ProfileArt}
	in.Points = s.AppendPoints(make([]estimator.Point, 0, len(xs)), xs)
	in.Baseline = s.FlipsFromPoints(nil, in.Points, estimator.BaselineRev)
	in.Candidate = s.FlipsFromPoints(nil, in.Points, estimator.CandidateRev)
	return in, nil
}
