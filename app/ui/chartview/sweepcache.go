package chartview

import (
	"headroom/app/chart"
	"headroom/estimator"
)

// SweepCache keeps the last sweep, so that moving the swept input itself
// (rows, on the default axis) only moves the chart's marker: the sweep
// sets the axis to every x anyway, so the points do not depend on it.
// With the sweep it keeps what Describe makes of it (the decision panels'
// sentences, N), made once per sweep. The zero value describes nothing.
type SweepCache[N any] struct {
	// Describe says what the sweep in shows, its rows counted in
	// sequences of sequenceRows; nil: the zero N.
	Describe func(in chart.Input, sequenceRows int64) N

	key   sweepKey
	ok    bool
	in    chart.Input
	notes N
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

// Get returns the sweep of cfg along axis, the revisions named
// (chart.Input.Names; unnamed when zero), what Describe made of it, and
// whether it was reused.
func (sc *SweepCache[N]) Get(cfg estimator.Config, names [2]string, axis string, from, to int64, points int) (in chart.Input, notes N, reused bool, err error) {
	rv, err := cfg.ResolveRevisions()
	if err != nil {
		return chart.Input{}, notes, false, err
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
	in, err = chart.Build(cfg, axis, from, to, points)
	if err != nil {
		sc.ok = false
		return chart.Input{}, notes, false, err
	}
	in.Names = names
	sc.key, sc.in, sc.ok = key, in, true
	var zero N
	sc.notes = zero
	if sc.Describe != nil {
		sc.notes = sc.Describe(in, cfg.Request.SequenceRows)
	}
	return in, sc.notes, false, nil
}

// Last returns the last sweep, if the last Get succeeded: the chart on
// screen, which the exports draw again.
func (sc *SweepCache[N]) Last() (chart.Input, bool) { return sc.in, sc.ok }

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
