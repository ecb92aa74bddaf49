package page

import "headroom/estimator"

// DefaultRange is the axis range the page shows for a new axis or model:
// from the axis' smallest sensible value to well past the current one
// (8x), within the field's limits.
func DefaultRange(axis string, cfg estimator.Config) (from, to int64) {
	f, ok := estimator.FieldByKey(axis)
	if !ok {
		return 1, 2
	}
	cur := axisValue(axis, cfg)
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

// axisValue is the config's value of an axis, resolved when the field
// follows another (input_width, output_width); 1 when it cannot be known.
// It is the rule of chart.AxisValue, which the page model may not import.
func axisValue(axis string, cfg estimator.Config) int64 {
	f, ok := estimator.FieldByKey(axis)
	if !ok {
		return 1
	}
	if v, ok := f.Int(&cfg); ok {
		return max(v, 0)
	}
	if r, err := cfg.Resolve(); err == nil {
		if p := r.AxisField(axis); p != nil {
			return *p
		}
		return 0
	}
	return 1
}
