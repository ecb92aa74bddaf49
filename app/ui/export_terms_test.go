package ui

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"headroom/app/chart"
	"headroom/app/report"
	"headroom/estimator"
	"headroom/estimator/urlquery"
)

func termsQuery() url.Values {
	cfg := estimator.Default()
	cfg.Terms = []estimator.Term{
		{Name: "logits_fp32_copy", Place: "head", Revision: "candidate", Bytes: "2 * D"},
		{Name: "router_buffer", Place: "stage", Revision: "both", Bytes: "n * 8"},
	}
	return urlquery.Encode(cfg)
}

// TestTermsExportImport: the JSON export carries the terms and importing
// it restores them; a spec config holding only terms imports as a config.
func TestTermsExportImport(t *testing.T) {
	c, _ := mountExplorer(t, termsQuery())
	if len(c.state.Errs) != 0 || len(c.shown.config.Terms) != 2 {
		t.Fatalf("errors %v, shown terms %v", c.state.Errs, c.shown.config.Terms)
	}
	f, err := c.exportFile("json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Config struct {
			Terms []estimator.Term `json:"terms"`
		} `json:"config"`
	}
	if err := json.Unmarshal(f.Data, &file); err != nil || len(file.Config.Terms) != 2 || file.Config.Terms[1].Name != "router_buffer" {
		t.Fatalf("the JSON export's terms %+v (%v)", file.Config.Terms, err)
	}
	c2, d2 := mountExplorer(t, nil)
	if r := importInto(d2, c2, f.Data); r.Err != "" {
		t.Fatalf("import refused: %s", r.Err)
	}
	if got, want := c2.state.Query(c2.list).Encode(), c.state.Query(c.list).Encode(); got != want {
		t.Errorf("restored ?%s, want ?%s", got, want)
	}
	if len(c2.state.Terms) != 2 || !c2.state.Terms[0].Has {
		t.Errorf("drafts after import %+v", c2.state.Terms)
	}

	spec := []byte(`{"terms": [{"name": "ep_dispatch", "place": "fc2", "bytes": "r * H * b"}]}`)
	c3, d3 := mountExplorer(t, nil)
	r := importInto(d3, c3, spec)
	if r.Err != "" || len(c3.state.Cfg.Terms) != 1 || c3.state.Terms[0].Typed.Name != "ep_dispatch" {
		t.Errorf("spec config with terms: %+v, terms %+v", r, c3.state.Cfg.Terms)
	}
	bad := []byte(`{"terms": [{"name": "x", "place": "head", "bytes": "2 * Q"}]}`)
	before := c3.state.Query(c3.list).Encode()
	if r := importInto(d3, c3, bad); !strings.Contains(r.Err, `terms[0] (x): unknown variable "Q"`) || c3.state.Query(c3.list).Encode() != before {
		t.Errorf("a bad term imported: %+v", r)
	}
}

func TestTermsCSVColumns(t *testing.T) {
	cfg, errs := urlquery.Decode(termsQuery())
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	in, err := chart.Build(cfg, "rows", 1, 100_000, 16)
	if err != nil {
		t.Fatal(err)
	}
	data, err := report.SweepCSV(cfg, SweepOf(in))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := strings.Join(recs[0], ",")
	if !strings.HasPrefix(head, strings.Join(report.SweepCSVHeader("rows"), ",")) || !strings.HasSuffix(head, ",baseline_router_buffer_bytes,candidate_router_buffer_bytes") {
		t.Fatalf("header %s", head)
	}
	for _, rec := range recs[1:] {
		n, err := estimator.ParseInt(rec[1])
		if err != nil {
			t.Fatalf("x %q: %v", rec[1], err)
		}
		want := estimator.Group((n*8 + 511) / 512 * 512)
		for _, cell := range rec[len(rec)-2:] {
			v, err := estimator.ParseInt(cell)
			if err != nil || estimator.Group(v) != want {
				t.Errorf("x=%d: router_buffer cell %q, want %s", n, cell, want)
			}
		}
	}
	plain, _ := chart.Build(estimator.Default(), "rows", 1, 100_000, 16)
	plainCSV, err := report.SweepCSV(estimator.Default(), SweepOf(plain))
	if err != nil {
		t.Fatal(err)
	}
	if h := strings.Split(strings.SplitN(string(plainCSV), "\n", 2)[0], ","); len(h) != len(report.SweepCSVHeader("rows")) {
		t.Errorf("without terms the CSV has %d columns", len(h))
	}
}

// TestArtTermsExportImport: under ART's code the JSON export carries a
// term's place and mode, and importing it restores the same page.
func TestArtTermsExportImport(t *testing.T) {
	cfg := estimator.Default()
	cfg.Profile = estimator.ProfileArt
	cfg.Terms = []estimator.Term{
		{Name: "one_gradient", Place: "input_gradient", Mode: "replace", Bytes: "min(B, 2 * n * H)"},
		{Name: "row_state", Place: "head", Revision: "both", Bytes: "256 * ng"},
	}
	c, _ := mountExplorer(t, urlquery.Encode(cfg))
	if len(c.state.Errs) != 0 || len(c.shown.config.Terms) != 2 {
		t.Fatalf("errors %v, shown terms %v", c.state.Errs, c.shown.config.Terms)
	}
	f, err := c.exportFile("json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(f.Data, []byte(`"mode": "replace"`)) {
		t.Fatalf("the JSON export lacks the mode:\n%s", f.Data)
	}
	c2, d2 := mountExplorer(t, nil)
	if r := importInto(d2, c2, f.Data); r.Err != "" {
		t.Fatalf("import refused: %s", r.Err)
	}
	if got, want := c2.state.Query(c2.list).Encode(), c.state.Query(c.list).Encode(); got != want {
		t.Errorf("restored ?%s, want ?%s", got, want)
	}
	if len(c2.state.Cfg.Terms) != 2 || c2.state.Cfg.Terms[0].Mode != "replace" || c2.state.Cfg.Profile != estimator.ProfileArt {
		t.Errorf("after import: profile %q, terms %+v", c2.state.Cfg.Profile, c2.state.Cfg.Terms)
	}
}
