package ui

import (
	"errors"
	"net/url"
	"strconv"

	"headroom/app/chart"
	"headroom/estimator"
)

// The map view's URL and control keys: the view (one input or two), the
// map's two axes, their ranges and the number of columns. Each is also
// the id of its control, and error-<key> the id of the message beside it.
const (
	keyView    = "view"
	keyMX      = "mx"
	keyMXFrom  = "mxfrom"
	keyMXTo    = "mxto"
	keyMY      = "my"
	keyMYFrom  = "myfrom"
	keyMYTo    = "myto"
	keyMCols   = "mcols"
	viewMap    = "map"
	viewSingle = "single"
)

// mapKeys are the map view's keys, in the order the URL writes them.
var mapKeys = []string{keyView, keyMX, keyMXFrom, keyMXTo, keyMY, keyMYFrom, keyMYTo, keyMCols}

// isMapKey reports whether an edit's key is one of the map view's.
func isMapKey(k string) bool {
	for _, m := range mapKeys {
		if k == m {
			return true
		}
	}
	return false
}

// mapState is the map view's part of the page's state. A range not set by
// the user or the link follows the config (chart.DefaultRange of its
// axis), as the one-input chart's does. texts keeps what was typed or
// linked, errs why it was refused; the last good value stays meanwhile.
type mapState struct {
	on     bool // the "Two inputs" view is shown
	x, y   string
	xFrom  int64
	xTo    int64
	yFrom  int64
	yTo    int64
	xSet   bool // the x range was typed or linked: it stays
	ySet   bool
	cols   int
	texts  map[string]string
	errs   map[string]string // texts refused as they were read
	cerrs  map[string]string // what check found: the same axis twice, an empty range
	broken bool              // a range or the columns are refused: nothing new is computed
}

// newMapState is the default map: rows across, in_use_bytes up.
func newMapState() mapState {
	return mapState{x: "rows", y: "in_use_bytes", cols: estimator.DefaultColumns,
		texts: map[string]string{}, errs: map[string]string{}, cerrs: map[string]string{}}
}

// decodeMap reads the map view's keys from q for the config cfg. A bad
// value keeps its text, with its message, and the rest is kept.
func decodeMap(q url.Values, cfg estimator.Config) mapState {
	m := newMapState()
	if v := q.Get(keyView); v != "" {
		m.set(keyView, v, cfg)
	}
	for _, k := range []string{keyMX, keyMY, keyMXFrom, keyMXTo, keyMYFrom, keyMYTo, keyMCols} {
		if raw, ok := q[k]; ok && len(raw) > 0 {
			m.set(k, raw[len(raw)-1], cfg)
		}
	}
	m.check(cfg)
	return m
}

// encode writes the map view's keys into q: only what differs from the
// defaults, and the text of every refused value as it was typed.
func (m *mapState) encode(q url.Values, cfg estimator.Config) {
	if m.on {
		q.Set(keyView, viewMap)
	}
	if m.x != "rows" {
		q.Set(keyMX, m.x)
	}
	if m.y != "in_use_bytes" {
		q.Set(keyMY, m.y)
	}
	if m.xSet {
		q.Set(keyMXFrom, strconv.FormatInt(m.xFrom, 10))
		q.Set(keyMXTo, strconv.FormatInt(m.xTo, 10))
	}
	if m.ySet {
		q.Set(keyMYFrom, strconv.FormatInt(m.yFrom, 10))
		q.Set(keyMYTo, strconv.FormatInt(m.yTo, 10))
	}
	if m.cols != estimator.DefaultColumns {
		q.Set(keyMCols, strconv.Itoa(m.cols))
	}
	for k := range m.allErrs() {
		if t, ok := m.texts[k]; ok {
			q.Set(k, t)
		}
	}
}

// set applies one control's text. A range end that does not parse keeps
// its text and its message; one that parses is the range's, which then
// stays when the config changes.
func (m *mapState) set(key, text string, cfg estimator.Config) {
	delete(m.errs, key)
	delete(m.texts, key)
	switch key {
	case keyView:
		switch text {
		case viewMap:
			m.on = true
		case viewSingle, "":
			m.on = false
		default:
			m.texts[key], m.errs[key] = text, "is not a view: "+strconv.Quote(text)+" (map or single)"
		}
	case keyMX, keyMY:
		if _, ok := estimator.FieldByKey(text); !ok || !isAxis(text) {
			m.texts[key], m.errs[key] = text, "is not an axis: "+strconv.Quote(text)
			return
		}
		// A new axis starts from its default range: the old range's
		// texts and messages are of the other axis.
		ends := []string{keyMXFrom, keyMXTo}
		if key == keyMX {
			m.x, m.xSet = text, false
		} else {
			m.y, m.ySet = text, false
			ends = []string{keyMYFrom, keyMYTo}
		}
		for _, k := range ends {
			delete(m.texts, k)
			delete(m.errs, k)
		}
	case keyMXFrom, keyMXTo, keyMYFrom, keyMYTo:
		axis := m.x
		if key == keyMYFrom || key == keyMYTo {
			axis = m.y
		}
		v, err := parseAxisText(axis, text)
		if err != nil {
			m.texts[key], m.errs[key] = text, err.Error()
			return
		}
		m.texts[key] = text
		m.fillRanges(cfg)
		switch key {
		case keyMXFrom:
			m.xFrom, m.xSet = v, true
		case keyMXTo:
			m.xTo, m.xSet = v, true
		case keyMYFrom:
			m.yFrom, m.ySet = v, true
		case keyMYTo:
			m.yTo, m.ySet = v, true
		}
	case keyMCols:
		n, err := strconv.Atoi(text)
		if err != nil || n < 2 || n > estimator.MaxColumns {
			m.texts[key], m.errs[key] = text, "must be a whole number in 2.."+estimator.Group(estimator.MaxColumns)+", got "+strconv.Quote(text)
			return
		}
		m.cols = n
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
func (m *mapState) fillRanges(cfg estimator.Config) {
	if !m.xSet {
		m.xFrom, m.xTo = chart.DefaultRange(m.x, cfg)
	}
	if !m.ySet {
		m.yFrom, m.yTo = chart.DefaultRange(m.y, cfg)
	}
}

// check fills the ranges that follow the config and marks what the map
// cannot take: the same axis twice, an empty range. The errors of
// NewMapper land beside their controls (see mapErrKey).
func (m *mapState) check(cfg estimator.Config) {
	m.fillRanges(cfg)
	m.cerrs = map[string]string{}
	if m.x == m.y {
		m.cerrs[keyMY] = "must differ from the x axis, got " + m.y + " for both"
	}
	if m.xFrom > m.xTo {
		m.cerrs[keyMXTo] = "must not be below from (" + estimator.Group(m.xFrom) + "), got " + estimator.Group(m.xTo)
	}
	if m.yFrom > m.yTo {
		m.cerrs[keyMYTo] = "must not be below from (" + estimator.Group(m.yFrom) + "), got " + estimator.Group(m.yTo)
	}
	m.broken = len(m.errs)+len(m.cerrs) > 0
}

// allErrs is every message of the view's controls: the refused texts'
// first, then what check found.
func (m *mapState) allErrs() map[string]string {
	out := map[string]string{}
	for k, v := range m.cerrs {
		out[k] = v
	}
	for k, v := range m.errs {
		out[k] = v
	}
	return out
}

// axes are the map's axes and columns as NewMapper takes them.
func (m *mapState) axes() (x, y estimator.MapAxis, cols int) {
	return estimator.MapAxis{Axis: m.x, From: m.xFrom, To: m.xTo},
		estimator.MapAxis{Axis: m.y, From: m.yFrom, To: m.yTo}, m.cols
}

// text is what a control shows: the typed or linked text, else the value.
func (m *mapState) text(key string) string {
	if t, ok := m.texts[key]; ok {
		return t
	}
	switch key {
	case keyMXFrom:
		return strconv.FormatInt(m.xFrom, 10)
	case keyMXTo:
		return strconv.FormatInt(m.xTo, 10)
	case keyMYFrom:
		return strconv.FormatInt(m.yFrom, 10)
	case keyMYTo:
		return strconv.FormatInt(m.yTo, 10)
	case keyMCols:
		return strconv.Itoa(m.cols)
	}
	return ""
}

// mapErrKey is the control beside which a map error (a field of
// NewMapper's or Result's errors) is shown.
func mapErrKey(field string) string {
	switch field {
	case "x.axis":
		return keyMX
	case "y.axis":
		return keyMY
	case "x.from":
		return keyMXFrom
	case "x.to":
		return keyMXTo
	case "y.from":
		return keyMYFrom
	case "y.to":
		return keyMYTo
	case "columns":
		return keyMCols
	}
	return "map"
}
