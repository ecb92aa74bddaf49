package measure

import (
	"fmt"
	"sort"
	"strings"

	"headroom/estimator"
)

// MatchedTensor is one tensor the estimate prices, and the live block of
// the same size found for it at the peak (Addr -1: none).
type MatchedTensor struct {
	Name  string `json:"name"`
	Bytes int64  `json:"bytes"`
	Found bool   `json:"found"`
	Addr  int64  `json:"addr"`
}

// StageMatch is how many of a stage's priced tensors were live at the
// peak.
type StageMatch struct {
	Stage   string          `json:"stage"`
	Priced  int             `json:"priced"`
	Found   int             `json:"found"`
	Tensors []MatchedTensor `json:"tensors"`
	// Summary is "1 x D + 3 x 2D of the head, 4 of 4 priced tensors found".
	Summary string `json:"summary"`
}

// RevisionMatch compares one revision's estimate with a device's peak.
type RevisionMatch struct {
	Revision string `json:"revision"`
	// Rows is the piece the comparison prices: the largest child of the
	// revision's plan (the whole request when admitted).
	Rows int64 `json:"rows"`
	// PredictedBytes is docs/model.md §12's prediction for a piece of Rows rows
	// (in_use_bytes + retained + ephemeral, no safety, no reserve);
	// ResidualBytes is the measured peak less it.
	PredictedBytes int64 `json:"predicted_bytes"`
	ResidualBytes  int64 `json:"residual_bytes"`
	// Best is the stage with the largest share of its tensors found; All
	// lists every stage (and "retained").
	Best StageMatch   `json:"best"`
	All  []StageMatch `json:"stages"`
}

// Compare matches the blocks live at dev's peak, by exact size, with the
// tensors each revision's estimate of c prices for the piece that runs
// (the largest child of its plan: the stages and retained tensors of the
// estimate result), and predicts that piece's peak as docs/model.md §12 does.
// A block is matched to at most one tensor; a stage's tensors are matched
// in the result's order. Sizes compare block sizes, which the allocator
// rounds as the estimate rounds its tensors (allocator_round_bytes).
func Compare(c estimator.Config, dev *DeviceReport) ([2]RevisionMatch, error) {
	var out [2]RevisionMatch
	res, err := estimator.Estimate(c)
	if err != nil {
		return out, err
	}
	pred, err := estimator.NewPredictor(c)
	if err != nil {
		return out, err
	}
	for k, o := range []estimator.Outcome{res.Baseline, res.Candidate} {
		m := RevisionMatch{Revision: []string{"baseline", "candidate"}[k], Rows: o.ChildRows}
		rows := o.ChildRows
		if rows < 1 {
			rows = 1
		}
		peaks, err := pred.Peaks(rows)
		if err != nil {
			return out, err
		}
		m.PredictedBytes = peaks[k]
		m.ResidualBytes = dev.PeakBytes - peaks[k]
		stages := append(append([]estimator.StageBytes(nil), o.Stages...), o.Retained)
		for _, st := range stages {
			sm := matchStage(st, dev.LiveAtPeak)
			m.All = append(m.All, sm)
			if better(sm, m.Best) {
				m.Best = sm
			}
		}
		out[k] = m
	}
	return out, nil
}

// better prefers the larger share found, then more tensors found.
func better(a, b StageMatch) bool {
	if b.Priced == 0 {
		return a.Priced > 0
	}
	if a.Priced == 0 {
		return false
	}
	// a.Found/a.Priced > b.Found/b.Priced, exactly.
	l, r := a.Found*b.Priced, b.Found*a.Priced
	if l != r {
		return l > r
	}
	return a.Found > b.Found
}

func matchStage(st estimator.StageBytes, live []LiveBlock) StageMatch {
	sm := StageMatch{Stage: st.Name}
	used := make([]bool, len(live))
	for _, t := range st.Tensors {
		if t.Bytes <= 0 {
			continue
		}
		mt := MatchedTensor{Name: t.Name, Bytes: int64(t.Bytes), Addr: -1}
		for i, b := range live {
			if !used[i] && b.Size == int64(t.Bytes) {
				used[i], mt.Found, mt.Addr = true, true, b.Addr
				break
			}
		}
		sm.Priced++
		if mt.Found {
			sm.Found++
		}
		sm.Tensors = append(sm.Tensors, mt)
	}
	sm.Summary = summarize(sm)
	return sm
}

// summarize writes the found tensors grouped by size, largest count
// first: in units of the stage's smallest tensor D for the head ("1 x D +
// 3 x 2D of the head"), in bytes otherwise.
func summarize(sm StageMatch) string {
	if sm.Priced == 0 {
		return fmt.Sprintf("%s: no tensor priced", sm.Stage)
	}
	unit := int64(0)
	for _, t := range sm.Tensors {
		if unit == 0 || t.Bytes < unit {
			unit = t.Bytes
		}
	}
	count := map[int64]int{}
	var sizes []int64
	for _, t := range sm.Tensors {
		if t.Found {
			if count[t.Bytes] == 0 {
				sizes = append(sizes, t.Bytes)
			}
			count[t.Bytes]++
		}
	}
	sort.Slice(sizes, func(i, j int) bool { return sizes[i] < sizes[j] })
	var parts []string
	for _, s := range sizes {
		name := estimator.Group(s) + " bytes"
		if sm.Stage == "head" && s%unit == 0 {
			if k := s / unit; k == 1 {
				name = "D"
			} else {
				name = fmt.Sprintf("%dD", k)
			}
		}
		parts = append(parts, fmt.Sprintf("%d x %s", count[s], name))
	}
	found := "none"
	if len(parts) > 0 {
		found = strings.Join(parts, " + ")
	}
	of := "of the " + sm.Stage
	if sm.Stage == "retained" {
		of = "retained"
	}
	return fmt.Sprintf("%s %s, %d of %d priced tensors found", found, of, sm.Found, sm.Priced)
}

// ObservedPoints turns each window's peak (or, without windows, the
// device's peak) into a docs/model.md §12 point of rows rows, labelled with the
// device and the window. A device without history gives none, and a peak
// outside docs/model.md §12's 1..2^50 bytes is left out. Modelled as: every
// window ran a piece of the same rows (the command passes the rows of
// the piece the candidate's plan runs; a split's children differ a
// little).
func ObservedPoints(dev *DeviceReport, rows int64) []estimator.ObservedPoint {
	if !dev.History || rows < 1 {
		return nil
	}
	if len(dev.Windows) == 0 {
		if dev.PeakBytes < 1 || dev.PeakBytes > estimator.MaxObservedPeakBytes {
			return nil
		}
		return []estimator.ObservedPoint{{Rows: rows, PeakBytes: dev.PeakBytes, Label: truncate(fmt.Sprintf("cuda:%d peak", dev.Device), estimator.MaxObservedLabel)}}
	}
	var pts []estimator.ObservedPoint
	for _, w := range dev.Windows {
		if w.PeakBytes < 1 || w.PeakBytes > estimator.MaxObservedPeakBytes {
			continue
		}
		pts = append(pts, estimator.ObservedPoint{Rows: rows, PeakBytes: w.PeakBytes, Label: truncate(fmt.Sprintf("cuda:%d %s", dev.Device, w.Label), estimator.MaxObservedLabel)})
	}
	return pts
}
