package estimator

// The range a chart, or a sweep given no range, shows along an axis: the
// page's automatic range and the sweep command's default are this one.

// DefaultRange is the axis range before any flip is looked for: from the
// axis' smallest sensible value to well past the current one (8x),
// within the field's limits; along in_use_bytes the GPU's capacity, along
// capacity_bytes up to twice the current one.
func DefaultRange(axis string, cfg Config) (from, to int64) {
	f, ok := FieldByKey(axis)
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

// FitRange is the range fitted to the flips: DefaultRange's start, and
// an end at 1.25 x the last flip of either revision (LastFlip, which looks
// past DefaultRange), or at the current value when that is further. With
// no flip, or a config that cannot be swept, it is DefaultRange; the
// in-use and capacity axes keep theirs (the GPU's span). last is how the
// caller finds the last flip (LastFlip, or a memo of it).
func FitRange(axis string, cfg Config, last func(axis string, cfg Config, from, to int64) (int64, bool)) (from, to int64) {
	from, to = DefaultRange(axis, cfg)
	if axis == "in_use_bytes" || axis == "capacity_bytes" {
		return from, to
	}
	f, ok := FieldByKey(axis)
	if !ok {
		return from, to
	}
	l, ok := last(axis, cfg, from, to)
	if !ok {
		return from, to
	}
	fit := l + l/4 // 1.25 x, in integers
	if l%4 != 0 {
		fit++
	}
	fit = max(fit, AxisValue(axis, cfg), from+1)
	return from, max(from, min(fit, f.Max))
}

// FitPoints is the grid LastFlip sweeps before bisecting: each flip is
// found exactly, only flips closer together than a step may hide.
const FitPoints = 128

// LastFlip is the last flip of either revision along axis, looked for
// over [from, to] and past to (flipsEnd): the default page once refused
// from 560,267 rows while its range ended at 8 x rows, 519,216, and both
// panels said "splits beyond". false when there is none, or the config
// cannot be swept.
func LastFlip(axis string, cfg Config, from, to int64) (last int64, ok bool) {
	last, ok = lastFlipIn(cfg, axis, from, to)
	if s, err := NewSweeper(cfg, axis); err == nil {
		if end := flipsEnd(s, to); end > to {
			if l, found := lastFlipIn(cfg, axis, to, end); found {
				last, ok = l, true
			}
		}
	}
	return last, ok
}

// lastFlipIn is the last flip of either revision a sweep of [from, to]
// finds.
func lastFlipIn(cfg Config, axis string, from, to int64) (last int64, ok bool) {
	res, err := Sweep(cfg, axis, from, to, FitPoints)
	if err != nil {
		return 0, false
	}
	for _, fl := range [][]Flip{res.Baseline.Flips, res.Candidate.Flips} {
		if n := len(fl); n > 0 && fl[n-1].First > last {
			last, ok = fl[n-1].First, true
		}
	}
	return last, ok
}

// flipsEnd prices both revisions at to x 2, x 4, ... up to the field's
// maximum, and returns the last of those points where either revision's
// decision differs from the point before, or to when none does. The last
// flip lies below it, so a sweep up to it finds it. It stops at a point
// where either revision is invalid (nothing past it is drawn as a
// decision). At most about 40 points for rows (2^40 / 8).
func flipsEnd(s *Sweeper, to int64) int64 {
	limit := s.Field().Max
	decisions := func(x int64) ([2]Decision, bool) {
		pt := s.Point(x)
		d := [2]Decision{pt.Rev[0].Decision, pt.Rev[1].Decision}
		return d, pt.Error == "" && d[0] != Invalid && d[1] != Invalid
	}
	prev, ok := decisions(to)
	end := to
	for x := to; ok && x > 0 && x < limit; {
		x = min(limit, x+max(x, 1))
		var d [2]Decision
		if d, ok = decisions(x); ok && d != prev {
			end, prev = x, d
		}
	}
	return end
}
