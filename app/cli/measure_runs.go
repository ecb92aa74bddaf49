package cli

import (
	"fmt"
	"strings"

	"headroom/app/report"
	"headroom/estimator"
	"headroom/measure"
)

// MeasuredRuns is measure -snapshot A -snapshot B: each run as measure
// reads one, and each device of A beside the same device of B.
type MeasuredRuns struct {
	A       *MeasuredSnapshot          `json:"a"`
	B       *MeasuredSnapshot          `json:"b"`
	Devices []measure.DeviceComparison `json:"devices"`
}

func measureRuns(a, b string, cfg *estimator.Config, points int) (*MeasuredRuns, error) {
	ra, err := measureSnapshot(a, cfg, points)
	if err != nil {
		return nil, err
	}
	rb, err := measureSnapshot(b, cfg, points)
	if err != nil {
		return nil, err
	}
	return &MeasuredRuns{A: ra, B: rb, Devices: measure.CompareRuns(reports(ra), reports(rb))}, nil
}

func reports(s *MeasuredSnapshot) []measure.DeviceReport {
	out := make([]measure.DeviceReport, len(s.Devices))
	for i := range s.Devices {
		out[i] = s.Devices[i].DeviceReport
	}
	return out
}

// runsMarkdown is the two runs' comparison for a pull request.
func runsMarkdown(r *MeasuredRuns) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Two runs: A %s, B %s\n\n", report.MarkdownCell(r.A.File), report.MarkdownCell(r.B.File))
	for i, d := range r.Devices {
		fmt.Fprintf(&b, "### cuda:%d\n\n", d.Device)
		start := "equal"
		if !d.EqualStart {
			start = "different"
		}
		b.WriteString("| | A | B | B - A |\n|---|---:|---:|---:|\n")
		fmt.Fprintf(&b, "| allocated peak | %s | %s | %s |\n", gib(d.A.PeakBytes), gib(d.B.PeakBytes), estimator.Bytes(d.PeakDeltaBytes).DeltaString())
		fmt.Fprintf(&b, "| reserved peak | %s | %s | %s |\n", gib(d.A.ReservedPeakBytes), gib(d.B.ReservedPeakBytes), estimator.Bytes(d.ReservedDeltaBytes).DeltaString())
		fmt.Fprintf(&b, "| allocated before the trace (%s) | %s | %s | %s |\n", start, gib(d.A.InitialBytes), gib(d.B.InitialBytes),
			estimator.Bytes(delta(d.B.InitialBytes, d.A.InitialBytes)).DeltaString())
		fmt.Fprintf(&b, "| trace entries | %d | %d | %+d |\n", d.A.Events, d.B.Events, d.B.Events-d.A.Events)
		ea, eb := estimateOf(r.A, i, d.Device), estimateOf(r.B, i, d.Device)
		if ea != nil && eb != nil {
			for _, m := range [][2]measure.RevisionMatch{{ea.Baseline, eb.Baseline}, {ea.Candidate, eb.Candidate}} {
				fmt.Fprintf(&b, "| %s predicts (%s rows) | %s | %s | measured - predicted: A %s, B %s |\n", m[0].Revision, estimator.Group(m[0].Rows),
					gib(m[0].PredictedBytes), gib(m[1].PredictedBytes), estimator.Bytes(m[0].ResidualBytes).DeltaString(), estimator.Bytes(m[1].ResidualBytes).DeltaString())
			}
		}
		b.WriteString("\nThe blocks live at each peak, matched by top frame and size:\n\n| change | blocks | bytes (B - A for grown and shrunk) |\n|---|---:|---:|\n")
		groups := []struct {
			name string
			g    measure.BlockGroup
		}{{"unchanged", d.Unchanged}, {"only in A", d.OnlyA}, {"only in B", d.OnlyB}, {"grown", d.Grown}, {"shrunk", d.Shrunk}}
		for _, g := range groups {
			bytes := gib(g.g.Bytes)
			if g.name == "grown" || g.name == "shrunk" {
				bytes = estimator.Bytes(g.g.Bytes).DeltaString()
			}
			fmt.Fprintf(&b, "| %s | %d | %s |\n", g.name, g.g.Count, bytes)
		}
		const shown = 10
		rows := 0
		for _, g := range groups[1:] {
			rows += min(len(g.g.Blocks), shown)
		}
		if rows > 0 {
			fmt.Fprintf(&b, "\nThe largest changes (at most %d of each):\n\n| change | frame | A | B |\n|---|---|---:|---:|\n", shown)
			for _, g := range groups[1:] {
				for k, c := range g.g.Blocks {
					if k == shown {
						break
					}
					frame := "-"
					if c.Frame != "" {
						frame = report.MarkdownCode(c.Frame)
					}
					fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", g.name, frame, estimator.Group(c.ABytes), estimator.Group(c.BBytes))
				}
			}
		}
		if len(d.Windows) > 0 {
			b.WriteString("\n| window | A peak | B peak | B - A |\n|---|---:|---:|---:|\n")
			for _, w := range d.Windows {
				pa, pb, dd := "-", "-", "-"
				if w.A != nil {
					pa = gib(w.A.PeakBytes)
				}
				if w.B != nil {
					pb = gib(w.B.PeakBytes)
				}
				if w.A != nil && w.B != nil {
					dd = estimator.Bytes(w.DeltaBytes).DeltaString()
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", report.MarkdownCell(w.Label), pa, pb, dd)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// estimateOf is the estimate beside device dev of a run, if any.
func estimateOf(s *MeasuredSnapshot, _ int, dev int) *MeasuredEstimate {
	for _, d := range s.Devices {
		if d.Device == dev {
			return d.Estimate
		}
	}
	return nil
}

// delta is b - a of two byte counts (never negative, so it cannot
// overflow).
func delta(b, a int64) int64 { return b - a }
