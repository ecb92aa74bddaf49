package estimator

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// overrideGroups are the objects "overrides" may hold, as paths of the
// format; allocator_round_bytes is a field of its own at the top.
var overrideGroups = map[string]bool{"model": true, "request": true, "request.outputs": true, "head": true, "fc2": true, "budget": true, "art": true}

// decodeBaseline reads the "baseline" object of a config into c: changes
// (the baseline's toggles, each false unless given) and overrides, strictly
// through the field registry. Errors are appended to errs, each named
// "baseline...."; null leaves c without a baseline.
func decodeBaseline(c *Config, raw json.RawMessage, errs *ErrorList) {
	if string(bytes.TrimSpace(raw)) == "null" {
		c.Baseline = nil
		return
	}
	obj, err := decodeObject(raw)
	if err != nil {
		*errs = append(*errs, &Error{Field: "baseline", Message: err.Error()})
		return
	}
	b := &Baseline{Overrides: Overrides{}}
	for _, key := range sortedKeys(obj) {
		switch key {
		case "changes":
			decodeBaselineChanges(b, obj[key], errs)
		case "overrides":
			decodeOverrides(b.Overrides, "", residentOverride(b, obj[key], errs), errs)
		default:
			*errs = append(*errs, &Error{Field: namedKey("baseline", key), Message: "is not a field of a baseline; allowed here: changes, overrides"})
		}
	}
	c.Baseline = b
}

func decodeBaselineChanges(b *Baseline, raw json.RawMessage, errs *ErrorList) {
	obj, err := decodeObject(raw)
	if err != nil {
		*errs = append(*errs, &Error{Field: "baseline.changes", Message: err.Error()})
		return
	}
	known := groups["changes"]
	for _, key := range sortedKeys(obj) {
		f, ok := known[key]
		if !ok {
			*errs = append(*errs, &Error{Field: namedKey("baseline.changes", key), Message: "is not a change; allowed here: " + strings.Join(sortedKeys(known), ", ")})
			continue
		}
		s, e := decodeSetting(f, "baseline."+f.Path, obj[key])
		if e != nil {
			*errs = append(*errs, e)
			continue
		}
		var tmp Config
		tmp.Changes = b.Changes
		f.SetBool(&tmp, s.Bool)
		b.Changes = tmp.Changes
	}
}

// decodeOverrides reads one object of "overrides" (group "" is the
// overrides object itself) into o.
func decodeOverrides(o Overrides, group string, raw json.RawMessage, errs *ErrorList) {
	name := "baseline.overrides"
	if group != "" {
		name += "." + group
	}
	obj, err := decodeObject(raw)
	if err != nil {
		*errs = append(*errs, &Error{Field: name, Message: err.Error()})
		return
	}
	var allowed []string
	for key, f := range groups[group] {
		if path := joinPath(group, key); (f == nil && overrideGroups[path]) || (f != nil && f.Overridable()) {
			allowed = append(allowed, key)
		}
	}
	sort.Strings(allowed)
	for _, key := range sortedKeys(obj) {
		path := joinPath(group, key)
		f, known := groups[group][key]
		switch {
		case group == "" && key == "terms":
			*errs = append(*errs, &Error{Field: name + ".terms", Message: "cannot be overridden: the terms are the config's, and each term's revision says which revision holds it"})
		case group == "" && key == "baseline":
			*errs = append(*errs, &Error{Field: name + ".baseline", Message: "cannot be overridden: a baseline has no baseline of its own"})
		case group == "" && key == "observed":
			*errs = append(*errs, &Error{Field: name + ".observed", Message: "cannot be overridden: the observed peaks are the config's, and each is set beside both revisions"})
		case group == "" && key == "profile":
			p, e := decodeProfile(name+".profile", obj[key])
			if e != nil {
				*errs = append(*errs, e)
				continue
			}
			if p == "" {
				p = ProfileSeeds
			}
			o[profileKey.Path] = Setting{Text: p}
		case group == "" && key == "profile_memory":
			*errs = append(*errs, &Error{Field: name + ".profile_memory", Message: "cannot be overridden: the learned profile is the config's, read by the revisions that use profile art"})
		case group == "" && key == "changes":
			*errs = append(*errs, &Error{Field: name + ".changes", Message: "cannot be overridden: the baseline's toggles go in baseline.changes"})
		case known && f == nil && overrideGroups[path]:
			decodeOverrides(o, path, obj[key], errs)
		case known && f != nil && f.Overridable():
			s, e := decodeSetting(f, baselinePrefix+f.Path, obj[key])
			if e != nil {
				*errs = append(*errs, e)
				continue
			}
			o[f.Path] = s
		default:
			*errs = append(*errs, &Error{Field: namedKey(name, key), Message: "is not a field a baseline can override; allowed here: " + strings.Join(allowed, ", ")})
		}
	}
}

func joinPath(group, key string) string {
	if group == "" {
		return key
	}
	return group + "." + key
}

// namedKey is the path of key in the object name, with an empty key made
// visible so the message is never nameless.
func namedKey(name, key string) string {
	if key == "" || !printable(key) {
		return name + " key " + strconv.Quote(key)
	}
	return name + "." + key
}

// printable reports whether s is valid UTF-8 of printable characters
// (spaces included): a key a message may show as it is. Any other key is
// quoted, so that its control characters (an escape sequence that sets a
// terminal's title and colours) never reach a terminal raw.
func printable(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			return false
		}
	}
	return true
}
