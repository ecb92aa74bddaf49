package page

import "testing"

// TestSlice: a slice does units until the budget on the clock is spent,
// at least one, and reports done only when the work is.
func TestSlice(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		units    int     // work in all
		unitMs   float64 // the clock's advance per unit
		budgetMs float64
		did      int // units the slice does
		done     bool
	}{
		{"fits in one slice", 5, 1, 12, 5, true},
		{"spent after three", 10, 4, 12, 3, false},
		{"a slow unit still runs, alone", 10, 50, 12, 1, false},
		{"the last unit ends the work on the budget's edge", 3, 4, 12, 3, true},
		{"no budget: one unit", 10, 1, 0, 1, false},
		{"nothing left: one call, done", 0, 1, 12, 0, true},
	}
	for _, tc := range cases {
		clock, did := 0.0, 0
		now := func() float64 { return clock }
		step := func() bool {
			if did == tc.units {
				return false
			}
			did++
			clock += tc.unitMs
			return did < tc.units
		}
		done := Slice(tc.budgetMs, now, step)
		if did != tc.did || done != tc.done {
			t.Errorf("%s: did %d units, done %v; want %d, %v", tc.name, did, done, tc.did, tc.done)
		}
	}
}

// TestSliceResumes: slices called until done do every unit once.
func TestSliceResumes(t *testing.T) {
	t.Parallel()
	clock, next, slices := 0.0, 0, 0
	for done := false; !done; slices++ {
		done = Slice(8, func() float64 { return clock }, func() bool {
			next++
			clock += 3
			return next < 20
		})
	}
	if next != 20 || slices != 7 {
		t.Errorf("%d units in %d slices, want 20 in 7 (three a slice)", next, slices)
	}
}
