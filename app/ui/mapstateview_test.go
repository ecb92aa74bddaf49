package ui

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"headroom/app/ui/mapview"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// TestMapViewComputes: the map view, opened from a link, completes its
// map and it is estimator.Map's; a change of y recomputes it; a click
// sets both fields in the config and the address.
func TestMapViewComputes(t *testing.T) {
	q, _ := url.ParseQuery("view=map&mcols=24")
	c, d := mountExplorer(t, q)
	check := func(what string) estimator.MapResult {
		t.Helper()
		st := c.maps.View(&c.state.Map)
		if st.Result == nil || st.SVG == "" || st.Problem != "" {
			t.Fatalf("%s: no map shown (problem %q, errs %v)", what, st.Problem, st.Errors)
		}
		shown := st.Result
		x, y, n := c.state.Map.Axes()
		want, err := estimator.Map(c.state.Cfg, x, y, n)
		if err != nil {
			t.Fatal(err)
		}
		if len(shown.Columns) != len(want.Columns) {
			t.Fatalf("%s: %d columns, want %d", what, len(shown.Columns), len(want.Columns))
		}
		for i := range want.Columns {
			if mapview.ColumnText(shown, i) != mapview.ColumnText(&want, i) {
				t.Errorf("%s: column %d\n%s\nwant\n%s", what, i, mapview.ColumnText(shown, i), mapview.ColumnText(&want, i))
			}
		}
		if !st.Complete {
			t.Errorf("%s: the view is not marked complete", what)
		}
		return want
	}
	check("opened")
	send(d, c, page.Edit{For: page.ForMap, Kind: page.EditMenu, Key: page.KeyMY, Text: "vocab_size", Settle: true})
	if c.state.Map.Y != "vocab_size" {
		t.Fatalf("y = %s", c.state.Map.Y)
	}
	res := check("y changed")
	if got := c.state.Query(c.list).Get(page.KeyMY); got != "vocab_size" {
		t.Errorf("my = %q in the address", got)
	}
	x, y := res.Columns[3].X, res.Y.From+(res.Y.To-res.Y.From)/3
	send(d, c, page.Edit{For: page.ForMap, Kind: page.EditMapClick, Key: mapview.KeyClick, Text: strconv.FormatInt(x, 10) + "," + strconv.FormatInt(y, 10), Settle: true})
	if c.state.Cfg.Request.Rows != x || c.state.Cfg.Model.VocabSize != y {
		t.Errorf("after the click rows %d vocab %d, want %d, %d", c.state.Cfg.Request.Rows, c.state.Cfg.Model.VocabSize, x, y)
	}
	qq := c.state.Query(c.list)
	if qq.Get("rows") != strconv.FormatInt(x, 10) || qq.Get("vocab_size") != strconv.FormatInt(y, 10) {
		t.Errorf("address rows=%s vocab_size=%s, want %d, %d", qq.Get("rows"), qq.Get("vocab_size"), x, y)
	}
}

// TestMapViewErrors: a map with every point invalid says so instead of
// drawing nothing; refused axes keep the last map and mark the control.
func TestMapViewErrors(t *testing.T) {
	q, _ := url.ParseQuery("view=map&mcols=8&mx=rows&mxfrom=10000000000&mxto=20000000000")
	c, d := mountExplorer(t, q)
	if c.maps.Problem() == "" || !strings.Contains(c.maps.Problem(), "every point is invalid") {
		t.Fatalf("problem %q, want the every-point-invalid message", c.maps.Problem())
	}
	send(d, c, page.Edit{For: page.ForMap, Kind: page.EditText, Key: page.KeyMXTo, Text: "600000", Settle: true})
	send(d, c, page.Edit{For: page.ForMap, Kind: page.EditText, Key: page.KeyMXFrom, Text: "1", Settle: true})
	if c.maps.Shown() == nil || c.maps.Problem() != "" {
		t.Fatalf("no map after fixing the range: %q", c.maps.Problem())
	}
	send(d, c, page.Edit{For: page.ForMap, Kind: page.EditText, Key: page.KeyMCols, Text: "2000", Settle: true})
	if c.state.Map.Errs[page.KeyMCols] == "" || c.maps.Shown() == nil {
		t.Errorf("columns 2000: errs %v, map kept %v", c.state.Map.Errs, c.maps.Shown() != nil)
	}
	if got := c.state.Query(c.list).Get(page.KeyMCols); got != "2000" {
		t.Errorf("mcols = %q in the address, want the typed 2000 kept", got)
	}
}
