package page

import (
	"net/url"
	"strings"
	"testing"
)

// TestMapURLRoundTrip: the view and both axes written to the address read
// back to the same state, and the defaults write nothing.
// mapKeys are the map view's URL keys.
var mapKeys = []string{KeyView, KeyMX, KeyMXFrom, KeyMXTo, KeyMY, KeyMYFrom, KeyMYTo, KeyMCols}

func TestMapURLRoundTrip(t *testing.T) {
	t.Parallel()
	list, err := Presets()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, query string }{
		{"defaults", ""},
		{"view only", "view=map"},
		{"axes and ranges", "view=map&mx=vocab_size&mxfrom=1000&mxto=200000&my=rows&myfrom=1&myto=500000&mcols=64"},
		{"y range only", "view=map&myfrom=0&myto=80000000000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, _ := url.ParseQuery(tc.query)
			s := Decode(q, list)
			if e := s.Map.AllErrs(); len(e) > 0 {
				t.Fatalf("errors %v", e)
			}
			back := s.Query(list)
			for _, k := range mapKeys {
				if back.Get(k) != q.Get(k) {
					t.Errorf("%s = %q after the round trip, want %q", k, back.Get(k), q.Get(k))
				}
			}
			again := Decode(back, list)
			a, b := again.Map, s.Map
			if a.On != b.On || a.X != b.X || a.Y != b.Y || a.XFrom != b.XFrom || a.XTo != b.XTo ||
				a.YFrom != b.YFrom || a.YTo != b.YTo || a.Cols != b.Cols {
				t.Errorf("state after the round trip %+v, want %+v", a, b)
			}
		})
	}
}

// TestMapURLBadValues: an unknown or bad value is marked beside its
// control and kept as text in the address; the rest of the link is kept.
func TestMapURLBadValues(t *testing.T) {
	t.Parallel()
	list, err := Presets()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, query, key, want string
	}{
		{"unknown view", "view=globe&my=rows", KeyView, "is not a view"},
		{"unknown axis", "view=map&mx=colour", KeyMX, "is not an axis"},
		{"same axis twice", "view=map&mx=rows&my=rows", KeyMY, "must differ"},
		{"empty range", "view=map&mxfrom=500&mxto=10", KeyMXTo, "must not be below"},
		{"bad number", "view=map&myfrom=lots", KeyMYFrom, ""},
		{"columns too few", "view=map&mcols=1", KeyMCols, "2..1,024"},
		{"columns too many", "view=map&mcols=5000", KeyMCols, "2..1,024"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, _ := url.ParseQuery(tc.query)
			s := Decode(q, list)
			msg, ok := s.Map.AllErrs()[tc.key]
			if !ok || !strings.Contains(msg, tc.want) {
				t.Fatalf("errs[%s] = %q (all %v), want it to say %q", tc.key, msg, s.Map.AllErrs(), tc.want)
			}
			back := s.Query(list)
			if back.Get(tc.key) != q.Get(tc.key) {
				t.Errorf("%s = %q in the address, want the link's %q kept", tc.key, back.Get(tc.key), q.Get(tc.key))
			}
			if tc.key == KeyView && back.Get(KeyMY) != "rows" {
				t.Errorf("my = %q, want the rest of the link kept", back.Get(KeyMY))
			}
		})
	}
}
