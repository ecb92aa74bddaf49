package measured

import "testing"

// TestMeasuredBytesOnce: the measured panel wrote a byte count twice,
// "7,708,303,360 bytes (7.179 GiB) (7,708,303,360 bytes)".
func TestMeasuredBytesOnce(t *testing.T) {
	if got := gibOf(7_708_303_360); got != "7,708,303,360 bytes (7.179 GiB)" {
		t.Errorf("gibOf = %q", got)
	}
}
