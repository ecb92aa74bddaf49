package report

import (
	"strings"

	"headroom/estimator"
)

// SweepText is a sweep for a terminal: the axis and range, then each
// revision's decisions as stretches of the axis, to the range's end and
// no further (the sweep priced nothing past it):
//
//	Along rows, 1 to 700,334:
//	  baseline   admit 1..346,357, split 346,358..560,266, refuse 560,267..700,334
func SweepText(cfg estimator.Config, sw Sweep) string {
	var b strings.Builder
	b.WriteString("Along " + sw.Axis + ", " + estimator.Group(sw.From) + " to " + estimator.Group(sw.To) + ":\n")
	names := [2]string{"baseline", "candidate"}
	for i, flips := range [2][]estimator.Flip{sw.Baseline, sw.Candidate} {
		first := estimator.Invalid
		if len(sw.Points) > 0 {
			first = sw.Points[0].Rev[i].Decision
		}
		if len(flips) > 0 {
			first = flips[0].FromDecision
		}
		var parts []string
		from, d := sw.From, first
		for _, f := range flips {
			parts = append(parts, d.String()+" "+estimator.Group(from)+".."+estimator.Group(f.Last))
			from, d = f.First, f.ToDecision
		}
		parts = append(parts, d.String()+" "+estimator.Group(from)+".."+estimator.Group(sw.To))
		b.WriteString("  " + names[i] + strings.Repeat(" ", 10-len(names[i])) + " " + strings.Join(parts, ", ") + "\n")
	}
	b.WriteString("Candidate: " + strings.ReplaceAll(CandidateChanges(cfg), "`", "") + ".\n")
	return b.String()
}
