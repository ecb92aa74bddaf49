package page

import (
	"sync/atomic"

	"headroom/estimator"
)

// FitRange is the one-input chart's range for a new axis or model, and
// what "Fit range" gives: fitted to the flips. It looks for them over
// DefaultRange and past it (flipsEnd: every flip of both revisions, the
// last refusal included), and ends at 1.25 x the last flip of either
// revision, or at the current value when that is further; with
// no flip there, or a config that cannot be swept, it is DefaultRange.
// The in-use and capacity axes keep theirs (the GPU's span).
func FitRange(axis string, cfg estimator.Config) (from, to int64) {
	from, to = DefaultRange(axis, cfg)
	if axis == "in_use_bytes" || axis == "capacity_bytes" {
		return from, to
	}
	f, ok := estimator.FieldByKey(axis)
	if !ok {
		return from, to
	}
	last, ok := lastFlip(axis, cfg, from, to)
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

// fitPoints is the grid FitRange sweeps before bisecting: each flip is
// found exactly, only flips closer together than a step may hide.
const fitPoints = 128

// lastFlip is the last flip of either revision over [from, to].
func lastFlip(axis string, cfg estimator.Config, from, to int64) (int64, bool) {
	steps.fitAsk.Add(1)
	if m := lastFit.Load(); m != nil && m.axis == axis && m.cfg.Equal(cfg) {
		return m.last, m.ok
	}
	m := &fitMemo{axis: axis, cfg: cfg.Clone()}
	steps.fitSweep.Add(1)
	m.last, m.ok = lastFlipIn(cfg, axis, from, to)
	if s, err := estimator.NewSweeper(cfg, axis); err == nil {
		if end := flipsEnd(s, to); end > to {
			if last, ok := lastFlipIn(cfg, axis, to, end); ok {
				m.last, m.ok = last, true
			}
		}
	}
	lastFit.Store(m)
	return m.last, m.ok
}

// lastFlipIn is the last flip of either revision a sweep of [from, to]
// finds.
func lastFlipIn(cfg estimator.Config, axis string, from, to int64) (last int64, ok bool) {
	res, err := estimator.Sweep(cfg, axis, from, to, fitPoints)
	if err != nil {
		return 0, false
	}
	for _, fl := range [][]estimator.Flip{res.Baseline.Flips, res.Candidate.Flips} {
		if n := len(fl); n > 0 && fl[n-1].First > last {
			last, ok = fl[n-1].First, true
		}
	}
	return last, ok
}

// flipsEnd looks past to for flips the default range leaves out (the
// default page refused from 560,267 rows while its range ended at 8 x
// rows, 519,216, and both panels said "splits beyond"): it prices both
// revisions at to x 2, x 4, ... up to the field's maximum, and returns
// the last of those points where either revision's decision differs
// from the point before, or to when none does. The last flip lies
// below it, so a sweep up to it finds it. It stops at a point where
// either revision is invalid (nothing past it is drawn as a decision).
// At most about 40 points for rows (2^40 / 8).
func flipsEnd(s *estimator.Sweeper, to int64) int64 {
	limit := s.Field().Max
	decisions := func(x int64) ([2]estimator.Decision, bool) {
		pt := s.Point(x)
		d := [2]estimator.Decision{pt.Rev[0].Decision, pt.Rev[1].Decision}
		return d, pt.Error == "" && d[0] != estimator.Invalid && d[1] != estimator.Invalid
	}
	prev, ok := decisions(to)
	end := to
	for x := to; ok && x > 0 && x < limit; {
		x = min(limit, x+max(x, 1))
		var d [2]estimator.Decision
		if d, ok = decisions(x); ok && d != prev {
			end, prev = x, d
		}
	}
	return end
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
