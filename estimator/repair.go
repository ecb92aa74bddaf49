package estimator

import "strings"

// Repair returns c with every field that fails validation put back to its
// default, and the errors that caused it. Cross-field limits are repaired
// by resetting the dependent field (projected_rows, target_rows,
// in_use_bytes). Then a baseline of its own that is invalid loses the
// overrides that make it so (see repairBaseline).
func Repair(c Config) (Config, ErrorList) {
	var all ErrorList
	def := Default()
	for range 4 { // each pass fixes at least one field; cross checks need at most three
		_, err := c.Resolve()
		if err == nil {
			c, more := repairBaseline(c)
			return c, append(all, more...)
		}
		for _, e := range FieldErrors(err) {
			all = append(all, e)
			if repairArt(&c, e) {
				continue
			}
			f, ok := fieldByPath[e.Field]
			if !ok {
				continue
			}
			if f.Optional {
				f.Unset(&c)
				continue
			}
			if f.Kind == BoolField {
				f.resetBool(&c, &def)
				continue
			}
			v, _ := f.Int(&def)
			f.SetInt(&c, v)
		}
	}
	return def, all
}

// repairBaseline drops the overrides that make c's baseline invalid (c's
// candidate being valid): the override an error names, else the overrides
// of the fields its limit relates it to (in use to capacity, projected
// and target rows to rows), else every override. It returns the errors
// that caused it.
func repairBaseline(c Config) (Config, ErrorList) {
	if c.Baseline == nil {
		return c, nil
	}
	c.Baseline = c.Baseline.Clone()
	var all ErrorList
	partners := map[string][]string{
		"budget.in_use_bytes":    {"budget.capacity_bytes"},
		"request.projected_rows": {"request.rows"},
		"request.target_rows":    {"request.projected_rows", "request.rows"},
	}
	for range 4 {
		_, err := c.ResolveRevisions()
		if err == nil {
			return c, all
		}
		for _, e := range FieldErrors(err) {
			all = append(all, e)
			path := strings.TrimPrefix(e.Field, baselinePrefix)
			o := c.Baseline.Overrides
			if _, ok := o[path]; ok {
				delete(o, path)
				continue
			}
			dropped := false
			for _, p := range partners[path] {
				if _, ok := o[p]; ok {
					delete(o, p)
					dropped = true
				}
			}
			if !dropped {
				c.Baseline.Overrides = Overrides{}
			}
		}
	}
	c.Baseline = nil
	return c, all
}

// repairArt puts back what an error of §13.3 names (Repair): an unknown
// profile to seeds, terms under art by dropping the profile (the terms are
// the user's work), a bad learned profile by dropping it. It reports
// whether it handled e.
func repairArt(c *Config, e *Error) bool {
	switch {
	case e.Field == profileKey.Path:
		c.Profile = ""
	case e.Field == termsKey.Path && isArt(c.Profile):
		c.Profile = ""
	case strings.HasPrefix(e.Field, profileMemoryKey.Path):
		c.ProfileMemory = nil
	default:
		return false
	}
	return true
}
