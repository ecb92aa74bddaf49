//go:build !wasm

package e2e

// Sharing in a real browser: the exports land as files with the chart's
// content, import by paste, picker and drop, the copied link, and the
// page working offline after one visit, from the live server and from the
// static site under a path prefix.

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"headroom/app/chart"
	"headroom/app/report"
	"headroom/app/server"
	"headroom/app/ui"
	"headroom/app/ui/page"
	"headroom/estimator"
	"headroom/estimator/hfconfig"
	"headroom/estimator/urlquery"
)

// downloadsTo makes the browser save downloads into dir under the names
// the page gives them.
func (tb *tab) downloadsTo(dir string) {
	tb.t.Helper()
	_, err := chromedp.CallBrowser(tb.ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir})
	if err != nil {
		tb.t.Fatalf("download behavior: %v", err)
	}
}

// download clicks a button as a person would and returns the file it
// saved as name in dir.
func (tb *tab) download(dir, buttonID, name string) []byte {
	tb.t.Helper()
	path := filepath.Join(dir, name)
	os.Remove(path)
	tb.do(chromedp.Click(chromedp.ID(buttonID)))
	var data []byte
	tb.waitUntil(fmt.Sprintf("#%s to save %s", buttonID, name), 30*time.Second, func() (bool, string) {
		var err error
		if data, err = os.ReadFile(path); err == nil && len(data) > 0 {
			if _, err := os.Stat(path + ".crdownload"); os.IsNotExist(err) {
				return true, ""
			}
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		status, _ := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`document.getElementById('export-status').textContent`))
		return false, fmt.Sprintf("in the directory: %v; #export-status %q", files, status)
	})
	return data
}

// TestE2EExportDownloads clicks each export and reads the file: the CSV is
// the sweep behind the chart (header and one row per x, exact bytes), the
// JSON's config is the page's, the SVG is the plot command's and the PNG
// is 1600x900 and not blank. The PNG is drawn by the browser from a blob:
// URL; the console check fails the test on any CSP violation.
func TestE2EExportDownloads(t *testing.T) {
	cfg := pressureConfig()
	from, to := page.FitRange("rows", cfg)
	in, err := chart.Build(cfg, "rows", from, to, page.ChartPoints)
	if err != nil {
		t.Fatal(err)
	}
	tb := newTab(t)
	dir := t.TempDir()
	tb.downloadsTo(dir)
	tb.open(query(cfg))
	tb.waitSettled()
	linked, errs := urlquery.Decode(tb.query())
	if len(errs) > 0 || string(estimator.MarshalConfig(linked)) != string(estimator.MarshalConfig(cfg)) {
		t.Fatalf("fixture: the page's URL says another config (%v)", errs)
	}

	data := tb.download(dir, "export-csv", "qwen3-next-80b-a3b_rows.csv")
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("CSV: %v", err)
	}
	if got, want := strings.Join(recs[0], ","), strings.Join(report.SweepCSVHeader("rows"), ","); got != want {
		t.Errorf("CSV header\n %s\nwant\n %s", got, want)
	}
	kinds := map[string]int{}
	for _, rec := range recs[1:] {
		kinds[rec[0]]++
	}
	if kinds["grid"] != len(in.Points) || kinds["flip"] == 0 || len(kinds) != 2 {
		t.Errorf("CSV rows by kind %v, the sweep has %d points and %d + %d flips", kinds, len(in.Points), len(in.Baseline), len(in.Candidate))
	}
	if want, err := report.SweepCSV(cfg, ui.SweepOf(in)); err != nil || !bytes.Equal(data, want) {
		t.Errorf("the CSV is not ui.ExportCSV of the sweep (%v)", err)
	}
	tb.waitText("export-status", "qwen3-next-80b-a3b_rows.csv")

	data = tb.download(dir, "export-json", "qwen3-next-80b-a3b_rows.json")
	imp, err := page.ImportJSON(estimator.Default(), data)
	if err != nil || imp.Kind != "export" {
		t.Fatalf("the JSON export does not import: %q %v", imp.Kind, err)
	}
	if string(estimator.MarshalConfig(imp.Config)) != string(estimator.MarshalConfig(linked)) {
		t.Errorf("the JSON's config\n%s\nthe page's\n%s", estimator.MarshalConfig(imp.Config), estimator.MarshalConfig(linked))
	}
	if want := (page.View{Preset: page.DefaultPresetID, Axis: "rows", From: from, To: to}); *imp.View != want {
		t.Errorf("the JSON's view %+v, want %+v", *imp.View, want)
	}
	var f struct {
		Result estimator.Result      `json:"result"`
		Flips  estimator.SweepResult `json:"flips"` // as the sweep command writes it (docs/model.md §6)
	}
	res, _ := estimator.Estimate(cfg)
	if err := json.Unmarshal(data, &f); err != nil || f.Result.Candidate.RequiredBytes != res.Candidate.RequiredBytes {
		t.Errorf("the JSON's result: %v, candidate required %d, want %d", err, f.Result.Candidate.RequiredBytes, res.Candidate.RequiredBytes)
	}
	if fmt.Sprint(f.Flips.Baseline.Flips) != fmt.Sprint(in.Baseline) || fmt.Sprint(f.Flips.Candidate.Flips) != fmt.Sprint(in.Candidate) || f.Flips.Axis != "rows" {
		t.Errorf("the JSON's flips along %q: %v and %v, want %v and %v", f.Flips.Axis, f.Flips.Baseline.Flips, f.Flips.Candidate.Flips, in.Baseline, in.Candidate)
	}
	jsonPath := filepath.Join(dir, "qwen3-next-80b-a3b_rows.json")

	// The SVG is the plot command's drawing with a title and a caption
	// (dated today, UTC; yesterday's date too, should midnight pass).
	data = tb.download(dir, "export-svg", "qwen3-next-80b-a3b_rows.svg")
	for _, want := range []string{"Headroom: Qwen3-Next-80B-A3B on H200, required bytes along rows",
		"preset Qwen3-Next-80B-A3B", "GPU H200", "with head_eager_workspace, fc2_known_storage, gdn_early_release",
		"axis rows 1 to", "candidate: admit to split at"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("the SVG export lacks %q", want)
		}
	}
	now := time.Now().UTC()
	if !bytes.Contains(data, []byte(now.Format("2006-01-02"))) && !bytes.Contains(data, []byte(now.Add(-time.Hour).Format("2006-01-02"))) {
		t.Errorf("the SVG export has no date of today")
	}
	if !bytes.HasPrefix(data, []byte("<svg")) || !bytes.Contains(data, []byte("</svg>")) {
		t.Errorf("the SVG export is not one <svg> element: %.80s", data)
	}

	data = tb.download(dir, "export-png", "qwen3-next-80b-a3b_rows.png")
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1600 || b.Dy() != 900 {
		t.Errorf("PNG is %dx%d, want 1600x900", b.Dx(), b.Dy())
	}
	if n := colours(img); n < 8 {
		t.Errorf("PNG has %d colours: blank", n)
	}

	// Picking the JSON in another state restores the exported page.
	want := tb.query().Encode()
	tb.open("?preset=llama-3.1-8b&axis=hidden_size&grad=false")
	n := tb.edits()
	tb.do(chromedp.SetUploadFiles(chromedp.ID("import-file"), []string{jsonPath}))
	tb.waitEdits(n)
	tb.waitURL(want)
	tb.waitText("import-report", "Restored the whole page")
}

// colours counts the distinct colours of an image, up to 64.
func colours(img image.Image) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
			if len(seen) >= 64 {
				return len(seen)
			}
		}
	}
	return len(seen)
}

// waitURL waits until the address bar's query is want (the page writes it
// at most every 300 ms).
func (tb *tab) waitURL(want string) {
	tb.t.Helper()
	tb.waitQuery("?"+want, func(search string) bool {
		q, err := url.ParseQuery(strings.TrimPrefix(search, "?"))
		return err == nil && q.Encode() == want
	})
}

func (tb *tab) reportText() string {
	return eval[string](tb, `document.getElementById('import-report').textContent.replace(/\s+/g, ' ').trim()`)
}

func (tb *tab) value(id string) string {
	tb.t.Helper()
	return eval[string](tb, fmt.Sprintf(`document.getElementById(%q)?.value ?? '<missing>'`, id))
}

// paste puts text into the import box as a paste does (an insertText
// into the focused field) and clicks Import.
func (tb *tab) paste(text string) {
	tb.t.Helper()
	tb.do(chromedp.Evaluate[chromedp.Void](`(() => { const t = document.getElementById('import-text'); t.value = ''; t.focus(); })()`))
	if _, err := chromedp.Call(tb.ctx, input.InsertText, input.InsertTextParams{Text: text}); err != nil {
		tb.t.Fatalf("insertText: %v", err)
	}
	tb.do(chromedp.Click(chromedp.ID("import-button")))
}

// TestE2EImportPasteAndCopyLink pastes a real Hugging Face config.json:
// the model fields fill in, the URL follows and keeps the rest, the report
// lists the keys recognised and ignored. A malformed paste shows a message
// and changes nothing. A dropped config.json imports the same way, dropped
// text in the spec's format sets every input, and "copy link" copies the
// URL of the state.
func TestE2EImportPasteAndCopyLink(t *testing.T) {
	hf := readHF(t, "llama-3.1-8b.json")
	_, rep, err := hfconfig.Import(estimator.Default(), hf) // what the page imports: the model and dtype_bytes
	if err != nil {
		t.Fatal(err)
	}
	tb := newTab(t)
	tb.open("?rows=123456")
	n := tb.edits()
	tb.paste(string(hf))
	tb.waitEdits(n)
	tb.waitValue("input-vocab_size", "128256")
	tb.waitValue("input-hidden_size", "4096")
	tb.waitURL(func() string {
		// The page's default (resident memory at E = 8) with the import:
		// the address carries the model's arch fields too.
		cfg, _, _ := hfconfig.Import(page.NewConfig(), hf)
		cfg.Request.Rows = 123456
		presets, _ := page.Presets()
		return page.ConfigQuery(cfg, presets).Encode()
	}())
	list := func(id string) []string {
		return eval[[]string](tb, fmt.Sprintf(`[...document.querySelectorAll('#%s li')].map(e => e.textContent)`, id))
	}
	recognised := list("import-recognised")
	if len(recognised) != len(rep.Recognised) {
		t.Errorf("recognised %v, want %d entries", recognised, len(rep.Recognised))
	}
	for i, f := range rep.Recognised {
		if i < len(recognised) && !strings.HasPrefix(recognised[i], f.Key+" → "+f.Field) {
			t.Errorf("recognised[%d] = %q, want %s → %s", i, recognised[i], f.Key, f.Field)
		}
	}
	if got := strings.Join(list("import-ignored"), " "); got != strings.Join(rep.Ignored, " ") {
		t.Errorf("ignored %q, want %q", got, strings.Join(rep.Ignored, " "))
	}

	tb.waitSettled()
	before, n, edits := tb.query().Encode(), tb.renders(), tb.edits()
	state := eval[string](tb, `document.getElementById('explorer').dataset.query`)
	tb.paste(`{"vocab_size": 32000, "hidden_size": `)
	// The refused import counts as an edit: once the render after it ran,
	// the page's state and renders are final.
	tb.waitEdits(edits)
	tb.waitFor("a failure report after a malformed paste", `document.querySelector('#import-report.failed') !== null ||
		document.getElementById('import-report').textContent.trim()`, 10*time.Second)
	if got := tb.reportText(); !strings.Contains(got, "Nothing was imported") || !strings.Contains(got, "JSON") {
		t.Errorf("#import-report = %q after a malformed paste", got)
	}
	if got := tb.value("input-vocab_size"); got != "128256" {
		t.Errorf("#input-vocab_size = %q after a malformed paste, want 128256 kept", got)
	}
	if got := eval[string](tb, `document.getElementById('explorer').dataset.query`); got != state || tb.renders() != n {
		t.Errorf("a malformed paste changed the page's state: ?%s (was ?%s), renders %d -> %d", got, state, n, tb.renders())
	}
	if got := tb.query().Encode(); got != before {
		t.Errorf("a malformed paste changed the address: ?%s (was ?%s)", got, before)
	}

	// A config.json dropped on the page.
	qwen := readHF(t, "qwen3-30b-a3b.json")
	n = tb.edits()
	tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([%s], 'config.json', {type: 'application/json'}));
		document.getElementById('chart').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
	})()`, jsString(string(qwen)))))
	tb.waitEdits(n)
	tb.waitValue("input-vocab_size", "151936")
	tb.waitText("import-report", "From config.json")

	// Text dropped on the page: a config in the spec's format sets every
	// input from it.
	n = tb.edits()
	tb.do(chromedp.Evaluate[chromedp.Void](`(() => {
		const dt = new DataTransfer();
		dt.setData('text/plain', '{"request": {"rows": 77777}}');
		document.getElementById('chart').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
	})()`))
	tb.waitEdits(n)
	tb.waitValue("input-rows", "77777")
	tb.waitValue("input-num_experts_per_tok", fmt.Sprint(estimator.Default().Model.NumExpertsPerTok))

	// Copy link: the clipboard gets the page's URL.
	origin := tb.base
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.CallBrowser(tb.ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: name}, Setting: browser.PermissionSettingGranted, Origin: origin}); err != nil {
			t.Fatalf("permission %s: %v", name, err)
		}
	}
	tb.do(chromedp.Click(chromedp.ID("copy-link")))
	tb.waitText("copy-status", "copied")
	tb.waitFor("the clipboard to hold the page's URL, with rows=77777", `(async () => {
		const copied = await navigator.clipboard.readText();
		return (copied === location.href && copied.includes('rows=77777')) || {copied, href: location.href};
	})()`, 10*time.Second)
}

// jsString quotes s as a JavaScript string.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// waitServiceWorker waits until the page's service worker is active and
// controls the page (go-app's worker does not claim the page that
// installed it: a reload does).
func (tb *tab) waitServiceWorker() {
	tb.t.Helper()
	tb.waitFor("the service worker to be active", swActiveExpr, 30*time.Second)
	tb.do(chromedp.Reload())
	tb.waitReady()
	tb.waitFor("the service worker to control the page after a reload",
		`navigator.serviceWorker.controller !== null || 'no controller'`, 10*time.Second)
}

// checkOffline stops the server, then opens url (a query with values of
// its own) and checks that the page works and shows the query's values.
// The console's failed requests (the worker's update check) are expected.
func (tb *tab) checkOffline(stop func(), url string) {
	tb.t.Helper()
	stop()
	if resp, err := http.Get(url); err == nil {
		resp.Body.Close()
		tb.t.Fatalf("the server still answers after it stopped")
	}
	tb.do(chromedp.Navigate(url))
	tb.waitReady()
	tb.waitValue("input-vocab_size", "64000")
	tb.waitValue("input-rows", "123456")
	cfg := page.NewConfig()
	cfg.Model.VocabSize, cfg.Request.Rows = 64000, 123456
	tb.waitDecisions(expectedDecisions(tb.t, cfg))
}

// offlineQuery is the state a reload opens with the server stopped.
const offlineQuery = "?vocab_size=64000&rows=123456"

// TestE2EOfflineLiveServer: after one visit to serve's page, the page
// works with the server stopped, and a link's state still restores.
func TestE2EOfflineLiveServer(t *testing.T) {
	tb := newTab(t)
	s, err := server.New(filepath.Join(e2e.dir, "web"), testAppHandler())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	srv := httptest.NewServer(s) // an origin of its own: its own worker and cache
	defer srv.Close()
	tb.do(chromedp.Navigate(srv.URL + "/"))
	tb.waitReady()
	tb.waitServiceWorker()
	tb.allowOfflineErrors()
	tb.checkOffline(srv.Close, srv.URL+"/"+offlineQuery)
}

// TestE2EStaticSite: the site `static -o DIR` writes, served by a plain
// file server under /headroom/, loads, draws, answers a slider, keeps the
// prefix in its URL, and works offline after one visit.
func TestE2EStaticSite(t *testing.T) {
	tb := newTab(t)
	dir := t.TempDir()
	if err := server.WriteStaticSite(dir, filepath.Join(e2e.dir, "web"), "", testAppHandler()); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/headroom/", http.StripPrefix("/headroom", http.FileServer(http.Dir(dir))))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	cfg := estimator.Default()
	cfg.Head.ChunkRows = 65536
	cfg.Model.VocabSize = 64000
	before := expectedDecisions(t, cfg)
	tb.do(chromedp.Navigate(srv.URL + "/headroom/" + query(cfg)))
	tb.waitReady()
	if n := eval[int](tb, `document.querySelectorAll('#chart svg').length`); n < 1 {
		t.Errorf("#chart holds no <svg>")
	}
	tb.waitDecisions(before)
	tb.slideTo("vocab_size", 0.99)
	vocab := tb.value("input-vocab_size")
	moved := cfg
	var err error
	if moved.Model.VocabSize, err = estimator.ParseInt(vocab); err != nil {
		t.Fatalf("#input-vocab_size = %q after the slide", vocab)
	}
	after := expectedDecisions(t, moved)
	if after == before {
		t.Fatalf("fixture: vocab_size %s decides %+v like 64000 does", vocab, after)
	}
	tb.waitDecisions(after)
	tb.waitQuery("vocab_size="+vocab, func(search string) bool {
		q, err := url.ParseQuery(strings.TrimPrefix(search, "?"))
		return err == nil && q.Get("vocab_size") == vocab
	})
	if path := eval[string](tb, `location.pathname`); path != "/headroom/" {
		t.Errorf("the URL lost its prefix: %s", path)
	}
	if missing := eval[string](tb, `['copy-link', 'export-png', 'import-text', 'import-file'].filter(id => !document.getElementById(id)).join(' ')`); missing != "" {
		t.Errorf("missing from the static page: %s", missing)
	}

	tb.waitServiceWorker()
	tb.allowOfflineErrors()
	tb.checkOffline(srv.Close, srv.URL+"/headroom/"+offlineQuery)
	if path := eval[string](tb, `location.pathname`); path != "/headroom/" {
		t.Errorf("offline, the URL lost its prefix: %s", path)
	}
}

// allowOfflineErrors lets the console report what a page whose server is
// gone may rightly fail at: the browser's update check of app-worker.js,
// which goes to the network. Any other error still fails the test, a file
// the worker did not cache (net::ERR_FAILED) included.
func (tb *tab) allowOfflineErrors() {
	tb.expectErrors = true
	start := len(tb.entries())
	tb.t.Cleanup(func() {
		chromedp.Run(tb.ctx, chromedp.Evaluate[chromedp.Void](`0`))
		for i, e := range tb.entries() {
			offline := i >= start && (strings.Contains(e.text, "ERR_CONNECTION_REFUSED") ||
				strings.Contains(e.text, "Failed to update a ServiceWorker") ||
				strings.Contains(e.text, "An unknown error occurred when fetching the script"))
			if e.isError() && !offline {
				tb.t.Errorf("browser console: %s", e)
			} else {
				tb.t.Logf("browser console: %s", e)
			}
		}
	})
}
