package chart

import "headroom/estimator"

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
