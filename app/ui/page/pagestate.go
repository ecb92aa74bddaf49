package page

import (
	"strconv"
	"strings"

	"headroom/estimator"
)

// Control keys beyond the estimator's field keys. A control key names an
// input (ids input-<key>, slider-<key>); an error key names the message
// beside it (id error-<key>). They differ only for in_use_bytes, which is
// typed in GiB.
const (
	KeyInUseGiB = "in_use_gib"
	KeyFrom     = "axis-from"
	KeyTo       = "axis-to"
	KeyAxis     = "axis"
	KeyGPU      = "gpu"
	KeyPreset   = "preset"
	KeyConfig   = "config" // an error that names no control
)

// The GPU menu's values.
const (
	GPUH200   = "h200"
	GPUH100   = "h100"
	GPUCustom = estimator.CustomGPU
)

// ChartPoints is the grid of the page's sweep before bisection.
const ChartPoints = estimator.DefaultPoints

// State is the explorer's input: everything the URL holds. cfg has
// every edit that parsed, so it may be invalid (rows 0, projected_rows
// above rows); texts keeps what the user typed, verbatim, so nothing typed
// is lost while it is wrong.
type State struct {
	Cfg      estimator.Config
	Axis     string
	From, To int64
	GPU      string
	Texts    map[string]string // control key: text as typed, or as the URL had it
	InputErr map[string]string // error key: why that text is not in cfg
	Errs     map[string]string // error key: InputErr plus what Validate found
	Valid    bool              // every text parsed, and cfg and the range can be priced and swept
	CfgOK    bool              // cfg can be priced (the range may still be wrong)
	Typed    bool              // the user (or the link) set the range: it stays when the config changes
	Result   estimator.Result  // Cfg's estimate, which Validate computes; kept when valid
	noFit    string            // Errs[KeyResident] when it says the weights do not fit (WeightsDoNotFit)
	lastTopK int64             // the k the top-k switch restores
	lastEP   int64             // the size the expert-parallel switch restores
	Terms    []termDraft       // the Changes panel's terms (termsstate.go)
	// lastBaseline is the setup the Compare control restores when the
	// user goes back from "changes off" to "another setup".
	lastBaseline *estimator.Baseline
	Map          MapState // the "Two inputs" view (mapstate.go)
	// checked is what Validate learnt of the config it last checked
	// (validate.go); the state Settled opens, whose config is Equal,
	// prices nothing again.
	checked *validation
	// opened is the address query (encoded) that opens this state: set by
	// Settled, so that the explorer takes the state as the one its
	// address opens rather than decoding the address again (OpenedBy).
	opened  string
	settled bool // opened is set (the default state's address is "")
	// memo is the answers the state's costly questions had (memo.go),
	// shared with the states derived from it: Settled's, a Clone.
	memo *memos
}

// New is the page's state when the address says nothing: the default
// config, its range fitted, validated.
func New() State {
	s := newState()
	s.From, s.To = fitRange(s.memo, s.Axis, s.Cfg)
	s.Validate()
	return s
}

// newState is New before its range is fitted and its config validated:
// Decode starts from it, and fits and validates the config it decoded
// instead (the default config's fit and estimate would be thrown away).
func newState() State {
	s := State{
		Cfg:      NewConfig(),
		Axis:     "rows",
		Texts:    map[string]string{},
		InputErr: map[string]string{},
		lastTopK: 20,
		lastEP:   8,
		Map:      NewMapState(),
		memo:     &memos{},
	}
	s.GPU = GPUFor(s.Cfg.Budget.CapacityBytes)
	return s
}

// ErrorKey is the error key of a control.
func ErrorKey(control string) string {
	if baseKey(control) == KeyInUseGiB { // "in_use_gib" or the baseline's "b.in_use_gib"
		return strings.TrimSuffix(control, KeyInUseGiB) + estimator.KeyInUseBytes
	}
	return control
}

// controlKey is the control of an error key.
func controlKey(errKey string) string {
	if baseKey(errKey) == estimator.KeyInUseBytes {
		return strings.TrimSuffix(errKey, estimator.KeyInUseBytes) + KeyInUseGiB
	}
	return errKey
}

// urlKey is the query key that carries a control's raw text.
func urlKey(control string) string {
	switch control {
	case KeyFrom:
		return "from"
	case KeyTo:
		return "to"
	}
	return control
}

// errorKeysOf maps an estimator error's Field (a path, or paths joined by
// " x " for an overflow) to error keys.
func errorKeysOf(field string) []string {
	var keys []string
	for _, p := range strings.Split(field, " x ") {
		switch strings.TrimSpace(p) {
		case KeyProfile, KeyTerms:
			keys = append(keys, strings.TrimSpace(p))
			continue
		}
		if k, ok := residentErrorKey(strings.TrimSpace(p)); ok {
			keys = append(keys, k)
		} else if k, ok := baselineErrorKey(strings.TrimSpace(p)); ok {
			keys = append(keys, k)
		} else if f, ok := estimator.FieldByKey(strings.TrimSpace(p)); ok {
			keys = append(keys, f.Key)
		}
	}
	if len(keys) == 0 {
		keys = []string{KeyConfig}
	}
	return keys
}

// GPUFor is the GPU menu entry of a capacity (estimator.GPUForCapacity:
// the estimator's GPU table is the one place that maps a GPU to its
// capacity).
func GPUFor(capacity int64) string { return estimator.GPUForCapacity(capacity).ID }

// GPUCapacity is the capacity of a GPU menu entry: 0 for custom, an error
// naming the entries for anything else.
func GPUCapacity(id string) (int64, error) {
	g, err := estimator.GPUByID(id)
	return g.CapacityBytes, err
}

// GiBText is what the in-use field shows for a byte count, a text
// ParseGiB reads back as the same count: GiB with at most three decimals
// when that is exact ("63.75", "64"), else the exact bytes with their
// unit ("12,000,000,000 B"), never a float's noise such as
// 11.175870895385742. GiBNote says the GiB beside it.
func GiBText(b int64) string {
	if t := strconv.FormatFloat(float64(b)/(1<<30), 'f', -1, 64); gibDecimals(t) <= 3 {
		return t
	}
	return estimator.Group(b) + " B"
}

// gibDecimals is how many decimals a decimal text has.
func gibDecimals(t string) int {
	if i := strings.IndexByte(t, '.'); i >= 0 {
		return len(t) - i - 1
	}
	return 0
}

// GiBNote is a byte count as the page writes it everywhere: the exact
// bytes and GiB with three decimals, "12,000,000,000 bytes (11.176 GiB)".
func GiBNote(b int64) string { return estimator.Bytes(b).String() }

// Forget drops what the user typed into a control whose value something
// else (a menu, a switch, a preset) has just set.
func (s *State) Forget(control string) {
	delete(s.Texts, control)
	delete(s.InputErr, ErrorKey(control))
}

// SetText applies text typed into a control (or sent by its slider).
func (s *State) SetText(control, text string) {
	s.Texts[control] = text
	ek := ErrorKey(control)
	delete(s.InputErr, ek)
	switch control {
	case KeyInUseGiB:
		if strings.TrimSpace(text) == "" && s.Cfg.Resident != nil {
			// An emptied field is the auto the field shows: the
			// resident memory computed from the model.
			s.Cfg.Budget.InUseBytes = 0
			return
		}
		v, err := estimator.ParseGiB(text)
		if err != nil {
			s.InputErr[ek] = err.Error()
			return
		}
		s.Cfg.Budget.InUseBytes = v
		return
	case KeyFrom, KeyTo:
		s.Typed = true
		v, err := s.parseAxisValue(text)
		if err != nil {
			s.InputErr[ek] = err.Error()
			return
		}
		if control == KeyFrom {
			s.From = v
		} else {
			s.To = v
		}
		return
	}
	if isResidentKey(control) {
		s.setResidentText(control, text)
		return
	}
	f, ok := estimator.FieldByKey(control)
	if !ok || f.Kind != estimator.IntField {
		delete(s.Texts, control)
		return
	}
	if err := f.SetText(&s.Cfg, text); err != nil {
		s.InputErr[ek] = MessageOf(err)
		return
	}
	v, _ := f.Int(&s.Cfg)
	switch control {
	case estimator.KeyCapacityBytes:
		s.GPU = GPUFor(v)
	case "topk":
		if v > 0 {
			s.lastTopK = v
		}
	case estimator.KeyExpertParallel:
		if v > 1 {
			s.lastEP = v
		}
	}
}

// parseAxisValue reads a range field's text as the axis field takes it
// (units included: "80GiB" along in_use_bytes, "64k" along rows).
func (s *State) parseAxisValue(text string) (int64, error) {
	if f, ok := estimator.FieldByKey(s.Axis); ok {
		return f.Parse(text)
	}
	return estimator.ParseInt(text)
}

// Commit ends an edit of a field (Enter, or the focus leaving it): a text
// the page read ("80GiB", "64k", "1,024") gives way to the value as the
// page writes it, the exact integer; a text in error stays as typed.
func (s *State) Commit(control string) {
	if _, bad := s.InputErr[ErrorKey(control)]; bad {
		return
	}
	if _, bad := s.Errs[ErrorKey(control)]; bad {
		return
	}
	delete(s.Texts, control)
}

// SetCheck applies a switch; using it replaces whatever text was in
// error there (a link's grad=maybe). top-k and expert parallelism are
// integers behind a switch: on restores the last value above "off".
func (s *State) SetCheck(key string, on bool) {
	if key == KeyResident {
		s.SetResident(on)
		return
	}
	f, ok := estimator.FieldByKey(key)
	if !ok {
		return
	}
	s.Forget(key)
	switch key {
	case "topk":
		f.SetInt(&s.Cfg, map[bool]int64{true: s.lastTopK, false: 0}[on])
	case estimator.KeyExpertParallel:
		f.SetInt(&s.Cfg, map[bool]int64{true: s.lastEP, false: 1}[on])
	default:
		if f.Kind == estimator.BoolField {
			f.SetBool(&s.Cfg, on)
		}
	}
}

// SetMenu applies a choice from the preset, GPU or axis menu.
//
// A value the menu does not offer (only a hand-edited link has one) is
// marked, and kept as the menu's text so the address keeps it, like a bad
// field value.
func (s *State) SetMenu(key, value string, list []Preset) {
	s.Forget(key)
	bad := func(msg string) {
		s.InputErr[key] = msg
		s.Texts[key] = value
	}
	switch key {
	case KeyProfile:
		s.setProfile(value)
	case KeyPreset:
		p, ok := FindPreset(list, value)
		if !ok {
			bad("is not a preset: " + strconv.Quote(value))
			return
		}
		keep := s.baselineModel()
		p.ApplyTo(&s.Cfg)
		for _, f := range PresetFields() {
			s.Forget(f.Key)
		}
		s.Forget(KeyLoRATargets) // the new family's own list (ApplyTo)
		s.keepBaselineModel(keep)
		// The range follows the new model unless somebody typed it
		// (FollowRange, which the edit calls next): a typed range stays
		// until Fit range, as what the person chose to look at.
	case KeyGPU:
		capacity, err := GPUCapacity(value)
		if err != nil {
			bad(err.Error())
			return
		}
		if capacity != 0 {
			s.Cfg.Budget.CapacityBytes = capacity
		}
		s.GPU = value
		s.Forget(estimator.KeyCapacityBytes)
	case KeyAxis:
		if !isAxis(value) {
			bad("must be one of " + strings.Join(estimator.Axes(), ", ") + ", got " + strconv.Quote(value))
			return
		}
		s.Axis = value
		s.ResetRange()
	}
}

// ResetRange puts the axis range back to its default for the current
// config: the range follows a new axis or model, not every slider move.
func (s *State) ResetRange() {
	s.From, s.To = fitRange(s.memo, s.Axis, s.Cfg)
	s.Forget(KeyFrom)
	s.Forget(KeyTo)
	s.Typed = false
}

// FollowRange moves a range nobody typed to the default of the config as
// an edit of control left it (the in_use_bytes axis ends at the GPU just
// picked). A typed range stays (the "fit range" button puts it back to
// the default), and so does the range when the edit was of the swept
// field itself: dragging rows along rows moves the chart's marker, not
// its axis. A config that does not resolve leaves the range as it was.
func (s *State) FollowRange(control string) {
	if s.Typed || ErrorKey(control) == s.Axis || control == KeyFrom || control == KeyTo {
		return
	}
	if validConfig(s.Cfg) != nil {
		return
	}
	s.From, s.To = fitRange(s.memo, s.Axis, s.Cfg)
}

func isAxis(name string) bool {
	for _, a := range estimator.Axes() {
		if a == name {
			return true
		}
	}
	return false
}

// Text is what a control's input shows: the user's Text, or the value.
func (s *State) Text(control string) string {
	if t, ok := s.Texts[control]; ok {
		return t
	}
	if strings.HasPrefix(control, BaselineKeyPrefix) {
		return s.baselineText(control)
	}
	switch control {
	case KeyInUseGiB:
		return GiBText(s.Cfg.Budget.InUseBytes)
	case KeyFrom:
		return strconv.FormatInt(s.From, 10)
	case KeyTo:
		return strconv.FormatInt(s.To, 10)
	}
	if isResidentKey(control) {
		return s.residentText(control)
	}
	if f, ok := estimator.FieldByKey(control); ok {
		return f.Text(&s.Cfg)
	}
	return ""
}
