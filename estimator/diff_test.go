package estimator

import "testing"

func TestDiff(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b Bytes
		want string
	}{
		{0, 1603339264, "+1,603,339,264 bytes (+1.493 GiB)"},
		{1603339264, 0, "-1,603,339,264 bytes (-1.493 GiB)"},
		{512, 0, "-512 bytes (-0.000 GiB)"},
		{7, 7, "0 bytes (0.000 GiB)"},
		{0, 1<<63 - 1, "+9,223,372,036,854,775,807 bytes (+8589934592.000 GiB)"},
	} {
		if got := Diff(tc.a, tc.b).DeltaString(); got != tc.want {
			t.Errorf("Diff(%d, %d).DeltaString() = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}
