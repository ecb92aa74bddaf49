package page

import (
	"errors"
	"net/url"
	"strconv"

	"headroom/estimator"
)

// The map view's URL and control keys: the view (one input or two), the
// map's two axes, their ranges and the number of columns. Each is also
// the id of its control, and error-<key> the id of the message beside it.
const (
	KeyView    = "view"
	KeyMX      = "mx"
	KeyMXFrom  = "mxfrom"
	KeyMXTo    = "mxto"
	KeyMY      = "my"
	KeyMYFrom  = "myfrom"
	KeyMYTo    = "myto"
	KeyMCols   = "mcols"
	ViewMap    = "map"
	ViewSingle = "single"
)

// MapState is the map view's part of the page's state. A range not set by
// the user or the link follows the config (DefaultRange of its
// axis), as the one-input chart's does. texts keeps what was typed or
// linked, errs why it was refused; the last good value stays meanwhile.
type MapState struct {
	On     bool // the "Two inputs" view is shown
	X, Y   string
	XFrom  int64
	XTo    int64
	YFrom  int64
	YTo    int64
	xSet   bool // the x range was typed or linked: it stays
	ySet   bool
	Cols   int
	Texts  map[string]string
	Errs   map[string]string // texts refused as they were read
	cerrs  map[string]string // what check found: the same axis twice, an empty range
	Broken bool              // a range or the columns are refused: nothing new is computed
}

// NewMapState is the default map: rows across, in_use_bytes up.
func NewMapState() MapState {
	return MapState{X: "rows", Y: estimator.KeyInUseBytes, Cols: estimator.DefaultColumns,
		Texts: map[string]string{}, Errs: map[string]string{}, cerrs: map[string]string{}}
}

// decodeMap reads the map view's keys from q for the config cfg. A bad
// value keeps its text, with its message, and the rest is kept.
func decodeMap(q url.Values, cfg estimator.Config) MapState {
	m := NewMapState()
	if v := q.Get(KeyView); v != "" {
		m.Set(KeyView, v, cfg)
	}
	for _, k := range []string{KeyMX, KeyMY, KeyMXFrom, KeyMXTo, KeyMYFrom, KeyMYTo, KeyMCols} {
		if raw, ok := q[k]; ok && len(raw) > 0 {
			m.Set(k, raw[len(raw)-1], cfg)
		}
	}
	m.Check(cfg)
	return m
}

// encode writes the map view's keys into q: only what differs from the
// defaults, and the text of every refused value as it was typed.
func (m *MapState) encode(q url.Values, cfg estimator.Config) {
	if m.On {
		q.Set(KeyView, ViewMap)
	}
	if m.X != "rows" {
		q.Set(KeyMX, m.X)
	}
	if m.Y != estimator.KeyInUseBytes {
		q.Set(KeyMY, m.Y)
	}
	if m.xSet {
		q.Set(KeyMXFrom, strconv.FormatInt(m.XFrom, 10))
		q.Set(KeyMXTo, strconv.FormatInt(m.XTo, 10))
	}
	if m.ySet {
		q.Set(KeyMYFrom, strconv.FormatInt(m.YFrom, 10))
		q.Set(KeyMYTo, strconv.FormatInt(m.YTo, 10))
	}
	if m.Cols != estimator.DefaultColumns {
		q.Set(KeyMCols, strconv.Itoa(m.Cols))
	}
	for k := range m.AllErrs() {
		if t, ok := m.Texts[k]; ok {
			q.Set(k, t)
		}
	}
}

// Set applies one control's text. A range end that does not parse keeps
// its text and its message; one that parses is the range's, which then
// stays when the config changes.
func (m *MapState) Set(key, text string, cfg estimator.Config) {
	delete(m.Errs, key)
	delete(m.Texts, key)
	switch key {
	case KeyView:
		switch text {
		case ViewMap:
			m.On = true
		case ViewSingle, "":
			m.On = false
		default:
			m.Texts[key], m.Errs[key] = text, "is not a view: "+strconv.Quote(text)+" (map or single)"
		}
	case KeyMX, KeyMY:
		if _, ok := estimator.FieldByKey(text); !ok || !isAxis(text) {
			m.Texts[key], m.Errs[key] = text, "is not an axis: "+strconv.Quote(text)
			return
		}
		// A new axis starts from its default range: the old range's
		// texts and messages are of the other axis.
		ends := []string{KeyMXFrom, KeyMXTo}
		if key == KeyMX {
			m.X, m.xSet = text, false
		} else {
			m.Y, m.ySet = text, false
			ends = []string{KeyMYFrom, KeyMYTo}
		}
		for _, k := range ends {
			delete(m.Texts, k)
			delete(m.Errs, k)
		}
	case KeyMXFrom, KeyMXTo, KeyMYFrom, KeyMYTo:
		axis := m.X
		if key == KeyMYFrom || key == KeyMYTo {
			axis = m.Y
		}
		v, err := parseAxisText(axis, text)
		if err != nil {
			m.Texts[key], m.Errs[key] = text, err.Error()
			return
		}
		m.Texts[key] = text
		m.fillRanges(cfg)
		switch key {
		case KeyMXFrom:
			m.XFrom, m.xSet = v, true
		case KeyMXTo:
			m.XTo, m.xSet = v, true
		case KeyMYFrom:
			m.YFrom, m.ySet = v, true
		case KeyMYTo:
			m.YTo, m.ySet = v, true
		}
	case KeyMCols:
		n, err := strconv.Atoi(text)
		if err != nil || n < 2 || n > estimator.MaxColumns {
			m.Texts[key], m.Errs[key] = text, "must be a whole number in 2.."+estimator.Group(estimator.MaxColumns)+", got "+strconv.Quote(text)
			return
		}
		m.Cols = n
	}
}

// parseAxisText reads a range end as the axis field takes it (units
// included: "80GiB" along in_use_bytes, "64k" along rows).
func parseAxisText(axis, text string) (int64, error) {
	f, ok := estimator.FieldByKey(axis)
	if !ok {
		return 0, errors.New("the axis " + strconv.Quote(axis) + " is unknown")
	}
	return f.Parse(text)
}

// fillRanges puts the default range of each axis not set by the user
// into the state, from cfg.
func (m *MapState) fillRanges(cfg estimator.Config) {
	if !m.xSet {
		m.XFrom, m.XTo = DefaultRange(m.X, cfg)
	}
	if !m.ySet {
		m.YFrom, m.YTo = DefaultRange(m.Y, cfg)
	}
}

// Check fills the ranges that follow the config and marks what the map
// cannot take: the same axis twice, an empty range. The errors of
// NewMapper land beside their controls (see MapErrKey).
func (m *MapState) Check(cfg estimator.Config) {
	m.fillRanges(cfg)
	m.cerrs = map[string]string{}
	if m.X == m.Y {
		m.cerrs[KeyMY] = "must differ from the x axis, got " + m.Y + " for both"
	}
	if m.XFrom > m.XTo {
		m.cerrs[KeyMXTo] = "must not be below from (" + estimator.Group(m.XFrom) + "), got " + estimator.Group(m.XTo)
	}
	if m.YFrom > m.YTo {
		m.cerrs[KeyMYTo] = "must not be below from (" + estimator.Group(m.YFrom) + "), got " + estimator.Group(m.YTo)
	}
	m.Broken = len(m.Errs)+len(m.cerrs) > 0
}

// AllErrs is every message of the view's controls: the refused texts'
// first, then what check found.
func (m *MapState) AllErrs() map[string]string {
	out := map[string]string{}
	for k, v := range m.cerrs {
		out[k] = v
	}
	for k, v := range m.Errs {
		out[k] = v
	}
	return out
}

// Axes are the map's Axes and columns as NewMapper takes them.
func (m *MapState) Axes() (x, y estimator.MapAxis, cols int) {
	return estimator.MapAxis{Axis: m.X, From: m.XFrom, To: m.XTo},
		estimator.MapAxis{Axis: m.Y, From: m.YFrom, To: m.YTo}, m.Cols
}

// Text is what a control shows: the typed or linked Text, else the value.
func (m *MapState) Text(key string) string {
	if t, ok := m.Texts[key]; ok {
		return t
	}
	switch key {
	case KeyMXFrom:
		return strconv.FormatInt(m.XFrom, 10)
	case KeyMXTo:
		return strconv.FormatInt(m.XTo, 10)
	case KeyMYFrom:
		return strconv.FormatInt(m.YFrom, 10)
	case KeyMYTo:
		return strconv.FormatInt(m.YTo, 10)
	case KeyMCols:
		return strconv.Itoa(m.Cols)
	}
	return ""
}

// MapErrKey is the control beside which a map error (a field of
// NewMapper's or Result's errors) is shown.
func MapErrKey(field string) string {
	switch field {
	case "x.axis":
		return KeyMX
	case "y.axis":
		return KeyMY
	case "x.from":
		return KeyMXFrom
	case "x.to":
		return KeyMXTo
	case "y.from":
		return KeyMYFrom
	case "y.to":
		return KeyMYTo
	case "columns":
		return KeyMCols
	}
	return "map"
}
