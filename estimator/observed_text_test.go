package estimator

import (
	"strings"
	"testing"
)

// TestParseObserved: pasted lines with units, separators and labels.
func TestParseObserved(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, text string
		want       []ObservedPoint
	}{
		{"comma and GiB", "64902, 88.271 GiB, cold forward", []ObservedPoint{{Rows: 64902, PeakBytes: 94780264546, Label: "cold forward"}}},
		{"spaces, bytes, no label", "33706 88240000000", []ObservedPoint{{Rows: 33706, PeakBytes: 88240000000}}},
		{"spaces with a unit word", "33706 82.182 GiB warm child", []ObservedPoint{{Rows: 33706, PeakBytes: 88242250580, Label: "warm child"}}},
		{"grouped rows, label with commas", "64,902, 80 GB, cold: whole forward, 64,902 rows", []ObservedPoint{{Rows: 64902, PeakBytes: 80e9, Label: "cold: whole forward, 64,902 rows"}}},
		{"bare commas", "64902,94780217856,cold", []ObservedPoint{{Rows: 64902, PeakBytes: 94780217856, Label: "cold"}}},
		{"tabs", "64k\t1.5TiB\ta label", []ObservedPoint{{Rows: 64000, PeakBytes: 1649267441664, Label: "a label"}}},
		{"blank and comment lines", "# rows, peak\n\n10 100\r\n\n20 200 late\n", []ObservedPoint{{Rows: 10, PeakBytes: 100}, {Rows: 20, PeakBytes: 200, Label: "late"}}},
		{"CSV with quotes", "rows,peak_bytes,label\n64902,94780217856,\"cold, whole\"\n33706,82.182 GiB,\n", []ObservedPoint{{Rows: 64902, PeakBytes: 94780217856, Label: "cold, whole"}, {Rows: 33706, PeakBytes: 88242250580}}},
		{"quoted label in a line", `5, 9, "  spaced ""q"" "`, []ObservedPoint{{Rows: 5, PeakBytes: 9, Label: `  spaced "q" `}}},
		{"empty", "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := ParseObserved(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("point %d: got %+v, want %+v", i, got[i], tc.want[i])
				}
			}
			// What the box shows reads back as the same points.
			back, _, err := ParseObserved(FormatObserved(got))
			if err != nil || len(back) != len(got) {
				t.Fatalf("FormatObserved %q read back as %+v, %v", FormatObserved(got), back, err)
			}
			for i := range back {
				if back[i] != got[i] {
					t.Errorf("formatted point %d read back as %+v, want %+v", i, back[i], got[i])
				}
			}
		})
	}
}

// TestParseObservedErrors: a line that does not parse is named by its
// line number, with the reason.
func TestParseObservedErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, text string
		want       []string
	}{
		{"fraction of a byte", "10 100\n\n20, 1.5 B, x", []string{"line 3", "peak", "whole number"}},
		{"rows not a number", "abc 100", []string{"line 1", "rows"}},
		{"one field", "10 100\n64902", []string{"line 2", "needs rows and a peak"}},
		{"two bad lines", "x 1\n1 y", []string{"line 1", "line 2"}},
		{"CSV too many fields", "rows,peak_bytes,label\n1,2,a,b", []string{"line 2", "4 fields"}},
		{"CSV bad peak", "rows,peak_bytes,label\n1,2\n3,zz,c", []string{"line 3", "peak"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pts, _, err := ParseObserved(tc.text)
			if err == nil {
				t.Fatalf("no error, points %+v", pts)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if pts != nil {
				t.Errorf("points %+v returned with the error", pts)
			}
		})
	}
}
