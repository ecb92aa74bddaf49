package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"headroom/estimator"
)

// Sweep is a config's sweep along one axis as the exports carry it: the
// grid's points, priced by the estimator, and both revisions' flips
// found from them (estimator.Sweeper's FlipsFromPoints).
type Sweep struct {
	Axis      string            // the axis' short name, "rows"
	From, To  int64             // the swept range
	Points    []estimator.Point // the grid, increasing X
	Baseline  []estimator.Flip  // flips of the baseline, increasing
	Candidate []estimator.Flip  // flips of the candidate, increasing
	Terms     []estimator.Term  // the config's terms: a stage term has columns of its own
}

// NewSweep sweeps cfg along axis over [from, to] on a grid of points, as
// the page's chart does (and estimator.Sweep, for the flips).
func NewSweep(cfg estimator.Config, axis string, from, to int64, points int) (Sweep, error) {
	if err := estimator.CheckRange(from, to, points); err != nil {
		return Sweep{}, err
	}
	s, err := estimator.NewSweeper(cfg, axis)
	if err != nil {
		return Sweep{}, err
	}
	sw := Sweep{Axis: axis, From: from, To: to, Terms: cfg.Terms}
	sw.Points = s.AppendPoints(nil, estimator.Grid(from, to, points))
	sw.Baseline = s.FlipsFromPoints(nil, sw.Points, estimator.BaselineRev)
	sw.Candidate = s.FlipsFromPoints(nil, sw.Points, estimator.CandidateRev)
	return sw, nil
}

// Flips is where each revision's decision changes along the sweep, as
// docs/model.md §6 writes a sweep (the sweep command's JSON, and the
// "flips" of the page's JSON export): empty lists, never null.
func (s Sweep) Flips() estimator.SweepResult {
	r := estimator.SweepResult{Axis: s.Axis, From: s.From, To: s.To}
	r.Baseline.Flips, r.Candidate.Flips = s.Baseline, s.Candidate
	if r.Baseline.Flips == nil {
		r.Baseline.Flips = []estimator.Flip{}
	}
	if r.Candidate.Flips == nil {
		r.Candidate.Flips = []estimator.Flip{}
	}
	return r
}

// ExportFile is Headroom's own JSON export: the config and the estimate
// result in the spec's shapes, plus the page's view, so importing it
// restores the whole page, and the flips along the chart's axis.
type ExportFile struct {
	Headroom int                    `json:"headroom"` // format version, 1
	View     any                    `json:"view"`     // the page's view (page.View)
	Config   json.RawMessage        `json:"config"`
	Result   estimator.Result       `json:"result"`
	Flips    *estimator.SweepResult `json:"flips,omitempty"` // along the chart's axis
}

// ExportJSON writes the config, its estimate, the view and, when sw is
// not nil, the flips of both revisions along its axis.
func ExportJSON(cfg estimator.Config, view any, sw *Sweep) ([]byte, error) {
	res, err := estimator.Estimate(cfg)
	if err != nil {
		return nil, err
	}
	f := ExportFile{Headroom: 1, View: view, Config: estimator.MarshalConfig(cfg), Result: res}
	if sw != nil {
		flips := sw.Flips()
		f.Flips = &flips
	}
	return json.MarshalIndent(f, "", "  ")
}

// SweepCSVHeader names the sweep CSV's columns: the row's kind ("grid" for a point of
// the chart's grid, "flip" for an exact flip point), x, then per revision
// each stage of the whole request, its retained bytes, the plan's required
// bytes, children and decision; then the lower bound, the available
// bytes, the error, and which flips a flip row is ("candidate last admit;
// candidate first split").
func SweepCSVHeader(axis string) []string {
	h := []string{"kind", axis}
	for _, rev := range []string{"baseline", "candidate"} {
		for s := estimator.Stage(0); s < estimator.NumStages; s++ {
			h = append(h, rev+"_whole_"+s.String()+"_bytes")
		}
		h = append(h, rev+"_whole_retained_bytes", rev+"_required_bytes", rev+"_children", rev+"_decision")
	}
	return append(h, "lower_bound_bytes", "available_bytes", "error", "flip")
}

// SweepCSV writes a sweep of cfg (the chart's, or NewSweep's), exact
// bytes: one row per grid point and one per exact flip point
// (both sides of every flip of both revisions, priced by the estimator),
// sorted by x, a grid row before a flip row at the same x. An invalid
// point has empty byte columns, decision "invalid" and its message in the
// error column.
func SweepCSV(cfg estimator.Config, in Sweep) ([]byte, error) {
	flipPts, labels, err := csvFlipRows(cfg, in)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	// csv.Writer keeps its first error; Error reports it after Flush.
	_ = w.Write(append(SweepCSVHeader(in.Axis), csvTermHeader(in.Terms)...))
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

// flipPoint is one exact point where a revision's decision changes: the
// last x of one decision or the first x of the next.
type flipPoint struct {
	X     int64
	Label string // "candidate last admit", "baseline first split"
}

// flipPoints lists both sides of every flip of both revisions, by x
// (baseline before candidate, last before first at the same x).
func flipPoints(in Sweep) []flipPoint {
	var out []flipPoint
	for i, flips := range [2][]estimator.Flip{in.Baseline, in.Candidate} {
		rev := [2]string{"baseline", "candidate"}[i]
		for _, f := range flips {
			out = append(out,
				flipPoint{f.Last, rev + " last " + f.FromDecision.String()},
				flipPoint{f.First, rev + " first " + f.ToDecision.String()})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].X < out[j].X })
	return out
}

// csvFlipRows prices the flip points of in (cfg swept along in's axis):
// one point per distinct x, with the labels of every flip side at that x
// joined by "; ". The points are the estimator's own, priced as the grid
// is, so a flip row reads like a grid row.
func csvFlipRows(cfg estimator.Config, in Sweep) ([]estimator.Point, []string, error) {
	fps := flipPoints(in)
	if len(fps) == 0 {
		return nil, nil, nil
	}
	s, err := estimator.NewSweeper(cfg, in.Axis)
	if err != nil {
		return nil, nil, err
	}
	var xs []int64
	var labels []string
	for _, fp := range fps {
		if n := len(xs); n > 0 && xs[n-1] == fp.X {
			labels[n-1] += "; " + fp.Label
			continue
		}
		xs, labels = append(xs, fp.X), append(labels, fp.Label)
	}
	return s.AppendPoints(nil, xs), labels, nil
}

// csvGrid and csvFlip mark a CSV row: a point of the chart's grid or an exact flip.
const (
	csvGrid = "grid"
	csvFlip = "flip"
)

// itoa writes an exact integer for the CSV.
func itoa(v int64) string { return strconv.FormatInt(v, 10) }
