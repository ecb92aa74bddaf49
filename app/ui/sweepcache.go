package ui

import (
	"headroom/app/chart"
	"headroom/estimator"
)

// sweepCache keeps the last sweep, so that moving the swept input itself
// (rows, on the default axis) only moves the chart's marker: the sweep
// sets the axis to every x anyway, so the points do not depend on it.
type sweepCache struct {
	key   sweepKey
	ok    bool
	in    chart.Input
	notes flipNotes
}

// sweepKey is everything a sweep's points depend on.
type sweepKey struct {
	r        estimator.Resolved // with the axis' own value cleared when the sweep ignores it
	base     estimator.Resolved // a baseline of its own, likewise (zero without one)
	axis     string
	from, to int64
	points   int
	seq      int64     // sequence_rows, which the flip sentences count rows in
	names    [2]string // the revisions' names the sentences and the legend use
}

// flipNotes are the sentences the decision panel shows about a sweep.
type flipNotes struct {
	Baseline, Candidate, Change string
}

// getNamed returns the sweep of cfg along axis, the revisions named
// (chart.Input.Names; unnamed when zero), and whether it was reused.
func (sc *sweepCache) getNamed(cfg estimator.Config, names [2]string, axis string, from, to int64, points int) (chart.Input, flipNotes, bool, error) {
	rv, err := cfg.ResolveRevisions()
	if err != nil {
		return chart.Input{}, flipNotes{}, false, err
	}
	key := sweepKey{r: withoutAxis(rv.Rev[1], axis), axis: axis, from: from, to: to, points: points, names: names}
	if axis == "rows" || axis == "projected_rows" || axis == "target_rows" {
		key.seq = cfg.Request.SequenceRows // the sentences count these rows in sequences
	}
	if rv.Own {
		key.base = withoutAxis(rv.Rev[0], axis)
	}
	if sc.ok && sc.key == key {
		in := sc.in
		in.Current = estimator.AxisValue(axis, cfg)
		return in, sc.notes, true, nil
	}
	in, err := chart.Build(cfg, axis, from, to, points)
	if err != nil {
		sc.ok = false
		return chart.Input{}, flipNotes{}, false, err
	}
	in.Names = names
	sc.key, sc.in, sc.ok = key, in, true
	sc.notes = describeSweep(in, cfg.Request.SequenceRows)
	return in, sc.notes, false, nil
}

// withoutAxis clears the axis' value in r when the sweep's points do not
// depend on it. Sweeping rows carries projected and target rows in
// proportion to the current rows, so rows matters unless both follow it.
func withoutAxis(r estimator.Resolved, axis string) estimator.Resolved {
	if axis == "rows" {
		if r.EveryRowTargeted() {
			r.N, r.P, r.T = 0, 0, 0
		}
		return r
	}
	if p := r.AxisField(axis); p != nil {
		*p = 0
	}
	return r
}
