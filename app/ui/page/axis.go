package page

import "headroom/estimator"

// FitRange is the one-input chart's range for a new axis or model, and
// what "Fit range" gives: fitted to the flips, so the chart shows where
// decisions change rather than a default span of empty bands. It
// looks for them over DefaultRange, and ends at 1.25 x the last flip of
// either revision, or at the current value when that is further; with
// no flip there, or a config that cannot be swept, it is DefaultRange.
// The in-use and capacity axes keep theirs (the GPU's span).
func FitRange(axis string, cfg estimator.Config) (from, to int64) {
	return fitRange(nil, axis, cfg)
}

// fitRange is FitRange, its flips remembered in m (nil: not remembered).
func fitRange(m *memos, axis string, cfg estimator.Config) (from, to int64) {
	from, to = DefaultRange(axis, cfg)
	if axis == estimator.KeyInUseBytes || axis == estimator.KeyCapacityBytes {
		return from, to
	}
	f, ok := estimator.FieldByKey(axis)
	if !ok {
		return from, to
	}
	last, ok := lastFlip(m, axis, cfg, from, to)
	if !ok {
		return from, to
	}
	fit := last + last/4 // 1.25 x, in integers
	if last%4 != 0 {
		fit++
	}
	fit = max(fit, estimator.AxisValue(axis, cfg), from+1)
	return from, max(from, min(fit, f.Max))
}

// fitPoints is the grid FitRange sweeps before bisecting: each flip is
// found exactly, only flips closer together than a step may hide.
const fitPoints = 128

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
		if res, err := estimator.Sweep(cfg, axis, from, to, fitPoints); err == nil {
			for _, fl := range [][]estimator.Flip{res.Baseline.Flips, res.Candidate.Flips} {
				if n := len(fl); n > 0 && fl[n-1].First > a.last {
					a.last, a.ok = fl[n-1].First, true
				}
			}
		}
		return a
	})
	return a.last, a.ok
}

// DefaultRange is the axis range the page shows for a new axis or model:
// from the axis' smallest sensible value to well past the current one
// (8x), within the field's limits.
func DefaultRange(axis string, cfg estimator.Config) (from, to int64) {
	f, ok := estimator.FieldByKey(axis)
	if !ok {
		return 1, 2
	}
	cur := estimator.AxisValue(axis, cfg)
	clamp := func(v int64) int64 { return max(f.Min, min(v, f.Max)) }
	switch axis {
	case estimator.KeyInUseBytes:
		return 0, clamp(cfg.Budget.CapacityBytes)
	case estimator.KeyCapacityBytes:
		return clamp(max(1, cfg.Budget.InUseBytes)), clamp(2 * cur)
	case "num_experts_per_tok":
		return 0, clamp(max(4*cur, 32))
	}
	from = clamp(1)
	return from, max(from, clamp(8*cur))
}
