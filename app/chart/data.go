package chart

import (
	"headroom/estimator"
)

// Input is everything the chart shows, computed by the estimator: the
// UI, the plot command and the CSV export all build it with
// Build, so they show the same thing.
type Input struct {
	Title     string
	Axis      *estimator.Field  // the swept input
	From, To  int64             // the swept range
	Current   int64             // the axis input's current value (marked)
	Points    []estimator.Point // the grid, increasing X
	Baseline  []estimator.Flip  // flips of the baseline, increasing
	Candidate []estimator.Flip  // flips of the candidate, increasing
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
	in := Input{Axis: s.Field(), From: from, To: to, Current: AxisValue(axis, cfg)}
	in.Points = s.AppendPoints(make([]estimator.Point, 0, len(xs)), xs)
	in.Baseline = s.FlipsFromPoints(nil, in.Points, 0)
	in.Candidate = s.FlipsFromPoints(nil, in.Points, 1)
	return in, nil
}

// DefaultRange is the axis range the page shows for a new axis or model:
// from the axis' smallest sensible value to well past the current one
// (8x), within the field's limits.
func DefaultRange(axis string, cfg estimator.Config) (from, to int64) {
	f, ok := estimator.FieldByKey(axis)
	if !ok {
		return 1, 2
	}
	cur := AxisValue(axis, cfg)
	clamp := func(v int64) int64 { return max(f.Min, min(v, f.Max)) }
	switch axis {
	case "in_use_bytes":
		return 0, clamp(cfg.Budget.CapacityBytes)
	case "capacity_bytes":
		return clamp(max(1, cfg.Budget.InUseBytes)), clamp(2 * cur)
	case "num_experts_per_tok":
		return 0, clamp(max(4*cur, 32))
	}
	from = clamp(1)
	return from, max(from, clamp(8*cur))
}

// AxisValue is the config's value of an axis, resolved when the field
// follows another (input_width, output_width); 1 when it cannot be known.
func AxisValue(axis string, cfg estimator.Config) int64 {
	f, ok := estimator.FieldByKey(axis)
	if !ok {
		return 1
	}
	if v, ok := f.Int(&cfg); ok {
		return max(v, 0)
	}
	if r, err := cfg.Resolve(); err == nil {
		return currentDerived(r, axis)
	}
	return 1
}

// currentDerived is the resolved value of an axis left to its default.
func currentDerived(r estimator.Resolved, axis string) int64 {
	if p := r.AxisField(axis); p != nil {
		return *p
	}
	return 0
}
