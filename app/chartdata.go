package main

import (
	"headroom/estimator"
)

// chartInput is everything the chart shows, computed by the estimator: the
// UI, the plot command and the CSV export all build it with
// buildChartInput, so they show the same thing.
type chartInput struct {
	Title     string
	Axis      *estimator.Field  // the swept input
	From, To  int64             // the swept range
	Current   int64             // the axis input's current value (marked)
	Points    []estimator.Point // the grid, increasing X
	Baseline  []estimator.Flip  // flips of the baseline, increasing
	Candidate []estimator.Flip  // flips of the candidate, increasing
	Observed  *chartObserved    // observed peaks, along rows only (observedOnRows)
}

// buildChartInput sweeps cfg along axis over [from, to] on a grid of points
// and finds both revisions' flips, bisected from those points: the same
// flips the sweep command prints for the same grid.
func buildChartInput(cfg estimator.Config, axis string, from, to int64, points int) (chartInput, error) {
	if err := estimator.CheckRange(from, to, points); err != nil {
		return chartInput{}, err
	}
	s, err := estimator.NewSweeper(cfg, axis)
	if err != nil {
		return chartInput{}, err
	}
	xs := estimator.Grid(from, to, points)
	in := chartInput{Axis: s.Field(), From: from, To: to, Current: axisValue(axis, cfg)}
	in.Points = s.AppendPoints(make([]estimator.Point, 0, len(xs)), xs)
	in.Baseline = s.FlipsFromPoints(nil, in.Points, 0)
	in.Candidate = s.FlipsFromPoints(nil, in.Points, 1)
	return in, nil
}

// currentDerived is the resolved value of an axis left to its default.
func currentDerived(r estimator.Resolved, axis string) int64 {
	if p := r.AxisField(axis); p != nil {
		return *p
	}
	return 0
}
