package ui

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"strings"

	"headroom/app/chart"
	"headroom/estimator"
)

// PageView is the part of the page's state that is not the config: which
// preset it started from and what the chart sweeps. It travels in the URL
// beside the config and in the JSON export.
type PageView struct {
	Preset string `json:"preset,omitempty"`
	Axis   string `json:"axis"`
	From   int64  `json:"from"`
	To     int64  `json:"to"`
}

// exportFile is Headroom's own JSON export: the config and the estimate
// result in the spec's shapes, plus the view, so importing it restores the
// whole page.
type exportFile struct {
	Headroom int              `json:"headroom"` // format version, 1
	View     PageView         `json:"view"`
	Config   json.RawMessage  `json:"config"`
	Result   estimator.Result `json:"result"`
	Flips    *jsonFlips       `json:"flips,omitempty"` // along the chart's axis
}

// exportJSON writes the config, its estimate, the view and the flips of
// both revisions along the chart's axis (in, the chart's sweep).
func exportJSON(cfg estimator.Config, v PageView, in chart.Input) ([]byte, error) {
	res, err := estimator.Estimate(cfg)
	if err != nil {
		return nil, err
	}
	f := exportFile{Headroom: 1, View: v, Config: estimator.MarshalConfig(cfg), Result: res}
	if in.Axis != nil {
		f.Flips = flipsOf(in)
	}
	return json.MarshalIndent(f, "", "  ")
}

// CSVHeader names the CSV columns: the row's kind ("grid" for a point of
// the chart's grid, "flip" for an exact flip point), x, then per revision
// each stage of the whole request, its retained bytes, the plan's required
// bytes, children and decision; then the lower bound, the available
// bytes, the error, and which flips a flip row is ("candidate last admit;
// candidate first split").
func CSVHeader(axis string) []string {
	h := []string{"kind", axis}
	for _, rev := range []string{"baseline", "candidate"} {
		for s := estimator.Stage(0); s < estimator.NumStages; s++ {
			h = append(h, rev+"_"+s.String()+"_bytes")
		}
		h = append(h, rev+"_retained_bytes", rev+"_required_bytes", rev+"_children", rev+"_decision")
	}
	return append(h, "lower_bound_bytes", "available_bytes", "error", "flip")
}

// ExportCSV writes the sweep behind the chart (in, cfg swept along its
// axis), exact bytes: one row per grid point and one per exact flip point
// (both sides of every flip of both revisions, priced by the estimator),
// sorted by x, a grid row before a flip row at the same x. An invalid
// point has empty byte columns, decision "invalid" and its message in the
// error column.
func ExportCSV(cfg estimator.Config, in chart.Input) ([]byte, error) {
	flipPts, labels, err := csvFlipRows(cfg, in)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(append(CSVHeader(in.Axis.Key), csvTermHeader(in.Terms)...))
	i, j := 0, 0
	for i < len(in.Points) || j < len(flipPts) {
		if j == len(flipPts) || (i < len(in.Points) && in.Points[i].X <= flipPts[j].X) {
			_ = w.Write(append(csvRow(csvGrid, &in.Points[i], ""), csvTermCells(in.Terms, &in.Points[i])...))
			i++
			continue
		}
		_ = w.Write(append(csvRow(csvFlip, &flipPts[j], labels[j]), csvTermCells(in.Terms, &flipPts[j])...))
		j++
	}
	w.Flush()
	return buf.Bytes(), nil
}

// csvRow is one CSV row of a point.
func csvRow(kind string, p *estimator.Point, flip string) []string {
	row := []string{kind, itoa(p.X)}
	for _, r := range p.Rev {
		if p.Error != "" || r.Error != "" { // a revision of its own may be invalid alone
			row = append(row, "", "", "", "", "", "", "", estimator.Invalid.String())
			continue
		}
		for _, b := range r.WholeStages {
			row = append(row, itoa(b))
		}
		row = append(row, itoa(r.WholeRetained), itoa(r.RequiredBytes), itoa(r.Children), r.Decision.String())
	}
	if p.Error != "" {
		row = append(row, "", "", p.Error)
	} else {
		row = append(row, itoa(p.LowerBoundBytes), itoa(p.AvailableBytes), "")
	}
	return append(row, flip)
}

// exportName is a file name for an export: the preset and axis, e.g.
// "qwen3-next-80b-a3b_rows.csv".
func exportName(preset, axis, ext string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(preset) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.':
			b.WriteRune(r)
		default:
			if s := b.String(); s != "" && !strings.HasSuffix(s, "-") {
				b.WriteByte('-')
			}
		}
	}
	name := strings.Trim(b.String(), "-.")
	if name == "" {
		name = "headroom"
	}
	return name + "_" + axis + "." + ext
}

// Imported is what a dropped or pasted JSON file turned out to be.
type Imported struct {
	Kind   string // "export" (Headroom's own), "config" (the spec's format) or "hf"
	Config estimator.Config
	View   *PageView          // set for an export
	HF     estimator.HFReport // set for "hf"
}

// ImportJSON reads a file a person dropped or pasted: Headroom's own
// export (the whole state), a config in the spec's format, or a Hugging
// Face config.json (estimator.ImportHFConfig: the model fields and
// dtype_bytes change, on top of current). A file that is not JSON is
// refused with the line and column of the fault. On an error nothing is
// returned to apply: the page keeps its state.
func ImportJSON(current estimator.Config, data []byte) (Imported, error) {
	if len(data) > estimator.MaxInputBytes {
		return Imported{}, errors.New("the file is larger than " + estimator.Group(estimator.MaxInputBytes) + " bytes; is it a config?")
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff")) // a byte order mark some editors write
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return Imported{}, errors.New("not a JSON object: " + estimator.JSONErrorText(data, err))
	}
	if _, ok := probe["headroom"]; ok {
		var f exportFile
		if err := json.Unmarshal(data, &f); err != nil {
			return Imported{}, errors.New("a Headroom export, but " + err.Error())
		}
		cfg, err := estimator.DecodeConfig(f.Config)
		if err != nil {
			return Imported{}, err
		}
		return Imported{Kind: "export", Config: cfg, View: &f.View}, nil
	}
	if isSpecConfig(probe) {
		cfg, err := estimator.DecodeConfig(data)
		if err != nil {
			return Imported{}, err
		}
		return Imported{Kind: "config", Config: cfg}, nil
	}
	cfg, rep, err := estimator.ImportHFConfig(current, data)
	if err != nil {
		return Imported{}, err
	}
	return Imported{Kind: "hf", Config: cfg, HF: rep}, nil
}

// isSpecConfig tells the spec's format (groups at the top) from a Hugging
// Face config.json (vocab_size, model_type at the top).
func isSpecConfig(probe map[string]json.RawMessage) bool {
	if len(probe) == 0 {
		return true // {} is the default config
	}
	for _, k := range estimator.TopLevelKeys() {
		if _, ok := probe[k]; ok {
			return true
		}
	}
	return false
}
