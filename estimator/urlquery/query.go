package urlquery

import (
	"headroom/estimator"
	"net/url"
)

// allFields is the estimator's field registry, in its order: the fields
// of docs/model.md §2, then the art profile's (copies, which set a
// config's values as the registry's own do).
var allFields = append(estimator.Fields(), estimator.ArtFields()...)

// fieldByKey is allFields by short name, so decoding a link copies no
// field.
var fieldByKey = func() map[string]*estimator.Field {
	m := make(map[string]*estimator.Field, len(allFields))
	for _, f := range allFields {
		m[f.Key] = f
	}
	return m
}()

// Encode writes c as URL query values, one per field (by its short
// name) that differs from estimator.Default(), so a link stays short and readable;
// a baseline of its own adds its keys ("b.", see query_baseline.go), and
// observed points one "obs" value each (query_observed.go), and
// each term one "term" value (query_terms.go).
func Encode(c estimator.Config) url.Values {
	q := url.Values{}
	def := estimator.Default()
	for _, f := range allFields {
		if v := f.Text(&c); v != f.Text(&def) {
			if v == "" {
				v = "auto" // an optional field back to its default
			}
			q.Set(f.Key, v)
		}
	}
	encodeProfile(q, c)
	encodeBaseline(q, c.Baseline)
	encodeObserved(q, c.Observed)
	encodeTerms(q, c.Terms)
	return q
}

// Decode reads a config from URL query values (as Encode writes
// them; keys that are not fields are ignored, so a page can keep its own
// keys beside them). A value that does not parse, or is out of range, is
// reported in errs and its field keeps its default, so the returned config
// is always valid and everything else the link said is kept. Each error's
// Field is the field's path. Keys starting "b." are a baseline of its own
// (query_baseline.go); an override that does not parse, or that makes the
// baseline invalid, is reported and dropped. Each "obs" value is an
// observed point (query_observed.go); a bad one is reported and dropped.
// Each "term" is a term (query_terms.go); a bad one is reported and
// dropped, the others kept.
func Decode(q url.Values) (estimator.Config, estimator.ErrorList) {
	c := estimator.Default()
	var errs estimator.ErrorList
	for _, f := range allFields {
		vals, ok := q[f.Key]
		if !ok || len(vals) == 0 {
			continue
		}
		if err := f.SetText(&c, vals[len(vals)-1]); err != nil {
			errs = append(errs, estimator.FieldErrors(err)...)
		}
	}
	b, berrs := decodeBaselineQuery(q)
	c.Baseline = b
	obs, oerrs := decodeObservedQuery(q)
	c.Observed = obs
	errs = append(errs, decodeProfileQuery(q, &c)...)
	terms, terrs := decodeTermsQuery(q[TermKey], termsCheck(c))
	c.Terms = terms
	berrs = append(berrs, terrs...)
	c, more := estimator.Repair(c)
	return c, append(append(append(errs, berrs...), oerrs...), more...)
}

// quote is text in double quotes for a message, clipped to 40 bytes.
func quote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return "\"" + s + "\""
}
