package estimator

import "testing"

// TestChildRowsAt: the children of a plan add up to the request, the
// largest is the outcome's ChildRows, and the shapes are childShapes'.
func TestChildRowsAt(t *testing.T) {
	for _, tc := range []struct{ rows, seq, k int64 }{
		{64902, 4096, 2}, {64902, 4096, 3}, {64902, 4096, 16}, {100000, 4096, 7}, {4096, 4096, 1},
	} {
		c := Default()
		c.Request.Rows, c.Request.SequenceRows = tc.rows, tc.seq
		r, err := c.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		shapes, counts, n := r.childShapes(tc.k)
		want := map[int64]int64{}
		for j := range n {
			want[shapes[j]] += counts[j]
		}
		var sum int64
		got := map[int64]int64{}
		for i := range tc.k {
			rows, ok := c.ChildRowsAt(tc.k, i)
			if !ok {
				t.Fatalf("%+v: child %d refused", tc, i)
			}
			sum += rows
			got[rows]++
		}
		if sum != tc.rows || len(got) != len(want) {
			t.Errorf("%+v: children %v add to %d; shapes %v", tc, got, sum, want)
		}
		for rows, n := range want {
			if got[rows] != n {
				t.Errorf("%+v: %d children of %d rows, shapes say %d", tc, got[rows], rows, n)
			}
		}
	}
	if _, ok := Default().ChildRowsAt(2, 2); ok {
		t.Error("child 2 of 2")
	}
}
