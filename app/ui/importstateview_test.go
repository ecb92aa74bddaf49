package ui

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/chart"
	"headroom/app/report"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// importInto runs an import the way the import panel does, on the UI
// goroutine.
func importInto(d app.ClientDispatcher, c *explorer, data []byte) page.ImportReport {
	var r page.ImportReport
	d.Dispatch(app.Dispatch{Mode: app.Update, Source: c, Function: func(app.Context) { r = c.share.load(data) }})
	d.Consume()
	return r
}

// TestImportHFKeepsTheRest: a config.json sets the model fields only; what
// the user typed elsewhere stays, even a bad value with its message.
func TestImportHFKeepsTheRest(t *testing.T) {
	c, d := mountExplorer(t, url.Values{"rows": {"123456"}, "vocab_size": {"64000"}})
	typeInto(d, c, "chunk_rows", "12x")
	typeInto(d, c, "hidden_size", "abc")
	renders := c.renders
	r := importInto(d, c, readHF(t, "llama-3.1-8b.json"))
	if r.Err != "" {
		t.Fatalf("import refused: %s", r.Err)
	}
	if got := c.state.Cfg.Model.VocabSize; got != 128256 {
		t.Errorf("vocab_size %d, want 128256", got)
	}
	if got := c.state.Text("hidden_size"); got != "4096" {
		t.Errorf("hidden_size shows %q, want the file's 4096 (the typed text is replaced)", got)
	}
	if got := c.state.Text("chunk_rows"); got != "12x" || c.state.Errs["chunk_rows"] == "" {
		t.Errorf("chunk_rows shows %q (error %q); want the typed text kept with its message", got, c.state.Errs["chunk_rows"])
	}
	if got := c.state.Query(c.list).Get("rows"); got != "123456" {
		t.Errorf("URL rows=%q, want 123456 kept", got)
	}
	// While a field's text does not parse, the page shows its last valid
	// state, marked: the import is drawn once
	// chunk_rows is fixed.
	if c.renders != renders {
		t.Errorf("renders %d -> %d with chunk_rows in error; want the last valid state kept", renders, c.renders)
	}
	typeInto(d, c, "chunk_rows", "8192")
	if c.renders != renders+1 || c.shown.config.Model.VocabSize != 128256 {
		t.Errorf("renders %d -> %d, shown vocab %d; want the import drawn once chunk_rows is fixed (errors %v)", renders, c.renders, c.shown.config.Model.VocabSize, c.state.Errs)
	}
	joined := strings.Join(r.Recognised, "\n")
	for _, want := range []string{"vocab_size → model.vocab_size = 128,256", "hidden_size → model.hidden_size = 4,096"} {
		if !strings.Contains(joined, want) {
			t.Errorf("recognised lacks %q:\n%s", want, joined)
		}
	}
	if !strings.Contains(strings.Join(r.Ignored, " "), "rope_theta") {
		t.Errorf("ignored %v lacks rope_theta", r.Ignored)
	}
	if !strings.Contains(strings.Join(r.Derived, "\n"), "model.num_experts_per_tok = 0") {
		t.Errorf("derived %v lacks the dense model's num_experts_per_tok", r.Derived)
	}
}

// TestImportRefusedChangesNothing: a malformed file, or one whose values
// do not fit, leaves the state exactly as it was.
func TestImportRefusedChangesNothing(t *testing.T) {
	c, d := mountExplorer(t, url.Values{"rows": {"123456"}})
	typeInto(d, c, "vocab_size", "99,000")
	before, renders := c.state.Query(c.list).Encode(), c.renders
	for _, bad := range []string{
		``, `{"vocab_size": 128256,`, `[1, 2]`, `{"vocab_size": "many"}`, `{"vocab_size": -5}`,
		`{"request": {"rows": 0}}`,
		`{"headroom": 1, "view": {"axis": "nope", "from": 1, "to": 2}, "config": {}}`,
		`{"headroom": 1, "view": {"axis": "rows", "from": 5, "to": 1}, "config": {}}`,
	} {
		t.Run(bad, func(t *testing.T) {
			r := importInto(d, c, []byte(bad))
			if r.Err == "" {
				t.Errorf("import of %q accepted: %+v", bad, r)
			}
			if got := c.state.Query(c.list).Encode(); got != before || c.renders != renders || c.state.Text("vocab_size") != "99,000" {
				t.Errorf("import of %q changed the state: ?%s (was ?%s), renders %d -> %d", bad, got, before, renders, c.renders)
			}
		})
	}
	if c.banner.Message != "" {
		t.Errorf("a refused import showed the banner: %s", c.banner.Message)
	}
}

// TestExportImportRestoresPage: the JSON export, imported into another
// state, restores the whole page: config, axis and range.
func TestExportImportRestoresPage(t *testing.T) {
	q := url.Values{"rows": {"200000"}, "in_use_bytes": {"68451041280"}, "axis": {"vocab_size"}, "from": {"1000"}, "to": {"300000"}}
	c, _ := mountExplorer(t, q)
	f, err := c.exportFile("json")
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "qwen3-next-80b-a3b_vocab_size.json" || f.Mime != "application/json" {
		t.Errorf("export %q %q", f.Name, f.Mime)
	}
	want := c.state.Query(c.list).Encode()

	c2, d2 := mountExplorer(t, url.Values{"preset": {"llama-3.1-8b"}, "grad": {"false"}})
	r := importInto(d2, c2, f.Data)
	if r.Err != "" {
		t.Fatalf("import refused: %s", r.Err)
	}
	if got := c2.state.Query(c2.list).Encode(); got != want {
		t.Errorf("restored ?%s, want ?%s", got, want)
	}
	sameConfig := string(estimator.MarshalConfig(c2.shown.config)) == string(estimator.MarshalConfig(c.shown.config))
	if in, _ := c2.sweeps.Last(); in.Axis == nil || in.Axis.Key != "vocab_size" || !sameConfig {
		t.Errorf("shown sweep along %v, config differs: %v", in.Axis, !sameConfig)
	}
	if !strings.Contains(r.Summary, "Qwen3-Next-80B-A3B") || !strings.Contains(r.Summary, "vocab_size from 1,000 to 300,000") {
		t.Errorf("summary %q", r.Summary)
	}
}

// TestExportFiles: every export format names its file after the preset
// and axis and holds what the chart on screen shows.
func TestExportFiles(t *testing.T) {
	cfg := pressureConfig()
	c, d := mountExplorer(t, page.ConfigQuery(cfg, nil)) // the config as it is: no resident group, expert parallelism 1
	from, to := page.FitRange("rows", cfg)
	in, err := chart.Build(cfg, "rows", from, to, page.ChartPoints)
	if err != nil {
		t.Fatal(err)
	}
	saved := exportDate
	exportDate = func() string { return "2026-12-01" }
	t.Cleanup(func() { exportDate = saved })
	w, h := chart.LogicalSize(chart.DefaultWidth, chart.DefaultHeight)
	svg, err := chart.SVG(captioned(in, cfg, "Qwen3-Next-80B-A3B", "2026-12-01"), w, h)
	if err != nil {
		t.Fatal(err)
	}
	wantCSV, err := report.SweepCSV(cfg, SweepOf(in))
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range exportFormats {
		t.Run(format, func(t *testing.T) {
			f, err := c.exportFile(format)
			if err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			if want := "qwen3-next-80b-a3b_rows." + format; f.Name != want {
				t.Errorf("%s: name %q, want %q", format, f.Name, want)
			}
			switch format {
			case "svg":
				if !bytes.Equal(f.Data, svg) {
					t.Errorf("the SVG export is not the plot command's SVG of the same sweep, with the caption")
				}
			case "png":
				if f.Width != 1600 || f.Height != 900 || !bytes.HasPrefix(f.Data, []byte(`<svg width="1600" height="900" `)) {
					t.Errorf("PNG source %dx%d, %.60s", f.Width, f.Height, f.Data)
				}
			case "csv":
				if !bytes.Equal(f.Data, wantCSV) {
					t.Errorf("the CSV export is not the sweep behind the chart")
				}
			}
		})
	}
	if _, err := c.exportFile("gif"); err == nil {
		t.Errorf("an unknown format exported")
	}
	// An invalid edit keeps the last valid chart, so the export still
	// shows what the chart shows.
	typeInto(d, c, "rows", "0")
	if f, err := c.exportFile("csv"); err != nil || !bytes.Equal(f.Data, wantCSV) {
		t.Errorf("with rows in error: err %v, or the CSV is not the chart's", err)
	}
}

func TestExportBeforeFirstRender(t *testing.T) {
	c := newExplorer()
	if _, err := c.exportFile("csv"); err == nil || !strings.Contains(err.Error(), "not drawn yet") {
		t.Errorf("export before the first render: %v", err)
	}
}

func TestShareBarAndImportPanelRender(t *testing.T) {
	c, _ := mountExplorer(t, nil)
	ids := idsIn(app.HTMLString(c))
	for _, id := range []string{"copy-link", "copy-status", "export-svg", "export-png", "export-csv", "export-json",
		"import-text", "import-button", "import-file", "import-report"} {
		if !ids[id] {
			t.Errorf("no element #%s", id)
		}
	}
	p := &importPanel{Share: c.share, Sink: c.sink}
	p.show("x.json", c.share.load(readHF(t, "qwen3-30b-a3b.json")))
	html := app.HTMLString(p)
	for _, want := range []string{`id="import-recognised"`, `id="import-ignored"`, "From x.json: Filled in the model fields"} {
		if !strings.Contains(html, want) {
			t.Errorf("import report lacks %s:\n%s", want, html)
		}
	}
	p = &importPanel{Share: c.share, Sink: c.sink}
	p.show("y.json", c.share.load([]byte("{")))
	if html := app.HTMLString(p); !strings.Contains(html, "Nothing was imported from y.json") || !strings.Contains(html, "failed") {
		t.Errorf("failed import report:\n%s", html)
	}
}

// FuzzImportFile: whatever a person drops, the import never panics; a
// refused file leaves the state as it was, and an accepted one from a
// clean state leaves no field in error.
func FuzzImportFile(f *testing.F) {
	for _, name := range []string{"llama-3.1-8b.json", "qwen3-30b-a3b.json", "deepseek-v3.json", "nested-text-config.json"} {
		data, err := os.ReadFile("../../estimator/hfconfig/testdata/hf/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	c := newExplorer()
	c.load(url.Values{})
	c.renderNow()
	export, err := c.exportFile("json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(export.Data)
	for _, s := range []string{``, `{}`, `{"request": {"rows": 77777}}`, `{"vocab_size": 1e400}`, `{"text_config": 5}`,
		`{"headroom": 1, "view": {"axis": "in_use_bytes", "from": 0, "to": 9}, "config": {}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := newExplorer()
		c.load(url.Values{})
		before := c.state.Query(c.list).Encode()
		r := c.importFile(data)
		if c.banner.Message != "" {
			t.Fatalf("import of %q panicked: %s", data, c.banner.Details)
		}
		if r.Err != "" {
			if got := c.state.Query(c.list).Encode(); got != before {
				t.Fatalf("refused import of %q changed the state to ?%s", data, got)
			}
			return
		}
		// Weights too large for the GPU are imported, with the offer of
		// the expert parallelism that fits: the one error left allowed.
		weights := c.state.WeightsDoNotFit() != ""
		if len(c.state.Errs) > 1 || len(c.state.Errs) == 1 && !weights || !c.state.Valid && !weights {
			t.Fatalf("accepted import of %q left errors %v", data, c.state.Errs)
		}
	})
}

// TestShareBarCopyRefused: where the clipboard refuses (natively there is
// none), the bar says so and shows the link for the user to copy.
func TestShareBarCopyRefused(t *testing.T) {
	c, _ := mountExplorer(t, url.Values{"rows": {"123456"}})
	b := &shareBar{Ready: true, Share: c.share, Sink: c.sink}
	d := app.NewClientTester(b)
	defer d.Close()
	d.Dispatch(app.Dispatch{Mode: app.Update, Source: b, Function: func(ctx app.Context) { b.onCopy(ctx, app.Event{}) }})
	d.Consume()
	if !b.copyFailed || !strings.Contains(b.copyStatus, "Ctrl+C") || b.link != "/?rows=123456" {
		t.Errorf("copy refused: failed %v, status %q, link %q", b.copyFailed, b.copyStatus, b.link)
	}
	if err := app.TestMatch(b, app.TestUIDescriptor{Path: app.TestPath(0, 2),
		Expected: app.Input().ID("share-link").Class("share-link").Type("text").ReadOnly(true).
			Aria("label", "the link to copy").Value("/?rows=123456")}); err != nil {
		t.Error(err)
	}
}

// TestImportReportBoundsIgnored: a config.json with thousands of junk
// keys is imported with a report listing the first fifty ignored keys
// and counting the rest (the list had no bound).
func TestImportReportBoundsIgnored(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"vocab_size": 1000, "hidden_size": 1024, "num_hidden_layers": 2, "num_experts_per_tok": 10`) // top-k: the resident count needs it
	for i := range 5000 {
		fmt.Fprintf(&b, `, "junk%05d": 1`, i)
	}
	b.WriteString("}")
	c, d := mountExplorer(t, nil)
	r := importInto(d, c, []byte(b.String()))
	if r.Err != "" {
		t.Fatalf("import refused: %s", r.Err)
	}
	if len(r.Ignored) != page.MaxIgnoredShown+1 || r.Ignored[0] != "junk00000" ||
		r.Ignored[page.MaxIgnoredShown] != "… and 4,950 more (5,000 keys in all)" {
		t.Errorf("ignored: %d items, first %q, last %q", len(r.Ignored), r.Ignored[0], r.Ignored[len(r.Ignored)-1])
	}
}

func readHF(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("../../estimator/hfconfig/testdata/hf/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
