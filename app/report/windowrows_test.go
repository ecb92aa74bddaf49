package report

import (
	"testing"

	"headroom/estimator"
)

// TestWindowRowsPerChild: a snapshot's windows "child 0 forward" and
// "child 1 forward" of a two-child split both got the largest child's
// rows; each gets its own child's, and a window of no child keeps its
// rows.
func TestWindowRowsPerChild(t *testing.T) {
	cfg := estimator.Default()
	cfg.Request.Rows = 64902
	var res estimator.Result
	for gib := int64(140); gib > 8; gib-- { // the largest capacity that splits it in two
		cfg.Budget.CapacityBytes = gib << 30
		r, err := estimator.Estimate(cfg)
		if err == nil && r.Candidate.Children == 2 {
			res = r
			break
		}
	}
	if res.Candidate.Children != 2 {
		t.Fatal("no capacity splits the request in two: the test needs one")
	}
	c0, _ := cfg.ChildRowsAt(2, 0)
	c1, _ := cfg.ChildRowsAt(2, 1)
	if c0 == c1 || c0+c1 != 64902 || max(c0, c1) != res.Candidate.ChildRows {
		t.Fatalf("children %d and %d, largest %d", c0, c1, res.Candidate.ChildRows)
	}
	largest := res.Candidate.ChildRows
	pts := []estimator.ObservedPoint{
		{Rows: largest, PeakBytes: 1, Label: "cuda:0 child 0 forward"},
		{Rows: largest, PeakBytes: 1, Label: "cuda:0 child 1 forward"},
		{Rows: largest, PeakBytes: 1, Label: "cuda:0 optimizer step"},
		{Rows: largest, PeakBytes: 1, Label: "cuda:0 child 7 forward"}, // no child 7 in two
	}
	WindowRows(cfg, pts)
	if pts[0].Rows != c0 || pts[1].Rows != c1 || pts[2].Rows != largest || pts[3].Rows != largest {
		t.Errorf("rows %d %d %d %d, want %d %d %d %d", pts[0].Rows, pts[1].Rows, pts[2].Rows, pts[3].Rows, c0, c1, largest, largest)
	}
}
