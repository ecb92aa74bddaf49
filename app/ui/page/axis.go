package page

import "headroom/estimator"

// FitRange is the one-input chart's range for a new axis or model, and
// what "Fit range" gives: estimator.FitRange, fitted to every flip of
// both revisions, the last refusal included (the sweep command's default
// range is the same), so the chart shows where decisions change rather
// than a default span of empty bands.
func FitRange(axis string, cfg estimator.Config) (from, to int64) {
	return fitRange(nil, axis, cfg)
}

// fitRange is FitRange, its flips remembered in m (nil: not remembered).
func fitRange(m *memos, axis string, cfg estimator.Config) (from, to int64) {
	return estimator.FitRange(axis, cfg, func(axis string, cfg estimator.Config, from, to int64) (int64, bool) {
		return lastFlip(m, axis, cfg, from, to)
	})
}

// fitPoints is the grid FitRange sweeps before bisecting.
const fitPoints = estimator.FitPoints

// lastFlip is the last flip of either revision over [from, to],
// remembered in m: an edit asks for it several times (FollowRange, the
// address, the state the address opens, and the next edit's address when
// the swept field itself moved).
func lastFlip(m *memos, axis string, cfg estimator.Config, from, to int64) (int64, bool) {
	steps.fitAsk.Add(1)
	var memo *Memo[string, flipAnswer]
	if m != nil {
		memo = &m.fit
	}
	a := memo.Get(axis, cfg, func() (a flipAnswer) {
		steps.fitSweep.Add(1)
		a.last, a.ok = estimator.LastFlip(axis, cfg, from, to)
		return a
	})
	return a.last, a.ok
}

// DefaultRange is the axis range the page shows for a new axis or model
// before fitting it to the flips (estimator.DefaultRange).
func DefaultRange(axis string, cfg estimator.Config) (from, to int64) {
	return estimator.DefaultRange(axis, cfg)
}
