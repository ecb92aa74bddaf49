package page

// Validation: what the page says is wrong with the state, and its
// config's Repair and Estimate, kept in the state for the next Validate
// of the same config.

import (
	"errors"
	"sort"

	"headroom/estimator"
)

// Validate recomputes Errs and Valid from InputErr, the config and the
// range.
func (s *State) Validate() {
	steps.validate.Add(1)
	s.Errs = make(map[string]string, len(s.InputErr)+2)
	for k, v := range s.InputErr {
		s.Errs[k] = v
	}
	// A field whose text does not parse leaves the config at another value
	// (its last, or a link's default): the state is not what was typed, and
	// the page keeps showing its last valid one, marked. A bad term or
	// observed point is only left out, as the Changes and Observed panels say:
	// the rest is what was typed.
	s.Valid = len(s.InvalidFields()) == 0
	add := func(key, msg string) {
		s.Valid = false
		if _, ok := s.Errs[key]; !ok {
			s.Errs[key] = msg
		}
	}
	// Every field the config fails on is marked, as a link's decoding
	// marks them (Repair finds them all; Estimate stops at the first), so
	// the address the page writes opens with the same messages.
	v := s.validated()
	noFit := "" // the message of the weights' not fitting, if that is a reason
	for _, e := range v.bad {
		if errors.Is(e, estimator.ErrWeightsDoNotFit) && noFit == "" {
			noFit = e.Message
		}
		for _, k := range errorKeysOf(e.Field) {
			add(k, e.Message)
		}
	}
	// The estimate is how a config is validated (an overflow is found only
	// by pricing it); renderNow shows this one rather than pricing again.
	res, err := v.res, v.err
	s.CfgOK = err == nil
	if err == nil {
		s.Result = res
	} else {
		for _, e := range estimator.FieldErrors(err) {
			if errors.Is(e, estimator.ErrWeightsDoNotFit) && noFit == "" {
				noFit = e.Message
			}
			keys := errorKeysOf(e.Field)
			if k, ok := s.termErrorKey(e.Field); ok {
				keys = []string{k}
			}
			for _, k := range keys {
				add(k, e.Message)
			}
		}
	}
	// The resident group's message is the weights' when nothing said
	// before them what is wrong there (a link's text that does not parse).
	s.noFit = ""
	if noFit != "" && s.Errs[KeyResident] == noFit {
		s.noFit = noFit
	}
	if err := estimator.CheckRange(s.From, s.To, ChartPoints); err != nil {
		for _, e := range estimator.FieldErrors(err) {
			switch e.Field {
			case "from":
				add(KeyFrom, e.Message)
			case "to":
				add(KeyTo, e.Message)
			default: // the grid size is not a control
				add(KeyConfig, e.Error())
			}
		}
	}
	if f, ok := estimator.FieldByKey(s.Axis); ok {
		if s.From < f.Min {
			add(KeyFrom, "must be at least "+estimator.Group(f.Min)+" along "+s.Axis+", got "+estimator.Group(s.From))
		}
		if s.To > f.Max {
			add(KeyTo, "must be at most "+estimator.Group(f.Max)+" along "+s.Axis+", got "+estimator.Group(s.To))
		}
	}
}

// InvalidFields are the controls whose text is not in the config (a term
// or an observed point is left out instead), sorted: what the page names
// while it shows its last valid state.
func (s *State) InvalidFields() []string {
	var keys []string
	for k := range s.InputErr {
		if _, term := termIndexOfKey(k); term || k == KeyObserved {
			continue
		}
		keys = append(keys, controlKey(k))
	}
	sort.Strings(keys)
	return keys
}

// MessageOf is an error's message without the field name, which the page
// shows by placing it beside the field.
func MessageOf(err error) string {
	if es := estimator.FieldErrors(err); len(es) == 1 {
		return es[0].Message
	}
	return err.Error()
}

// validation is what Validate learns of a config: the fields Repair
// finds bad, and the estimate.
type validation struct {
	cfg estimator.Config // a Clone: nothing a later edit changes
	bad estimator.ErrorList
	res estimator.Result
	err error
}

// validated returns Repair's and Estimate's findings for s.Cfg: the
// state's own when its config is still Equal to the one they are of (a
// Validate again after an edit that left the config as it was, or the
// state an edit's address opens, which Settled hands them to), else
// computed and kept in the state. Only the state holds them, and it
// holds only its last: no cache outlives the edit.
func (s *State) validated() *validation {
	if v := s.checked; v != nil && v.cfg.Equal(s.Cfg) {
		return v
	}
	v := &validation{cfg: s.Cfg.Clone()}
	_, v.bad = repair(s.Cfg)
	v.res, v.err = estimate(s.Cfg)
	s.checked = v
	return v
}

// estimateErr is Estimate's error for s.Cfg: the state's own finding when
// it is of an Equal config (decode's terms, checked before the rest of
// the link is read, are most often those the edit's state priced), else
// a fresh Estimate, not kept (the config may change again before
// Validate).
func (s *State) estimateErr() error {
	if v := s.checked; v != nil && v.cfg.Equal(s.Cfg) {
		return v.err
	}
	_, err := estimate(s.Cfg)
	return err
}
