//go:build bench

package ui

import (
	"slices"
	"testing"

	"headroom/app/ui/widget"
)

// TestSlideInputs: the plan has the inputs asked for, on the sliders
// asked for, within the range input's positions; an unknown slider is an
// error.
func TestSlideInputs(t *testing.T) {
	keys := []string{"vocab_size", "rows", "capacity_bytes"}
	plan, err := SlideInputs(50, keys, []int{1, 10, 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan) != 50 {
		t.Fatalf("%d inputs, want 50", len(plan))
	}
	for i, in := range plan {
		if !slices.Contains(keys, in.Key) || in.Pos < 0 || in.Pos > widget.Steps || in.DelayMs < 0 || in.DelayMs > 16 {
			t.Errorf("input %d: %+v", i, in)
		}
	}
	art, err := SlideInputsAt("?profile=art", 50, keys, []int{1, 10, 100})
	if err != nil || len(art) != 50 {
		t.Fatalf("under ?profile=art: %d inputs, %v", len(art), err)
	}
	if _, err := SlideInputsAt("?rows=%zz", 1, keys, []int{1}); err == nil {
		t.Error("a query that does not parse made a plan")
	}
	if _, err := SlideInputs(1, []string{"no_such_slider"}, []int{1}); err == nil {
		t.Error("an unknown slider made a plan")
	}
}
