package estimator

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"
)

// MaxInputBytes bounds every JSON input the package reads (a config, a
// Hugging Face config.json): far above any real one, small enough that a
// hostile paste cannot exhaust a browser tab.
const MaxInputBytes = 4 << 20

// groups are the objects of the interchange format, and the fields each
// holds, by JSON key.
var groups = map[string]map[string]*Field{}

func init() {
	for _, f := range fields {
		group, key := "", f.Path
		if i := strings.LastIndexByte(f.Path, '.'); i >= 0 {
			group, key = f.Path[:i], f.Path[i+1:]
		}
		if groups[group] == nil {
			groups[group] = map[string]*Field{}
		}
		groups[group][key] = f
	}
	groups[""]["model"] = nil
	groups[""]["request"] = nil
	groups[""]["head"] = nil
	groups[""]["fc2"] = nil
	groups[""]["budget"] = nil
	groups[""]["changes"] = nil
	groups[""]["baseline"] = nil
	groups[""]["terms"] = termsKey
	groups["request"]["outputs"] = nil
	groups[""]["observed"] = observedKey
	groups[""]["art"] = nil
	groups[""]["profile"] = profileKey
	groups[""]["profile_memory"] = profileMemoryKey
	groups[""]["resident"] = residentKey
}

// observedKey marks the top-level key "observed", an array read by
// decodeObserved rather than a field or a group.
var observedKey = &Field{Path: "observed"}

// termsKey stands for the "terms" list among the keys of a config, read by
// decodeTerms rather than as a field or a group.
var termsKey = &Field{Path: "terms", Key: "terms"}

// DecodeConfig reads a config in the interchange format of docs/model.md §6.
// Omitted fields take their defaults (Default()); unknown keys, values of
// the wrong type, fractions and numbers beyond int64 are errors naming the
// field. Ranges are checked too: a config that decodes is valid. The
// error is an ErrorList.
func DecodeConfig(data []byte) (Config, error) {
	return decodeConfigOnto(Default(), data)
}

// DecodeConfigUnresolved is DecodeConfig without its last check, that
// the config resolves (ResolveRevisions): for a caller that sets fields
// before it checks, as the command line's -expert_parallel does for a
// config whose weights fit only at another expert parallelism. The
// fields are decoded and range-checked as DecodeConfig does them.
func DecodeConfigUnresolved(data []byte) (Config, error) {
	c, err := decodeFields(data)
	if err != nil {
		return c, err
	}
	applyAbsentRules(&c)
	return c, nil
}

// decodeFields is data's fields over the defaults, each decoded and
// range-checked, with no rule between fields applied yet; the defaults
// and an ErrorList when any field is wrong.
func decodeFields(data []byte) (Config, error) {
	c := Default()
	if len(data) > MaxInputBytes {
		return c, ErrorList{{Field: "config", Message: "is larger than " + Group(MaxInputBytes) + " bytes"}}
	}
	var errs ErrorList
	if err := decodeGroup(&c, "", data, &errs); err != nil {
		return Default(), ErrorList{err}
	}
	if len(errs) > 0 {
		return Default(), errs
	}
	return c, nil
}

// decodeConfigOnto is DecodeConfig with the fields the JSON omits taken
// from base instead of the defaults. A "baseline" in the JSON replaces
// base's whole (its overrides are not merged); "baseline": null removes it.
func decodeConfigOnto(base Config, data []byte) (Config, error) {
	c := base
	if len(data) > MaxInputBytes {
		return base, ErrorList{{Field: "config", Message: "is larger than " + Group(MaxInputBytes) + " bytes"}}
	}
	var errs ErrorList
	if err := decodeGroup(&c, "", data, &errs); err != nil {
		return base, ErrorList{err}
	}
	if len(errs) > 0 {
		return base, errs
	}
	applyAbsentRules(&c)
	if _, err := c.ResolveRevisions(); err != nil {
		return base, err
	}
	return c, nil
}

// decodeGroup decodes one JSON object of the format into c. A syntax error
// is returned; field errors are appended to errs.
func decodeGroup(c *Config, group string, data []byte, errs *ErrorList) *Error {
	name := group
	if name == "" {
		name = "config"
	}
	obj, err := decodeObject(data)
	if err != nil {
		return &Error{Field: name, Message: err.Error()}
	}
	known := groups[group]
	if group == "model" {
		notePresent(&c.Model, obj)
	}
	for _, key := range sortedKeys(obj) {
		raw := obj[key]
		path := key
		if group != "" {
			path = group + "." + key
		}
		f, ok := known[key]
		if !ok && group == "model" && isArchKey(key) {
			if e := decodeArchKey(c.Model.ArchFields, key, raw); e != nil {
				*errs = append(*errs, e)
			}
			continue
		}
		if !ok {
			if key == "" || !printable(key) {
				path = namedKey(name, key) // an empty key would leave the message nameless
			}
			*errs = append(*errs, &Error{Field: path, Message: "is not a field of the config format; allowed here: " + strings.Join(sortedKeys(known), ", ")})
			continue
		}
		if f == observedKey {
			c.Observed = decodeObserved(raw, errs)
			continue
		}
		if f == residentKey {
			decodeResident(&c.Resident, "resident", raw, errs)
			continue
		}
		if f == termsKey {
			terms, termErrs := decodeTerms(raw)
			*errs = append(*errs, termErrs...)
			c.Terms = terms
			continue
		}
		if f == profileKey {
			p, e := decodeProfile(path, raw)
			if e != nil {
				*errs = append(*errs, e)
			}
			c.Profile = p
			continue
		}
		if f == profileMemoryKey {
			c.ProfileMemory = decodeProfileMemory(raw, errs)
			continue
		}
		if group == "" && key == "baseline" {
			decodeBaseline(c, raw, errs)
			continue
		}
		if f == nil { // a nested group
			if e := decodeGroup(c, path, raw, errs); e != nil {
				*errs = append(*errs, e)
			}
			continue
		}
		if e := decodeValue(c, f, raw); e != nil {
			*errs = append(*errs, e)
		}
	}
	return nil
}

// objectList reads a JSON list of objects strictly, for decodeObserved and
// decodeSplitFloors: null is no list (nil, false), as is anything but a JSON
// array (an error on field, "must be a JSON array of " + shape) or one of
// more than most entries (an error counting them in units). Otherwise it
// returns one object an entry, in order, with nil where an entry is not a
// JSON object (an error on item(i, "")), and true. Each caller checks an
// object's keys itself: which keys it allows, and how it names a stray one,
// are its own.
func objectList(raw json.RawMessage, field, shape string, most int64, units string, item func(i int, key string) string, errs *ErrorList) ([]map[string]json.RawMessage, bool) {
	s := bytes.TrimSpace(raw)
	if string(s) == "null" {
		return nil, false
	}
	var items []json.RawMessage
	if len(s) == 0 || s[0] != '[' || json.Unmarshal(s, &items) != nil {
		*errs = append(*errs, &Error{Field: field, Message: "must be a JSON array of " + shape + ", got " + clip(string(s))})
		return nil, false
	}
	if int64(len(items)) > most {
		*errs = append(*errs, &Error{Field: field, Message: "must hold at most " + Group(most) + " " + units + ", got " + Group(int64(len(items)))})
		return nil, false
	}
	objs := make([]map[string]json.RawMessage, len(items))
	for i, raw := range items {
		obj, err := decodeObject(raw)
		if err != nil {
			*errs = append(*errs, &Error{Field: item(i, ""), Message: err.Error()})
			continue
		}
		objs[i] = obj
	}
	return objs, true
}

// eachObjectKey reads the objects objectList returned: set takes every
// key of every object, in key order (each caller allows its own keys and
// names a stray one its own way), then each key of required an object
// lacks is reported as "is required", on item(i, key).
func eachObjectKey(objs []map[string]json.RawMessage, required []string, item func(i int, key string) string, errs *ErrorList, set func(i int, key string, v json.RawMessage)) {
	for i, obj := range objs {
		if obj == nil {
			continue
		}
		for _, key := range sortedKeys(obj) {
			set(i, key, obj[key])
		}
		requireKeys(obj, required, func(key string) string { return item(i, key) }, errs)
	}
}

// requireKeys reports each of keys that obj lacks as "is required", on the
// field item(key).
func requireKeys(obj map[string]json.RawMessage, keys []string, item func(key string) string, errs *ErrorList) {
	for _, key := range keys {
		if _, ok := obj[key]; !ok {
			*errs = append(*errs, &Error{Field: item(key), Message: "is required"})
		}
	}
}

// DecodeJSONObject reads data as one JSON object, its values left raw:
// empty data, a value that is not an object, invalid JSON ("is not
// valid JSON: ...") and anything after the object are errors saying so.
func DecodeJSONObject(data []byte) (map[string]json.RawMessage, error) {
	return decodeObject(data)
}

func decodeObject(data []byte) (map[string]json.RawMessage, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, errors.New("is empty; expected a JSON object")
	}
	if trimmed[0] != '{' {
		return nil, errors.New("must be a JSON object")
	}
	var obj map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(&obj); err != nil {
		return nil, errors.New("is not valid JSON: " + err.Error())
	}
	if dec.More() {
		return nil, errors.New("has more after the JSON object")
	}
	if key, ok := repeatedKey(trimmed[:dec.InputOffset()], len(obj)); ok {
		return nil, errors.New("has the key " + strconv.Quote(clip(key)) + " twice (a repeated key is refused, as workloads and reports refuse it, not read as its last value)")
	}
	return obj, nil
}

// repeatedKey is the first key the JSON object text holds twice, when it
// has more than distinct members (what a map of it keeps); eachMember
// finds the members as a workload line's are found.
func repeatedKey(text []byte, distinct int) (string, bool) {
	n := 0
	eachMember(text, func([]byte, bool, []byte) error { n++; return nil })
	if n == distinct {
		return "", false
	}
	seen := make(map[string]bool, n)
	var dup string
	errFound := errors.New("found")
	eachMember(text, func(key []byte, escaped bool, _ []byte) error {
		var name string
		if json.Unmarshal(key, &name) != nil {
			name = string(key)
		}
		if seen[name] {
			dup = name
			return errFound
		}
		seen[name] = true
		return nil
	})
	return dup, dup != "" || n != distinct
}

// decodeValue reads one leaf value strictly: an integer field takes a JSON
// integer, a boolean field true or false, an optional field also null (its
// default).
func decodeValue(c *Config, f *Field, raw json.RawMessage) *Error {
	s, err := decodeSetting(f, f.Path, raw)
	if err != nil {
		return err
	}
	switch {
	case f.Kind == BoolField:
		f.SetBool(c, s.Bool)
	case s.Default:
		f.Unset(c)
	default:
		f.SetInt(c, s.Int)
	}
	return nil
}

// decodeSetting reads one leaf value strictly, as decodeValue does; path
// names the field in the error.
func decodeSetting(f *Field, path string, raw json.RawMessage) (Setting, *Error) {
	s := string(bytes.TrimSpace(raw))
	if f.Kind == BoolField {
		switch s {
		case "true":
			return Setting{Bool: true}, nil
		case "false":
			return Setting{}, nil
		}
		return Setting{}, &Error{Field: path, Message: "must be true or false, got " + clip(s)}
	}
	if s == "null" && f.Optional {
		return Setting{Default: true}, nil
	}
	v, e := parseJSONInt(f, s)
	if e != nil {
		e.Field = path
		return Setting{}, e
	}
	return Setting{Int: v}, nil
}

// parseJSONInt reads the JSON value s (trimmed) of an integer field
// strictly: a JSON integer literal within int64, whose range is checked
// later. The message names f and what it allows.
func parseJSONInt(f *Field, s string) (int64, *Error) {
	if s == "" || !(s[0] == '-' || isDigit(s[0])) {
		return 0, &Error{Field: f.Path, Message: f.Allowed() + ", got " + clip(s)}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, &Error{Field: f.Path, Message: numberProblem(s) + "; " + f.Allowed() + ", got " + clip(s)}
	}
	return v, nil
}

// numberProblem says why a JSON number literal that is not an int64 was
// refused.
func numberProblem(s string) string {
	fl, err := strconv.ParseFloat(s, 64)
	switch {
	case err == nil && math.Trunc(fl) == fl && math.Abs(fl) < 1<<63:
		return "must be written as a whole number, without a fraction or exponent"
	case err == nil && math.Trunc(fl) != fl:
		return "must be a whole number"
	}
	return "is beyond the range of a 64-bit integer"
}

func clip(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// MarshalConfig writes c in the interchange format, indented. Optional
// fields left to their defaults are omitted, so they keep following the
// fields they derive from when the JSON is read back.
func MarshalConfig(c Config) []byte {
	b, _ := json.MarshalIndent(c, "", "  ") // a Config always marshals
	return b
}

// TopLevelKeys lists, sorted, the keys a config in the interchange format
// may hold at its top (the groups, the profile, terms, observed points and
// the rest): a reader that must tell this format from a Hugging Face
// config.json asks it rather than keeping a list of its own.
func TopLevelKeys() []string { return sortedKeys(groups[""]) }
