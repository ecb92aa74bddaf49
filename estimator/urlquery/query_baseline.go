package urlquery

import (
	"headroom/estimator"
	"net/url"
	"slices"
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

// baselineField starts the field of an override in the estimator's
// errors ("baseline.overrides.request.rows", docs/model.md §11).
const baselineField = "baseline.overrides."

// encodeBaseline adds b's keys to q.
func encodeBaseline(q url.Values, b *estimator.Baseline) {
	if b == nil {
		return
	}
	var on []string
	var tmp estimator.Config
	written := 0
	tmp.Changes = b.Changes
	for _, f := range allFields {
		if !f.Overridable() && f.Bool(&tmp) {
			on = append(on, f.Key)
		}
	}
	for _, f := range allFields {
		s, ok := b.Overrides[f.Path]
		if !ok || !f.Overridable() {
			continue
		}
		v := "auto"
		switch {
		case f.Kind == estimator.BoolField:
			f.SetBool(&tmp, s.Bool)
			v = f.Text(&tmp)
		case !s.Default:
			f.SetInt(&tmp, s.Int)
			v = f.Text(&tmp)
		}
		q.Set(queryBaselinePrefix+f.Key, v)
		written++
	}
	if s, ok := b.Overrides[profileKey]; ok {
		q.Set(queryBaselinePrefix+profileKey, s.Text)
		written++
	}
	if len(on) > 0 || written == 0 {
		q.Set(queryBaselineChanges, strings.Join(on, ","))
	}
}

// decodeBaselineQuery reads the baseline's keys of q: nil when there are
// none. A value that does not parse is reported and left out (the
// baseline keeps the config's value there).
func decodeBaselineQuery(q url.Values) (*estimator.Baseline, estimator.ErrorList) {
	var b *estimator.Baseline
	var errs estimator.ErrorList
	keys := make([]string, 0, len(q))
	for key := range q {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	for _, key := range keys {
		if !strings.HasPrefix(key, queryBaselinePrefix) || len(q[key]) == 0 {
			continue
		}
		if b == nil {
			b = &estimator.Baseline{Overrides: estimator.Overrides{}}
		}
		text := q[key][len(q[key])-1]
		name := key[len(queryBaselinePrefix):]
		if key == queryBaselineChanges {
			errs = append(errs, decodeChangesList(b, text)...)
			continue
		}
		if name == profileKey {
			if p, err := estimator.ParseProfile(baselineField+profileKey, text); err == nil {
				b.Overrides[profileKey] = estimator.Setting{Text: p}
			} else {
				errs = append(errs, err)
			}
			continue
		}
		f, ok := fieldByKey[name]
		if !ok || !f.Overridable() || f.Key != name {
			msg := "is not a field a baseline can override"
			if ok && !f.Overridable() {
				msg += "; the baseline's toggles go in " + queryBaselineChanges
			}
			errs = append(errs, &estimator.Error{Field: baselineField + name, Message: msg})
			continue
		}
		var tmp estimator.Config
		if err := f.SetText(&tmp, text); err != nil {
			e := estimator.FieldErrors(err)[0]
			errs = append(errs, &estimator.Error{Field: baselineField + f.Path, Message: e.Message})
			continue
		}
		s := estimator.Setting{Bool: f.Kind == estimator.BoolField && f.Bool(&tmp)}
		if f.Kind == estimator.IntField {
			v, set := f.Int(&tmp)
			s.Int, s.Default = v, !set
		}
		b.Overrides[f.Path] = s
	}
	return b, errs
}

// decodeChangesList reads "b.changes": the names of the toggles that are
// on.
func decodeChangesList(b *estimator.Baseline, text string) estimator.ErrorList {
	var errs estimator.ErrorList
	var tmp estimator.Config
	for _, name := range strings.Split(text, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		f, ok := fieldByKey[name]
		if !ok || f.Key != name || f.Overridable() || f.Kind != estimator.BoolField {
			errs = append(errs, &estimator.Error{Field: "baseline.changes", Message: "is not a change: " + quote(name) + "; allowed: head_eager_workspace, fc2_known_storage, gdn_early_release"})
			continue
		}
		f.SetBool(&tmp, true)
	}
	b.Changes = tmp.Changes
	return errs
}
