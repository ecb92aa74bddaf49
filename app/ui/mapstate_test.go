package ui

import (
	"net/url"
	"strings"
	"testing"

	"headroom/estimator"
)

// TestMapURLRoundTrip: the view and both axes written to the address read
// back to the same state, and the defaults write nothing.
func TestMapURLRoundTrip(t *testing.T) {
	list, err := presets()
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
			s := decodePage(q, list)
			if e := s.mapS.allErrs(); len(e) > 0 {
				t.Fatalf("errors %v", e)
			}
			back := s.query(list)
			for _, k := range mapKeys {
				if back.Get(k) != q.Get(k) {
					t.Errorf("%s = %q after the round trip, want %q", k, back.Get(k), q.Get(k))
				}
			}
			again := decodePage(back, list)
			a, b := again.mapS, s.mapS
			if a.on != b.on || a.x != b.x || a.y != b.y || a.xFrom != b.xFrom || a.xTo != b.xTo ||
				a.yFrom != b.yFrom || a.yTo != b.yTo || a.cols != b.cols {
				t.Errorf("state after the round trip %+v, want %+v", a, b)
			}
		})
	}
}

// TestMapURLBadValues: an unknown or bad value is marked beside its
// control and kept as text in the address; the rest of the link is kept.
func TestMapURLBadValues(t *testing.T) {
	list, err := presets()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, query, key, want string
	}{
		{"unknown view", "view=globe&my=rows", keyView, "is not a view"},
		{"unknown axis", "view=map&mx=colour", keyMX, "is not an axis"},
		{"same axis twice", "view=map&mx=rows&my=rows", keyMY, "must differ"},
		{"empty range", "view=map&mxfrom=500&mxto=10", keyMXTo, "must not be below"},
		{"bad number", "view=map&myfrom=lots", keyMYFrom, ""},
		{"columns too few", "view=map&mcols=1", keyMCols, "2..1,024"},
		{"columns too many", "view=map&mcols=5000", keyMCols, "2..1,024"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, _ := url.ParseQuery(tc.query)
			s := decodePage(q, list)
			msg, ok := s.mapS.allErrs()[tc.key]
			if !ok || !strings.Contains(msg, tc.want) {
				t.Fatalf("errs[%s] = %q (all %v), want it to say %q", tc.key, msg, s.mapS.allErrs(), tc.want)
			}
			back := s.query(list)
			if back.Get(tc.key) != q.Get(tc.key) {
				t.Errorf("%s = %q in the address, want the link's %q kept", tc.key, back.Get(tc.key), q.Get(tc.key))
			}
			if tc.key == keyView && back.Get(keyMY) != "rows" {
				t.Errorf("my = %q, want the rest of the link kept", back.Get(keyMY))
			}
		})
	}
}

// TestMapViewComputes: the map view, opened from a link, completes its
// map and it is estimator.Map's; a change of y recomputes it; a click
// sets both fields in the config and the address.
func TestMapViewComputes(t *testing.T) {
	q, _ := url.ParseQuery("view=map&mcols=24")
	c, d := mountExplorer(t, q)
	check := func(what string) estimator.MapResult {
		t.Helper()
		mr := &c.maps
		if mr.shown == nil || mr.svg == "" || mr.problem != "" {
			t.Fatalf("%s: no map shown (problem %q, errs %v)", what, mr.problem, mr.errs)
		}
		x, y, n := c.state.mapS.axes()
		want, err := estimator.Map(c.state.cfg, x, y, n)
		if err != nil {
			t.Fatal(err)
		}
		if len(mr.shown.Columns) != len(want.Columns) {
			t.Fatalf("%s: %d columns, want %d", what, len(mr.shown.Columns), len(want.Columns))
		}
		for i := range want.Columns {
			if columnText(mr.shown, i) != columnText(&want, i) {
				t.Errorf("%s: column %d\n%s\nwant\n%s", what, i, columnText(mr.shown, i), columnText(&want, i))
			}
		}
		if st := c.mapViewState(); !st.Complete {
			t.Errorf("%s: the view is not marked complete", what)
		}
		return want
	}
	check("opened")
	send(d, c, edit{Kind: editMenu, Key: keyMY, Text: "vocab_size", Settle: true})
	if c.state.mapS.y != "vocab_size" {
		t.Fatalf("y = %s", c.state.mapS.y)
	}
	res := check("y changed")
	if got := c.state.query(c.list).Get(keyMY); got != "vocab_size" {
		t.Errorf("my = %q in the address", got)
	}
	x, y := res.Columns[3].X, res.Y.From+(res.Y.To-res.Y.From)/3
	send(d, c, edit{Kind: editText, Key: keyMClick, Text: itoa(x) + "," + itoa(y), Settle: true})
	if c.state.cfg.Request.Rows != x || c.state.cfg.Model.VocabSize != y {
		t.Errorf("after the click rows %d vocab %d, want %d, %d", c.state.cfg.Request.Rows, c.state.cfg.Model.VocabSize, x, y)
	}
	qq := c.state.query(c.list)
	if qq.Get("rows") != itoa(x) || qq.Get("vocab_size") != itoa(y) {
		t.Errorf("address rows=%s vocab_size=%s, want %d, %d", qq.Get("rows"), qq.Get("vocab_size"), x, y)
	}
}

// TestMapViewErrors: a map with every point invalid says so instead of
// drawing nothing; refused axes keep the last map and mark the control.
func TestMapViewErrors(t *testing.T) {
	q, _ := url.ParseQuery("view=map&mcols=8&mx=rows&mxfrom=10000000000&mxto=20000000000")
	c, d := mountExplorer(t, q)
	if c.maps.problem == "" || !strings.Contains(c.maps.problem, "every point is invalid") {
		t.Fatalf("problem %q, want the every-point-invalid message", c.maps.problem)
	}
	send(d, c, edit{Kind: editText, Key: keyMXTo, Text: "600000", Settle: true})
	send(d, c, edit{Kind: editText, Key: keyMXFrom, Text: "1", Settle: true})
	if c.maps.shown == nil || c.maps.problem != "" {
		t.Fatalf("no map after fixing the range: %q", c.maps.problem)
	}
	send(d, c, edit{Kind: editText, Key: keyMCols, Text: "2000", Settle: true})
	if c.state.mapS.errs[keyMCols] == "" || c.maps.shown == nil {
		t.Errorf("columns 2000: errs %v, map kept %v", c.state.mapS.errs, c.maps.shown != nil)
	}
	if got := c.state.query(c.list).Get(keyMCols); got != "2000" {
		t.Errorf("mcols = %q in the address, want the typed 2000 kept", got)
	}
}
