package estimator

import "testing"

// TestSweepOverflowAtEveryPoint: a request whose pieces overflow is
// invalid at every point of a sweep that keeps the evaluator's sized
// pieces from point to point (the budget, the sequence length), as
// Estimate is there, not only at the first.
func TestSweepOverflowAtEveryPoint(t *testing.T) {
	t.Parallel()
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

// TestSweepPathsMatchFreshPoints: along capacity_bytes and in_use_bytes a
// sweeper reuses a point's result over the available bytes where the
// ladder takes the same path; every point it gives, in grid order or at
// random, equals the point a new sweeper prices from nothing.
func TestSweepPathsMatchFreshPoints(t *testing.T) {
	t.Parallel()
	rng := newRand()
	n := propertyCount() / 10
	reused := 0
	for i := 0; i < n; i++ {
		c := randomConfig(rng)
		axis := []string{"capacity_bytes", "in_use_bytes"}[i%2]
		r, _ := c.Resolve()
		cur := *r.AxisField(axis)
		from := between(rng, 0, cur)
		to := cur + between(rng, 0, max(cur, 1<<20))
		s, err := NewSweeper(c, axis)
		if err != nil {
			t.Fatal(err)
		}
		xs := Grid(from, to, 64)
		for j := 0; j < 64; j++ {
			xs = append(xs, between(rng, from, to))
		}
		for _, x := range xs {
			got := s.Point(x)
			fresh, _ := NewSweeper(c, axis)
			if want := fresh.Point(x); got != want {
				t.Fatalf("config %s along %s at %d:\n got %+v\nwant %+v", MarshalConfig(c), axis, x, got, want)
			}
		}
		reused += s.paths.n
	}
	if reused == 0 {
		t.Fatal("no point was remembered")
	}
}
