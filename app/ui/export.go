package ui

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"

	"headroom/app/chart"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// exportFile is Headroom's own JSON export: the config and the estimate
// result in the spec's shapes, plus the view, so importing it restores the
// whole page.
type exportFile struct {
	Headroom int              `json:"headroom"` // format version, 1
	View     page.View        `json:"view"`
	Config   json.RawMessage  `json:"config"`
	Result   estimator.Result `json:"result"`
	Flips    *jsonFlips       `json:"flips,omitempty"` // along the chart's axis
}

// exportJSON writes the config, its estimate, the view and the flips of
// both revisions along the chart's axis (in, the chart's sweep).
func exportJSON(cfg estimator.Config, v page.View, in chart.Input) ([]byte, error) {
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
			h = append(h, rev+"_whole_"+s.String()+"_bytes")
		}
		h = append(h, rev+"_whole_retained_bytes", rev+"_required_bytes", rev+"_children", rev+"_decision")
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
	// csv.Writer keeps its first error; Error reports it after Flush.
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
	if err := w.Error(); err != nil {
		return nil, fmt.Errorf("writing the CSV: %w", err)
	}
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
