package estimator

import (
	"net/url"
	"strings"
)

// A baseline of its own travels in a URL under keys of its own, beside
// the config's (which keep their meaning, so links written before docs/model.md
// §11 decode as they did):
//
//	b.<key>=<value>  an override, by the field's short name ("b.capacity_bytes=85020000000",
//	                 "b.output_width=auto" back to the baseline's default)
//	b.changes=<list> the baseline's toggles that are on, comma-separated short names
//	                 ("b.changes=fc2_known_storage,gdn_early_release"); empty: none
//
// Any key starting "b." means the config has a baseline of its own; one
// that overrides nothing and turns no toggle on is written "b.changes=".

// queryBaselinePrefix starts every key of a baseline in a URL.
const queryBaselinePrefix = "b."

// queryBaselineChanges is the key of the baseline's toggles.
const queryBaselineChanges = queryBaselinePrefix + "changes"

// encodeBaseline adds b's keys to q.
func encodeBaseline(q url.Values, b *Baseline) {
	if b == nil {
		return
	}
	var on []string
	var tmp Config
	written := 0
	tmp.Changes = b.Changes
	for _, f := range fields {
		if !overridable(f) && f.Bool(&tmp) {
			on = append(on, f.Key)
		}
	}
	for _, f := range fields {
		s, ok := b.Overrides[f.Path]
		if !ok || !overridable(f) {
			continue
		}
		v := "auto"
		switch {
		case f.Kind == BoolField:
			f.SetBool(&tmp, s.Bool)
			v = f.Text(&tmp)
		case !s.Default:
			f.SetInt(&tmp, s.Int)
			v = f.Text(&tmp)
		}
		q.Set(queryBaselinePrefix+f.Key, v)
		written++
	}
	if s, ok := b.Overrides[profileKey.Path]; ok {
		q.Set(queryBaselinePrefix+profileKey.Key, s.Text)
		written++
	}
	if len(on) > 0 || written == 0 {
		q.Set(queryBaselineChanges, strings.Join(on, ","))
	}
}

// decodeBaselineQuery reads the baseline's keys of q: nil when there are
// none. A value that does not parse is reported and left out (the
// baseline keeps the config's value there).
func decodeBaselineQuery(q url.Values) (*Baseline, ErrorList) {
	var b *Baseline
	var errs ErrorList
	for _, key := range sortedKeys(q) {
		if !strings.HasPrefix(key, queryBaselinePrefix) || len(q[key]) == 0 {
			continue
		}
		if b == nil {
			b = &Baseline{Overrides: Overrides{}}
		}
		text := q[key][len(q[key])-1]
		name := key[len(queryBaselinePrefix):]
		if key == queryBaselineChanges {
			errs = append(errs, decodeChangesList(b, text)...)
			continue
		}
		if name == profileKey.Key {
			if p, ok := profileText(text); ok {
				b.Overrides[profileKey.Path] = Setting{Text: p}
			} else {
				errs = append(errs, profileError(baselinePrefix+profileKey.Path))
			}
			continue
		}
		f, ok := fieldByKey[name]
		if !ok || !overridable(f) || f.Key != name {
			msg := "is not a field a baseline can override"
			if ok && !overridable(f) {
				msg += "; the baseline's toggles go in " + queryBaselineChanges
			}
			errs = append(errs, &Error{Field: baselinePrefix + name, Message: msg})
			continue
		}
		var tmp Config
		if err := f.SetText(&tmp, text); err != nil {
			e := FieldErrors(err)[0]
			errs = append(errs, &Error{Field: baselinePrefix + f.Path, Message: e.Message})
			continue
		}
		s := Setting{Bool: f.Kind == BoolField && f.Bool(&tmp)}
		if f.Kind == IntField {
			v, set := f.Int(&tmp)
			s.Int, s.Default = v, !set
		}
		b.Overrides[f.Path] = s
	}
	return b, errs
}

// decodeChangesList reads "b.changes": the names of the toggles that are
// on.
func decodeChangesList(b *Baseline, text string) ErrorList {
	var errs ErrorList
	var tmp Config
	for _, name := range strings.Split(text, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		f, ok := fieldByKey[name]
		if !ok || overridable(f) || f.Kind != BoolField {
			errs = append(errs, &Error{Field: "baseline.changes", Message: "is not a change: " + quote(name) + "; allowed: head_eager_workspace, fc2_known_storage, gdn_early_release"})
			continue
		}
		f.SetBool(&tmp, true)
	}
	b.Changes = tmp.Changes
	return errs
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
