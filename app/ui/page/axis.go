package page

import (
	"sync/atomic"

	"headroom/estimator"
)

// FitRange is the one-input chart's range for a new axis or model, and
// what "Fit range" gives: estimator.FitRange, fitted to every flip of
// both revisions (the sweep command's default range is the same), with
// the last flip remembered (lastFlip).
func FitRange(axis string, cfg estimator.Config) (from, to int64) {
	return estimator.FitRange(axis, cfg, lastFlip)
}

// fitMemo is the last range fitted: an edit asks for it several times
// (FollowRange, the address, the state the address opens, and the next
// edit's address when the swept field itself moved). It is keyed by the
// axis and the config itself (Config.Equal on a Clone), not by the
// config's address.
type fitMemo struct {
	axis string
	cfg  estimator.Config
	last int64
	ok   bool
}

var lastFit atomic.Pointer[fitMemo]

// fitPoints is the grid FitRange sweeps before bisecting.
const fitPoints = estimator.FitPoints

// lastFlip is the last flip of either revision over [from, to].
func lastFlip(axis string, cfg estimator.Config, from, to int64) (int64, bool) {
	steps.fitAsk.Add(1)
	if m := lastFit.Load(); m != nil && m.axis == axis && m.cfg.Equal(cfg) {
		return m.last, m.ok
	}
	m := &fitMemo{axis: axis, cfg: cfg.Clone()}
	steps.fitSweep.Add(1)
	m.last, m.ok = estimator.LastFlip(axis, cfg, from, to)
	lastFit.Store(m)
	return m.last, m.ok
}

// DefaultRange is the axis range the page shows for a new axis or model
// before fitting it to the flips (estimator.DefaultRange).
func DefaultRange(axis string, cfg estimator.Config) (from, to int64) {
	return estimator.DefaultRange(axis, cfg)
}
