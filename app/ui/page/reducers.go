package page

import (
	"net/url"
	"strconv"
	"strings"

	"headroom/estimator"
	"headroom/estimator/urlquery"
)

// The reducers below are the writers of the page's state besides Apply's
// edits of a control: the map's click and drag (ApplyMap), a workload
// line loaded (LoadShape), a file imported (Import) and Back or Forward
// (Restore). Each is the whole change the explorer makes to the state for
// that event: the explorer only schedules the render and writes the
// browser's side (history, the address bar, the banner).

// ApplyMap is the reducer of an edit of the "Two inputs" view (Apply
// hands it a map edit): the view, an axis, a range, the columns, or a
// click on the map (EditMapClick, Text "x,y"), which sets the map's two
// fields as typing each value would. drawn is the config the map is drawn
// for: the state's own while it prices (CfgOK), else the last valid one
// the page shows (the explorer's); a range that follows the config is
// filled from it.
//
// The state is not Settled: a map edit changes the map's part of the
// address, which the explorer decodes (OpenedBy is false after it).
func (s *State) ApplyMap(e Edit, drawn estimator.Config) {
	s.settled = false
	if e.Kind == EditMapClick {
		s.moveTo(e.Text)
	} else {
		s.Map.Set(e.Key, e.Text, drawn)
	}
	s.Validate()
	s.Map.Check(s.Cfg)
}

// moveTo sets the map's two fields to "x,y", as typing each value would
// (in_use_bytes exactly, not through its GiB text). A point that does not
// parse changes nothing past the field it reached.
func (s *State) moveTo(xy string) {
	parts := strings.Split(xy, ",")
	if len(parts) != 2 {
		return
	}
	for i, key := range []string{s.Map.X, s.Map.Y} {
		v, err := strconv.ParseInt(parts[i], 10, 64)
		if err != nil {
			return
		}
		if key == estimator.KeyInUseBytes {
			s.Forget(KeyInUseGiB)
			s.Cfg.Budget.InUseBytes = v
			continue
		}
		s.SetText(key, strconv.FormatInt(v, 10))
	}
}

// MapConfig is the config the map is computed for: the state's when it
// can be priced, else shown (the last valid one on screen) when shownOK.
func (s *State) MapConfig(shown estimator.Config, shownOK bool) (estimator.Config, bool) {
	if s.CfgOK {
		return s.Cfg, true
	}
	return shown, shownOK
}

// shapeKeys are the URL keys a workload line's shape sets (in_use_gib is
// the in-use field's typed text, which the line replaces).
var shapeKeys = []string{"rows", "sequence_rows", "projected_rows", "target_rows", estimator.KeyInUseBytes, KeyInUseGiB}

// LoadShape is the reducer of a workload line loaded into the page: the
// request and in-use fields become those the replay priced the line with
// (Shape.Config on base, the config the replay ran against), everything
// else stays as it is, and the state is the one its address opens. A
// shape base does not take leaves the state as it was, with the error.
func (s *State) LoadShape(base estimator.Config, sh estimator.Shape, list []Preset) error {
	cfg, err := sh.Config(base)
	if err != nil {
		return err
	}
	q := s.Query(list)
	want := urlquery.Encode(cfg)
	for _, k := range shapeKeys {
		q.Del(k)
		if v, ok := want[k]; ok {
			q[k] = v
		}
	}
	*s = decode(q, list, nil, s.memo)
	return nil
}

// Import is the reducer of a file pasted, picked or dropped (ImportJSON
// reads it, WithImport says what it leads to): the state becomes the
// settled state the import leads to, and the report says what changed.
// A refused file leaves the state as it was and ok false, the report
// saying why.
func (s *State) Import(data []byte, list []Preset) (rep ImportReport, ok bool) {
	imp, err := ImportJSON(s.Cfg, data)
	if err != nil {
		return ImportReport{Err: err.Error()}, false
	}
	next, err := s.WithImport(imp, list)
	if err != nil {
		return ImportReport{Err: err.Error()}, false
	}
	*s = next.Settled(list)
	return ReportOf(imp, s, list), true
}

// Restore is the reducer of Back and Forward: the state becomes the one
// the address query (encoded, no "?") opens. A query that does not parse
// leaves the state as it was, and ok false.
func (s *State) Restore(query string, list []Preset) (ok bool) {
	q, err := url.ParseQuery(query)
	if err != nil {
		return false
	}
	*s = decode(q, list, nil, s.memo)
	return true
}
