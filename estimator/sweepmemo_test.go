package estimator

import "testing"

// TestSweepOverflowAtEveryPoint: a request whose pieces overflow is
// invalid at every point of a sweep that keeps the evaluator's sized
// pieces from point to point (the budget, the sequence length), as
// Estimate is there, not only at the first.
func TestSweepOverflowAtEveryPoint(t *testing.T) {
	c := Default()
	c.Request.Rows = 1<<31 - 1
	c.Request.SequenceRows = 1<<31 - 1
	c.Model.HiddenSize = 1 << 20
	c.Model.NumHiddenLayers = 1 << 20
	c.FC2.DtypeBytes = 8 // checkpoints: 2^43 bytes a row, 2^74 for the request
	if _, err := Estimate(c); err == nil {
		t.Fatal("Estimate: no overflow")
	}
	for _, tc := range []struct {
		name     string
		axis     string
		from, to int64
	}{
		{"in use", "in_use_bytes", 0, 10},
		{"capacity", "capacity_bytes", 1 << 40, 1<<40 + 600},
		{"sequence rows", "sequence_rows", 1<<31 - 20, 1<<31 - 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Sweep(c, tc.axis, tc.from, tc.to, 4)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Baseline.Flips) != 0 || len(res.Candidate.Flips) != 0 {
				t.Fatalf("flips %+v %+v, want none: invalid everywhere", res.Baseline.Flips, res.Candidate.Flips)
			}
			s, _ := NewSweeper(c, tc.axis)
			for _, x := range Grid(tc.from, tc.to, 4) {
				if pt := s.Point(x); pt.Error == "" {
					t.Fatalf("point %d valid: %+v", x, pt.Rev)
				}
			}
		})
	}
}
