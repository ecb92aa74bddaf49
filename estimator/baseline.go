package estimator

import (
	"encoding/json"
	"strings"
)

// Baseline is a baseline of the user's own (docs/model.md §11): the config a
// comparison puts beside the candidate. Without one (Config.Baseline nil)
// the baseline is the config with the three changes off.
type Baseline struct {
	// Changes are the baseline's toggles, each false unless set.
	Changes Changes `json:"changes"`
	// Overrides are the fields whose value differs for the baseline.
	Overrides Overrides `json:"overrides"`
	// Resident, when set, is the baseline's own resident group (in JSON
	// under overrides, docs/model.md §14.4); nil: the config's.
	Resident *ResidentConfig `json:"-"`
}

// Overrides are the fields a baseline sets differently from the config,
// keyed by path ("budget.capacity_bytes"): fields of the groups model,
// request, head, fc2 and budget, and allocator_round_bytes; never the
// changes (the baseline's are Baseline.Changes). In JSON they are nested
// like a config ({"budget": {"capacity_bytes": 85020000000}}).
type Overrides map[string]Setting

// Setting is the value an override gives one field: Int for an integer
// field, Bool for a boolean one. Default (an optional field only, written
// null in JSON and "auto" in a URL) returns the field to its default,
// derived from the baseline's own fields.
type Setting struct {
	Int     int64
	Bool    bool
	Default bool
	// Text is the value of an override of "profile" (docs/model.md §13.1):
	// "seeds" or "art".
	Text string
}

// baselinePrefix names the baseline's fields in errors.
const baselinePrefix = "baseline.overrides."

// Overridable reports whether a baseline of its own may override f
// (docs/model.md §11): every field but the changes, which are the
// baseline's toggles (and the lists observed and terms, which are not
// fields).
func (f *Field) Overridable() bool {
	return f != observedKey && f != termsKey && f != profileMemoryKey && !strings.HasPrefix(f.Path, "changes.")
}

// BaselineConfig returns the baseline's config: c with the baseline's
// overrides applied and its changes in place of c's (all off without a
// baseline). Optional fields that neither c nor an override sets keep
// following their fields, so the baseline's defaults are resolved after
// the overrides: a baseline that overrides hidden_size gets its own
// output_width and retained_per_row_bytes unless they are set.
//
// Nothing else moves with an override: an override of rows leaves an
// explicit projected_rows or target_rows of c as it is (a baseline whose
// rows fall below them is invalid, and the error says so); override them
// too, or set them to null to follow the baseline's rows.
//
// The error names an override that is not a field of the format, or a
// Default setting of a field that has no default, as
// "baseline.overrides.<path>". Ranges are checked by Resolve.
func (c Config) BaselineConfig() (Config, error) {
	b := c
	b.Baseline = nil
	b.Changes = Changes{}
	if c.Baseline == nil {
		return b, nil
	}
	b.Changes = c.Baseline.Changes
	overrideResident(&b, c.Baseline)
	var errs ErrorList
	for _, path := range sortedKeys(c.Baseline.Overrides) {
		if path == profileKey.Path { // a string, not a field of the registry
			b.Profile = c.Baseline.Overrides[path].Text
			if b.Profile == ProfileSeeds {
				b.Profile = ""
			}
			continue
		}
		f, ok := fieldByPath[path]
		if !ok || !f.Overridable() {
			errs = append(errs, &Error{Field: baselinePrefix + path, Message: "is not a field a baseline can override; allowed: the fields of model, request, head, fc2, budget and allocator_round_bytes"})
			continue
		}
		s := c.Baseline.Overrides[path]
		switch {
		case f.Kind == BoolField:
			f.SetBool(&b, s.Bool)
		case s.Default && !f.Optional:
			errs = append(errs, &Error{Field: baselinePrefix + path, Message: "has no default to return to; " + f.Allowed()})
		case s.Default:
			f.Unset(&b)
		default:
			f.SetInt(&b, s.Int)
		}
	}
	if !isArt(b.Profile) && c.usesArt() {
		b.ProfileMemory = nil // a seeds revision ignores it (§13.1)
	}

	if len(errs) > 0 {
		return b, errs
	}
	return b, nil
}

// Revisions are the two resolved configs of one config, one per revision:
// Rev[0] the baseline's, Rev[1] the candidate's (the index a Point, a Flip
// list and Sweeper.Flips use). Own is set when the config has a baseline
// of its own (Config.Baseline); without one Rev[0] is Rev[1] with the
// changes off, and both revisions are priced as one config, as before
// docs/model.md §11.
//
// Each revision is priced with its own Resolved: its own budget, model,
// request and changes, and its own defaults. Build them with
// Config.ResolveRevisions; move a field in both with Set, then Check.
type Revisions struct {
	Rev [2]Resolved
	Own bool
}

// ResolveRevisions validates c and its baseline and resolves both
// revisions. The candidate's errors come first, as Resolve reports them;
// then the baseline's, each named "baseline.overrides.<path>", less those
// that repeat one of the candidate's on a field the baseline does not
// override (the same mistake twice). An error comes with a zero
// Revisions.
func (c Config) ResolveRevisions() (Revisions, error) {
	var rv Revisions
	cand, err := c.Resolve()
	rv.Rev[1] = cand
	if c.Baseline == nil {
		if err != nil {
			return Revisions{}, err
		}
		rv.Rev[0] = cand
		rv.Rev[0].Changes = Changes{}
		return rv, nil
	}
	rv.Own = true
	errs := ErrorList(FieldErrors(err))
	bc, berr := c.BaselineConfig()
	if berr == nil {
		scope := uint8(0)
		if isArt(bc.Profile) != isArt(c.Profile) {
			scope = holdBaseline // the candidate's config checks the others
		}
		rv.Rev[0], berr = bc.resolveScoped(scope)
	}
	for _, e := range FieldErrors(berr) {
		if !strings.HasPrefix(e.Field, "baseline.") {
			_, overridden := c.Baseline.Overrides[e.Field]
			if !overridden && containsError(errs, e.Field, e.Message) {
				continue
			}
			if !configWide(e.Field) {
				e = &Error{Field: baselinePrefix + e.Field, Message: e.Message}
			}
		}
		errs = append(errs, e)
	}
	if len(errs) > 0 {
		return Revisions{}, errs
	}
	return rv, nil
}

// configWide reports whether an error of the baseline's config names a key
// no override can hold (the terms, the learned profile), which keeps its
// own name: a term's error names the term, "terms[0] (x): place ..."
// (docs/model.md §13.13).
func configWide(field string) bool {
	return strings.HasPrefix(field, termsKey.Path) || strings.HasPrefix(field, profileMemoryKey.Path)
}

func containsError(errs ErrorList, field, msg string) bool {
	for _, e := range errs {
		if e.Field == field && e.Message == msg {
			return true
		}
	}
	return false
}

// Set sets the field named key to v in both revisions, as a sweep along
// it does: an override of that field does not hold. key is an axis (see
// Axes) or projected_rows or target_rows. Setting rows carries each
// revision's projected and target rows in proportion to its own N, P and
// T (P' = ceil(v x P / N), T' = ceil(v x T / N)); to give them too (a
// workload line's projected_rows), Set them after rows. Every other field
// of each revision keeps its resolved value.
//
// Set checks v against the field's range (an *Error naming the field), not
// the limits that relate two fields: Check those once every field is set.
// On an error neither revision changes.
func (rv *Revisions) Set(key string, v int64) error {
	f, ok := fieldByKey[key]
	if !ok || rv.Rev[1].intField(key) == nil {
		return &Error{Field: key, Message: "is not a field that can be set in both revisions; allowed: " + strings.Join(axes, ", ") + ", projected_rows, target_rows"}
	}
	if v < f.Min || v > f.Max {
		return &Error{Field: f.Path, Message: f.Allowed() + ", got " + Group(v)}
	}
	for i := range rv.Rev {
		r := &rv.Rev[i]
		if key == "rows" && r.N >= 1 { // N >= 1 in any resolved config
			r.P = ceilDiv(v*r.P, r.N) // v, P <= 2^31 - 1
			r.T = ceilDiv(v*r.T, r.N)
		}
		*r.intField(key) = v
		r.inUseSet = r.inUseSet || key == "in_use_bytes"
	}
	return nil
}

// intField points at the field of r named key: an axis (AxisField), or
// projected_rows or target_rows; nil for any other name.
func (r *Resolved) intField(key string) *int64 {
	switch key {
	case "projected_rows":
		return &r.P
	case "target_rows":
		return &r.T
	}
	return r.AxisField(key)
}

// Check validates the limits that relate two fields (projected_rows <=
// rows, target_rows <= projected_rows, in_use_bytes <= capacity_bytes) in
// each revision: the candidate's errors as Resolve names them, then the
// baseline's (when it has its own config) as "baseline.overrides.<path>".
func (rv *Revisions) Check() error {
	var errs ErrorList
	errs = append(errs, rv.checkRev(1)...)
	if rv.Own {
		errs = append(errs, rv.checkRev(0)...)
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// checkRev is revision rev's cross-field errors, named for the revision.
func (rv *Revisions) checkRev(rev Revision) ErrorList {
	err := rv.Rev[rev].crossCheck()
	if err == nil {
		return nil
	}
	list := FieldErrors(err)
	if rev == 0 && rv.Own {
		for i, e := range list {
			list[i] = &Error{Field: baselinePrefix + e.Field, Message: e.Message}
		}
	}
	return list
}

// variant is how revision rev prices a piece: the candidate with its
// changes; the baseline with its own changes (all off without a baseline
// of its own).
func (rv *Revisions) variant(rev Revision) variant {
	if rev == 1 {
		return rv.Rev[1].candidateVariant()
	}
	v := baselineVariant()
	ch := rv.Rev[0].Changes
	v.eagerHead, v.fc2Known, v.gdnRelease = ch.HeadEagerWorkspace, ch.FC2KnownStorage, ch.GDNEarlyRelease
	return v
}

// revisionError names an overflow of the baseline's own config: the field
// "baseline", the product and the message.
func revisionError(e *Error, rev Revision, own bool) *Error {
	if e == nil || rev == 1 || !own {
		return e
	}
	return &Error{Field: "baseline", Message: e.Field + ": " + e.Message}
}

// MarshalJSON writes the overrides nested by group, as a config is:
// integers, booleans, and null for a Default setting.
func (o Overrides) MarshalJSON() ([]byte, error) {
	root := map[string]any{}
	for path, s := range o {
		f, ok := fieldByPath[path]
		var v any = s.Int
		switch {
		case path == profileKey.Path:
			v = s.Text
		case ok && f.Kind == BoolField:
			v = s.Bool
		case s.Default:
			v = nil
		}
		node := root
		parts := strings.Split(path, ".")
		for _, g := range parts[:len(parts)-1] {
			sub, ok := node[g].(map[string]any)
			if !ok {
				sub = map[string]any{}
				node[g] = sub
			}
			node = sub
		}
		node[parts[len(parts)-1]] = v
	}
	return json.Marshal(root)
}

// Clone returns a copy of b that shares no map with it, for a caller that
// edits a baseline a Config value shares with others.
func (b *Baseline) Clone() *Baseline {
	if b == nil {
		return nil
	}
	c := &Baseline{Changes: b.Changes, Overrides: make(Overrides, len(b.Overrides)), Resident: b.Resident}
	for k, v := range b.Overrides {
		c.Overrides[k] = v
	}
	return c
}

// Point prices both revisions as they are, as Sweeper.Point prices a point
// of a sweep (X is 0): each revision's decision, children, required,
// available and lower-bound bytes and the whole request's bytes, without
// the tensor breakdown or the reason Estimate writes. A revision whose
// limits do not Check, or whose plans overflow, is Invalid with the
// message; without a baseline of its own both are, together.
func (rv *Revisions) Point() Point {
	var pt Point
	if !rv.Own {
		if err := rv.checkRev(1); err != nil {
			return invalidPoint(0, err[0].Error())
		}
		e := newEvaluator(&rv.Rev[1])
		for rev := BaselineRev; rev <= CandidateRev; rev++ {
			priceRevision(e, rv.variant(rev), &pt.Rev[rev])
		}
		lower := e.lowerBound(rv.variant(1))
		lowerBase := lower
		if e.r.Art { // art's bound is each revision's own
			lowerBase = e.lowerBound(rv.variant(0))
		}
		if e.c.err != nil {
			return invalidPoint(0, e.c.err.Error())
		}
		pt.AvailableBytes, pt.LowerBoundBytes = rv.Rev[1].available(), lower
		for rev := BaselineRev; rev <= CandidateRev; rev++ {
			pt.Rev[rev].AvailableBytes, pt.Rev[rev].LowerBoundBytes = pt.AvailableBytes, lower
		}
		pt.Rev[0].LowerBoundBytes = lowerBase
		return pt
	}
	for rev := BaselineRev; rev <= CandidateRev; rev++ {
		pr := &pt.Rev[rev]
		if err := rv.checkRev(rev); err != nil {
			pr.Decision, pr.Error = Invalid, err[0].Error()
			continue
		}
		e := newEvaluator(&rv.Rev[rev])
		priceRevision(e, rv.variant(rev), pr)
		pr.AvailableBytes, pr.LowerBoundBytes = rv.Rev[rev].available(), e.lowerBound(rv.variant(rev))
		if e.c.err != nil {
			*pr = PointRevision{Decision: Invalid, Error: revisionError(e.c.err, rev, true).Error()}
		}
	}
	pt.AvailableBytes, pt.LowerBoundBytes = pt.Rev[1].AvailableBytes, pt.Rev[1].LowerBoundBytes
	if pt.Rev[0].Error != "" && pt.Rev[1].Error != "" {
		pt.Error = pt.Rev[1].Error
	}
	return pt
}
