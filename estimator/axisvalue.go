package estimator

// AxisValue is the config's value of an axis (a sweep's or a chart's
// current x): the field's own value, or its resolved one when the field
// is left to a default that follows another (input_width, output_width;
// 0 for an axis Resolved does not carry); 1 when it cannot be known (an
// unknown axis, or a config that does not resolve).
func AxisValue(axis string, cfg Config) int64 {
	f, ok := FieldByKey(axis)
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
