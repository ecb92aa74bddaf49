package page

import (
	"net/url"
	"sort"
	"strconv"
	"strings"

	"headroom/estimator"
	"headroom/estimator/urlquery"
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
func (s *State) decodeBaseline(q url.Values) {
	var keys []string
	for k, v := range q {
		if strings.HasPrefix(k, BaselineKeyPrefix) && len(v) > 0 {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return
	}
	sort.Strings(keys)
	s.Cfg.Baseline = &estimator.Baseline{Overrides: estimator.Overrides{}}
	for _, k := range keys {
		text := q[k][len(q[k])-1]
		switch {
		case k == KeyBaseChanges:
			c, errs := urlquery.Decode(url.Values{k: {text}})
			if c.Baseline != nil {
				s.Cfg.Baseline.Changes = c.Baseline.Changes
			}
			if len(errs) > 0 {
				s.InputErr[KeyBaseChanges] = errs[0].Message
			}
		case k == BaselineKeyPrefix+estimator.KeyInUseBytes:
			if _, typed := q[BaselineKeyPrefix+KeyInUseGiB]; typed {
				continue // what was typed, below, wins
			}
			s.setBaselineText(k, text)
			delete(s.Texts, k)
		case k == BaselineKeyPrefix+KeyInUseGiB:
			s.setBaselineText(k, text)
		case k == KeyBaseProfile:
			s.setBaselineProfile(text)
		default:
			if _, ok := overridable(baseKey(k)); !ok {
				s.InputErr[KeyCompare] = strconv.Quote(k) + " is not a field a baseline can override"
				continue
			}
			s.setBaselineText(k, text)
			if _, bad := s.InputErr[ErrorKey(k)]; !bad {
				delete(s.Texts, k) // the value shows from the config
			}
		}
	}
	s.dropBadOverrides()
}

// dropBadOverrides leaves out of the config the overrides that make the
// baseline invalid (those estimator.Repair drops), keeping each one's
// text in its field with the message beside it.
func (s *State) dropBadOverrides() {
	before := *s
	fixed, errs := repair(s.Cfg)
	if fixed.Baseline == nil || s.Cfg.Baseline == nil {
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
	for path := range s.Cfg.Baseline.Overrides {
		if _, kept := fixed.Baseline.Overrides[path]; kept {
			continue
		}
		f, ok := estimator.FieldByKey(path)
		if !ok {
			continue
		}
		control := BaselineKeyPrefix + f.Key
		if f.Key == estimator.KeyInUseBytes {
			control = BaselineKeyPrefix + KeyInUseGiB
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
		if _, typed := s.Texts[control]; !typed {
			s.Texts[control] = before.baselineText(control)
		}
		if _, dup := s.InputErr[ErrorKey(control)]; !dup {
			s.InputErr[ErrorKey(control)] = msg
		}
	}
	s.Cfg.Baseline = fixed.Baseline
}

// baselineErrorKey is the page's error key of an estimator error field
// about the baseline ("baseline.overrides.budget.in_use_bytes" ->
// "b.in_use_bytes"); ok is false for a field that is not the baseline's.
func baselineErrorKey(field string) (string, bool) {
	switch {
	case field == "baseline.overrides."+KeyProfile:
		return KeyBaseProfile, true
	case strings.HasPrefix(field, "baseline.overrides."):
		if f, ok := estimator.FieldByKey(strings.TrimPrefix(field, "baseline.overrides.")); ok {
			return BaselineKeyPrefix + f.Key, true
		}
		return KeyCompare, true
	case field == "baseline.changes":
		return KeyBaseChanges, true
	case field == "baseline" || strings.HasPrefix(field, "baseline."):
		return KeyCompare, true
	}
	return "", false
}

// baselineText is what a form field shows when nothing was typed: the
// override's value, or "" when the baseline follows the candidate there.
func (s *State) baselineText(control string) string {
	if s.Cfg.Baseline == nil {
		return ""
	}
	key := baseKey(control)
	if key == KeyInUseGiB {
		if o, ok := s.Cfg.Baseline.Overrides["budget.in_use_bytes"]; ok {
			return GiBText(o.Int)
		}
		return ""
	}
	f, ok := overridable(key)
	if !ok {
		return ""
	}
	o, ok := s.Cfg.Baseline.Overrides[f.Path]
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
