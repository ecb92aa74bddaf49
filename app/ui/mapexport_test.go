package ui

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"headroom/estimator"
)

// TestMapExports: the map view's exports are the map on screen: the JSON
// is the spec's map JSON (estimator.Map's), the CSV has a row per column
// and flip (a row per revision that does not flip), the SVG and PNG are
// the map's picture.
func TestMapExports(t *testing.T) {
	q, _ := url.ParseQuery("view=map&mcols=16")
	c, _ := mountExplorer(t, q)
	x, y, n := c.state.Map.Axes()
	want, err := estimator.Map(c.state.Cfg, x, y, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("json", func(t *testing.T) {
		f, err := c.maps.Export("json")
		if err != nil {
			t.Fatal(err)
		}
		w, _ := json.MarshalIndent(want, "", "  ")
		if string(bytes.TrimSpace(f.Data)) != string(w) || !strings.HasSuffix(f.Name, ".json") {
			t.Errorf("%s: the JSON is not estimator.Map's", f.Name)
		}
	})
	t.Run("csv", func(t *testing.T) {
		f, err := c.maps.Export("csv")
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(bytes.NewReader(f.Data)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		wantRows := 1
		for i := range want.Columns {
			for rev := 0; rev < 2; rev++ {
				wantRows += max(1, len(want.Columns[i].Rev(estimator.Revision(rev)).Flips))
			}
		}
		if len(rows) != wantRows {
			t.Fatalf("%d rows, want %d", len(rows), wantRows)
		}
		flips := 0
		for _, r := range rows[1:] {
			if r[6] == "" {
				continue
			}
			i, _ := strconv.Atoi(r[0])
			rev := 0
			if r[2] == "candidate" {
				rev = 1
			}
			col := &want.Columns[i]
			if r[1] != strconv.FormatInt(col.X, 10) {
				t.Errorf("row %v: x, want %d", r, col.X)
			}
			found := false
			for _, fl := range col.Rev(estimator.Revision(rev)).Flips {
				if strconv.FormatInt(fl.Last, 10) == r[6] && strconv.FormatInt(fl.First, 10) == r[7] && fl.ToDecision.String() == r[5] {
					found = true
				}
			}
			if !found {
				t.Errorf("row %v is no flip of column %d", r, i)
			}
			flips++
		}
		if flips == 0 {
			t.Error("no flip rows: the test's map should flip")
		}
	})
	t.Run("svg and png", func(t *testing.T) {
		for _, format := range []string{"svg", "png"} {
			f, err := c.maps.Export(format)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(f.Data, []byte("<svg")) || !strings.HasSuffix(f.Name, "."+format) {
				t.Errorf("%s: not the map's SVG", f.Name)
			}
			if (format == "png") != (f.Width > 0) {
				t.Errorf("%s: width %d", f.Name, f.Width)
			}
		}
	})
	t.Run("unknown format", func(t *testing.T) {
		if _, err := c.maps.Export("gif"); err == nil {
			t.Error("gif exported")
		}
	})
}
