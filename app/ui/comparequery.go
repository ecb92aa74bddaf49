package ui

import (
	"net/url"
	"sort"
	"strconv"
	"strings"

	"headroom/estimator"
)

// The baseline in the page's address: the estimator's "b." keys, read
// as the form would take them typed, and its errors placed beside the
// form's controls.

// decodeBaseline reads the "b." keys of a link into the state, as the
// form would take them typed: a value that does not parse stays as text
// beside its message. An override that makes the baseline invalid (in use
// above the baseline's capacity) is left out of the config, as the
// estimator's Repair leaves it out, so the page renders the rest; its
// text stays in its field with the message beside it, and the page's
// next address carries that text: nothing the link says is lost.
func (s *pageState) decodeBaseline(q url.Values) {
	var keys []string
	for k, v := range q {
		if strings.HasPrefix(k, baselineKeyPrefix) && len(v) > 0 {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return
	}
	sort.Strings(keys)
	s.cfg.Baseline = &estimator.Baseline{Overrides: estimator.Overrides{}}
	for _, k := range keys {
		text := q[k][len(q[k])-1]
		switch {
		case k == keyBaseChanges:
			c, errs := estimator.DecodeQuery(url.Values{k: {text}})
			if c.Baseline != nil {
				s.cfg.Baseline.Changes = c.Baseline.Changes
			}
			if len(errs) > 0 {
				s.inputErr[keyBaseChanges] = errs[0].Message
			}
		case k == baselineKeyPrefix+"in_use_bytes":
			if _, typed := q[baselineKeyPrefix+KeyInUseGiB]; typed {
				continue // what was typed, below, wins
			}
			s.setBaselineText(k, text)
			delete(s.texts, k)
		case k == baselineKeyPrefix+KeyInUseGiB:
			s.setBaselineText(k, text)
		default:
			if _, ok := overridable(baseKey(k)); !ok {
				s.inputErr[keyCompare] = strconv.Quote(k) + " is not a field a baseline can override"
				continue
			}
			s.setBaselineText(k, text)
			if _, bad := s.inputErr[errorKey(k)]; !bad {
				delete(s.texts, k) // the value shows from the config
			}
		}
	}
	s.dropBadOverrides()
}

// dropBadOverrides leaves out of the config the overrides that make the
// baseline invalid (those estimator.Repair drops), keeping each one's
// text in its field with the message beside it.
func (s *pageState) dropBadOverrides() {
	before := *s
	fixed, errs := estimator.Repair(s.cfg)
	if fixed.Baseline == nil || s.cfg.Baseline == nil {
		return
	}
	var msgs []*estimator.Error
	for _, e := range errs {
		if _, ok := baselineErrorKey(e.Field); ok {
			msgs = append(msgs, e)
		}
	}
	if len(msgs) == 0 {
		return
	}
	for path := range s.cfg.Baseline.Overrides {
		if _, kept := fixed.Baseline.Overrides[path]; kept {
			continue
		}
		f, ok := estimator.FieldByKey(path)
		if !ok {
			continue
		}
		control := baselineKeyPrefix + f.Key
		if f.Key == "in_use_bytes" {
			control = baselineKeyPrefix + KeyInUseGiB
		}
		msg := msgs[0].Message
		if other := strings.TrimPrefix(msgs[0].Field, "baseline.overrides."); other != path {
			msg = other + " " + msg
		}
		for _, e := range msgs {
			if e.Field == "baseline.overrides."+path {
				msg = e.Message
			}
		}
		if _, typed := s.texts[control]; !typed {
			s.texts[control] = before.baselineText(control)
		}
		if _, dup := s.inputErr[errorKey(control)]; !dup {
			s.inputErr[errorKey(control)] = msg
		}
	}
	s.cfg.Baseline = fixed.Baseline
}

// baselineErrorKey is the page's error key of an estimator error field
// about the baseline ("baseline.overrides.budget.in_use_bytes" ->
// "b.in_use_bytes"); ok is false for a field that is not the baseline's.
func baselineErrorKey(field string) (string, bool) {
	switch {
	case strings.HasPrefix(field, "baseline.overrides."):
		if f, ok := estimator.FieldByKey(strings.TrimPrefix(field, "baseline.overrides.")); ok {
			return baselineKeyPrefix + f.Key, true
		}
		return keyCompare, true
	case field == "baseline.changes":
		return keyBaseChanges, true
	case field == "baseline" || strings.HasPrefix(field, "baseline."):
		return keyCompare, true
	}
	return "", false
}

// baselineText is what a form field shows when nothing was typed: the
// override's value, or "" when the baseline follows the candidate there.
func (s *pageState) baselineText(control string) string {
	if s.cfg.Baseline == nil {
		return ""
	}
	key := baseKey(control)
	if key == KeyInUseGiB {
		if o, ok := s.cfg.Baseline.Overrides["budget.in_use_bytes"]; ok {
			return GiBText(o.Int)
		}
		return ""
	}
	f, ok := overridable(key)
	if !ok {
		return ""
	}
	o, ok := s.cfg.Baseline.Overrides[f.Path]
	switch {
	case !ok:
		return ""
	case f.Kind == estimator.BoolField:
		return strconv.FormatBool(o.Bool)
	case o.Default:
		return "auto"
	}
	return strconv.FormatInt(o.Int, 10)
}
