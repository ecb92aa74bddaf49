package report

import (
	"strconv"
	"strings"

	"headroom/estimator"
)

// WindowRows gives each observed point of a snapshot's window the rows of
// its own child: a window whose label names "child N" (the annotation a
// trainer writes around each child's forward) is child N of the
// candidate's plan for cfg (estimator.Config.ChildRowsAt). Every window
// got the plan's largest child's rows, so two children of 33,706 and
// 31,196 rows fed the fit one figure twice. A point whose label names no
// child of the plan keeps its rows. pts is changed in place.
func WindowRows(cfg estimator.Config, pts []estimator.ObservedPoint) {
	res, err := estimator.Estimate(cfg)
	if err != nil {
		return
	}
	k := res.Candidate.Children
	for i := range pts {
		n, ok := childIndex(pts[i].Label)
		if !ok {
			continue
		}
		if rows, ok := cfg.ChildRowsAt(k, n); ok {
			pts[i].Rows = rows
		}
	}
}

// childIndex reads N from a label's "child N" (the first such word).
func childIndex(label string) (int64, bool) {
	fields := strings.Fields(label)
	for j := 0; j+1 < len(fields); j++ {
		if fields[j] != "child" {
			continue
		}
		if n, err := strconv.ParseInt(strings.TrimRight(fields[j+1], ":,;"), 10, 64); err == nil && n >= 0 {
			return n, true
		}
	}
	return 0, false
}
