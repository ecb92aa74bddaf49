package estimator

import "testing"

// TestAxisValue: a set field is its own value, a field left to its
// default is the resolved one, and an axis that cannot be known is 1.
func TestAxisValue(t *testing.T) {
	t.Parallel()
	c := Default()
	c.Request.Rows = 12345
	r, err := c.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if c.FC2.OutputWidth != nil {
		t.Fatal("fixture: the default's output_width is set")
	}
	bad := c
	bad.Request.Rows = 0
	for _, tt := range []struct {
		axis string
		cfg  Config
		want int64
	}{
		{"rows", c, 12345},
		{"output_width", c, r.O},
		{"no_such_axis", c, 1},
		{"output_width", bad, 1},
	} {
		if got := AxisValue(tt.axis, tt.cfg); got != tt.want {
			t.Errorf("AxisValue(%s) = %d, want %d", tt.axis, got, tt.want)
		}
	}
}
