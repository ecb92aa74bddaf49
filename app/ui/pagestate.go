package ui

import (
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"

	"headroom/app/chart"
	"headroom/estimator"
)

// Control keys beyond the estimator's field keys. A control key names an
// input (ids input-<key>, slider-<key>); an error key names the message
// beside it (id error-<key>). They differ only for in_use_bytes, which is
// typed in GiB.
const (
	KeyInUseGiB = "in_use_gib"
	keyFrom     = "axis-from"
	keyTo       = "axis-to"
	keyAxis     = "axis"
	keyGPU      = "gpu"
	keyPreset   = "preset"
	keyConfig   = "config" // an error that names no control
)

// The GPU menu's values.
const (
	gpuH200   = "h200"
	gpuH100   = "h100"
	gpuCustom = estimator.CustomGPU
)

// ChartPoints is the grid of the page's sweep before bisection.
const ChartPoints = estimator.DefaultPoints

// pageState is the explorer's input: everything the URL holds. cfg has
// every edit that parsed, so it may be invalid (rows 0, projected_rows
// above rows); texts keeps what the user typed, verbatim, so nothing typed
// is lost while it is wrong.
type pageState struct {
	cfg      estimator.Config
	axis     string
	from, to int64
	gpu      string
	texts    map[string]string // control key: text as typed, or as the URL had it
	inputErr map[string]string // error key: why that text is not in cfg
	errs     map[string]string // error key: inputErr plus what validate found
	valid    bool              // cfg and the range can be priced and swept
	cfgOK    bool              // cfg can be priced (the range may still be wrong)
	typed    bool              // the user (or the link) set the range: it stays when the config changes
	result   estimator.Result  // cfg's estimate, which validate computes; kept when valid
	lastTopK int64             // the k the top-k switch restores
	lastEP   int64             // the size the expert-parallel switch restores
	terms    []termDraft       // the Changes panel's terms (termsstate.go)
	// lastBaseline is the setup the Compare control restores when the
	// user goes back from "changes off" to "another setup".
	lastBaseline *estimator.Baseline
	mapS         mapState // the "Two inputs" view (mapstate.go)
}

func newPageState() pageState {
	s := pageState{
		cfg:      estimator.Default(),
		axis:     "rows",
		texts:    map[string]string{},
		inputErr: map[string]string{},
		lastTopK: 20,
		lastEP:   8,
		mapS:     newMapState(),
	}
	s.gpu = gpuFor(s.cfg.Budget.CapacityBytes)
	s.from, s.to = chart.DefaultRange(s.axis, s.cfg)
	s.validate()
	return s
}

// errorKey is the error key of a control.
func errorKey(control string) string {
	if baseKey(control) == KeyInUseGiB { // "in_use_gib" or the baseline's "b.in_use_gib"
		return strings.TrimSuffix(control, KeyInUseGiB) + "in_use_bytes"
	}
	return control
}

// controlKey is the control of an error key.
func controlKey(errKey string) string {
	if baseKey(errKey) == "in_use_bytes" {
		return strings.TrimSuffix(errKey, "in_use_bytes") + KeyInUseGiB
	}
	return errKey
}

// urlKey is the query key that carries a control's raw text.
func urlKey(control string) string {
	switch control {
	case keyFrom:
		return "from"
	case keyTo:
		return "to"
	}
	return control
}

// errorKeysOf maps an estimator error's Field (a path, or paths joined by
// " x " for an overflow) to error keys.
func errorKeysOf(field string) []string {
	var keys []string
	for _, p := range strings.Split(field, " x ") {
		if k, ok := baselineErrorKey(strings.TrimSpace(p)); ok {
			keys = append(keys, k)
		} else if f, ok := estimator.FieldByKey(strings.TrimSpace(p)); ok {
			keys = append(keys, f.Key)
		}
	}
	if len(keys) == 0 {
		keys = []string{keyConfig}
	}
	return keys
}

// gpuFor is the GPU menu entry of a capacity (estimator.GPUForCapacity:
// the estimator's GPU table is the one place that maps a GPU to its
// capacity).
func gpuFor(capacity int64) string { return estimator.GPUForCapacity(capacity).ID }

// gpuCapacity is the capacity of a GPU menu entry: 0 for custom, an error
// naming the entries for anything else.
func gpuCapacity(id string) (int64, error) {
	g, err := estimator.GPUByID(id)
	return g.CapacityBytes, err
}

// GiBText writes bytes in GiB with as many decimals as it takes for
// ParseGiB to read back the same byte count (a float64 holds any count up
// to 2^53 exactly, and its shortest decimal rounds back to it).
func GiBText(b int64) string {
	return strconv.FormatFloat(float64(b)/(1<<30), 'f', -1, 64)
}

// forget drops what the user typed into a control whose value something
// else (a menu, a switch, a preset) has just set.
func (s *pageState) forget(control string) {
	delete(s.texts, control)
	delete(s.inputErr, errorKey(control))
}

// setText applies text typed into a control (or sent by its slider).
func (s *pageState) setText(control, text string) {
	s.texts[control] = text
	ek := errorKey(control)
	delete(s.inputErr, ek)
	switch control {
	case KeyInUseGiB:
		v, err := estimator.ParseGiB(text)
		if err != nil {
			s.inputErr[ek] = err.Error()
			return
		}
		s.cfg.Budget.InUseBytes = v
		return
	case keyFrom, keyTo:
		s.typed = true
		v, err := s.parseAxisValue(text)
		if err != nil {
			s.inputErr[ek] = err.Error()
			return
		}
		if control == keyFrom {
			s.from = v
		} else {
			s.to = v
		}
		return
	}
	f, ok := estimator.FieldByKey(control)
	if !ok || f.Kind != estimator.IntField {
		delete(s.texts, control)
		return
	}
	if err := f.SetText(&s.cfg, text); err != nil {
		s.inputErr[ek] = messageOf(err)
		return
	}
	v, _ := f.Int(&s.cfg)
	switch control {
	case "capacity_bytes":
		s.gpu = gpuFor(v)
	case "topk":
		if v > 0 {
			s.lastTopK = v
		}
	case "expert_parallel":
		if v > 1 {
			s.lastEP = v
		}
	}
}

// parseAxisValue reads a range field's text as the axis field takes it
// (units included: "80GiB" along in_use_bytes, "64k" along rows).
func (s *pageState) parseAxisValue(text string) (int64, error) {
	if f, ok := estimator.FieldByKey(s.axis); ok {
		return f.Parse(text)
	}
	return estimator.ParseInt(text)
}

// commit ends an edit of a field (Enter, or the focus leaving it): a text
// the page read ("80GiB", "64k", "1,024") gives way to the value as the
// page writes it, the exact integer; a text in error stays as typed.
func (s *pageState) commit(control string) {
	if _, bad := s.inputErr[errorKey(control)]; bad {
		return
	}
	if _, bad := s.errs[errorKey(control)]; bad {
		return
	}
	delete(s.texts, control)
}

// setCheck applies a switch; using it replaces whatever text was in
// error there (a link's grad=maybe). top-k and expert parallelism are
// integers behind a switch: on restores the last value above "off".
func (s *pageState) setCheck(key string, on bool) {
	f, ok := estimator.FieldByKey(key)
	if !ok {
		return
	}
	s.forget(key)
	switch key {
	case "topk":
		f.SetInt(&s.cfg, map[bool]int64{true: s.lastTopK, false: 0}[on])
	case "expert_parallel":
		f.SetInt(&s.cfg, map[bool]int64{true: s.lastEP, false: 1}[on])
	default:
		if f.Kind == estimator.BoolField {
			f.SetBool(&s.cfg, on)
		}
	}
}

// setMenu applies a choice from the preset, GPU or axis menu.
//
// A value the menu does not offer (only a hand-edited link has one) is
// marked, and kept as the menu's text so the address keeps it, like a bad
// field value.
func (s *pageState) setMenu(key, value string, list []preset) {
	s.forget(key)
	bad := func(msg string) {
		s.inputErr[key] = msg
		s.texts[key] = value
	}
	switch key {
	case keyPreset:
		p, ok := findPreset(list, value)
		if !ok {
			bad("is not a preset: " + strconv.Quote(value))
			return
		}
		keep := s.baselineModel()
		p.applyTo(&s.cfg)
		for _, f := range presetFields() {
			s.forget(f.Key)
		}
		s.keepBaselineModel(keep)
		s.resetRange()
	case keyGPU:
		capacity, err := gpuCapacity(value)
		if err != nil {
			bad(err.Error())
			return
		}
		if capacity != 0 {
			s.cfg.Budget.CapacityBytes = capacity
		}
		s.gpu = value
		s.forget("capacity_bytes")
	case keyAxis:
		if !isAxis(value) {
			bad("must be one of " + strings.Join(estimator.Axes(), ", ") + ", got " + strconv.Quote(value))
			return
		}
		s.axis = value
		s.resetRange()
	}
}

// resetRange puts the axis range back to its default for the current
// config: the range follows a new axis or model, not every slider move.
func (s *pageState) resetRange() {
	s.from, s.to = chart.DefaultRange(s.axis, s.cfg)
	s.forget(keyFrom)
	s.forget(keyTo)
	s.typed = false
}

// followRange moves a range nobody typed to the default of the config as
// an edit of control left it (the in_use_bytes axis ends at the GPU just
// picked). A typed range stays (the "fit range" button puts it back to
// the default), and so does the range when the edit was of the swept
// field itself: dragging rows along rows moves the chart's marker, not
// its axis. A config that does not resolve leaves the range as it was.
func (s *pageState) followRange(control string) {
	if s.typed || errorKey(control) == s.axis || control == keyFrom || control == keyTo {
		return
	}
	if validConfig(s.cfg) != nil {
		return
	}
	s.from, s.to = chart.DefaultRange(s.axis, s.cfg)
}

// validate recomputes errs and valid from inputErr, the config and the
// range.
func (s *pageState) validate() {
	s.errs = make(map[string]string, len(s.inputErr)+2)
	for k, v := range s.inputErr {
		s.errs[k] = v
	}
	s.valid = true
	add := func(key, msg string) {
		s.valid = false
		if _, ok := s.errs[key]; !ok {
			s.errs[key] = msg
		}
	}
	// Every field the config fails on is marked, as a link's decoding
	// marks them (Repair finds them all; Estimate stops at the first), so
	// the address the page writes opens with the same messages.
	v := validated(s.cfg)
	for _, e := range v.bad {
		for _, k := range errorKeysOf(e.Field) {
			add(k, e.Message)
		}
	}
	// The estimate is how a config is validated (an overflow is found only
	// by pricing it); renderNow shows this one rather than pricing again.
	res, err := v.res, v.err
	s.cfgOK = err == nil
	if err == nil {
		s.result = res
	} else {
		for _, e := range estimator.FieldErrors(err) {
			keys := errorKeysOf(e.Field)
			if k, ok := s.termErrorKey(e.Field); ok {
				keys = []string{k}
			}
			for _, k := range keys {
				add(k, e.Message)
			}
		}
	}
	if err := estimator.CheckRange(s.from, s.to, ChartPoints); err != nil {
		for _, e := range estimator.FieldErrors(err) {
			switch e.Field {
			case "from":
				add(keyFrom, e.Message)
			case "to":
				add(keyTo, e.Message)
			default: // the grid size is not a control
				add(keyConfig, e.Error())
			}
		}
	}
	if f, ok := estimator.FieldByKey(s.axis); ok {
		if s.from < f.Min {
			add(keyFrom, "must be at least "+estimator.Group(f.Min)+" along "+s.axis+", got "+estimator.Group(s.from))
		}
		if s.to > f.Max {
			add(keyTo, "must be at most "+estimator.Group(f.Max)+" along "+s.axis+", got "+estimator.Group(s.to))
		}
	}
}

// messageOf is an error's message without the field name, which the page
// shows by placing it beside the field.
func messageOf(err error) string {
	if es := estimator.FieldErrors(err); len(es) == 1 {
		return es[0].Message
	}
	return err.Error()
}

func isAxis(name string) bool {
	for _, a := range estimator.Axes() {
		if a == name {
			return true
		}
	}
	return false
}

// text is what a control's input shows: the user's text, or the value.
func (s *pageState) text(control string) string {
	if t, ok := s.texts[control]; ok {
		return t
	}
	if strings.HasPrefix(control, baselineKeyPrefix) {
		return s.baselineText(control)
	}
	switch control {
	case KeyInUseGiB:
		return GiBText(s.cfg.Budget.InUseBytes)
	case keyFrom:
		return strconv.FormatInt(s.from, 10)
	case keyTo:
		return strconv.FormatInt(s.to, 10)
	}
	if f, ok := estimator.FieldByKey(control); ok {
		return f.Text(&s.cfg)
	}
	return ""
}

// validation is what validate learns of a config: the fields Repair
// finds bad, and the estimate.
type validation struct {
	cfg estimator.Config
	bad estimator.ErrorList
	res estimator.Result
	err error
}

// lastValidation is the last config validated, and what was learnt. An
// edit validates the same config several times (the edit, the state its
// address opens, the address itself, in apply, settled and address), each
// a Repair and an Estimate; the last one's are reused. Only a flat config
// is kept (no terms, observed points or baseline of its own): compared
// whole with reflect.DeepEqual, a few microseconds, it shares nothing a
// later edit could change.
var lastValidation atomic.Pointer[validation]

// validated returns Repair's and Estimate's findings for cfg.
func validated(cfg estimator.Config) *validation {
	flat := len(cfg.Terms) == 0 && len(cfg.Observed) == 0 && cfg.Baseline == nil
	if last := lastValidation.Load(); flat && last != nil && reflect.DeepEqual(last.cfg, cfg) {
		return last
	}
	v := &validation{cfg: cfg}
	_, v.bad = estimator.Repair(cfg)
	v.res, v.err = estimator.Estimate(cfg)
	if flat {
		lastValidation.Store(v)
	}
	return v
}
