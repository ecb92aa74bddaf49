//go:build !wasm

package e2e

// The explorer in a real browser: what only the WebAssembly side renders,
// the slider, the URL both ways, a bad URL value, a clean console.

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"

	"headroom/app/server"
	"headroom/app/ui/page"
	"headroom/estimator"
	"headroom/estimator/urlquery"
)

// decisions is what the decision panels show.
type decisions struct{ baseline, candidate string }

func (tb *tab) decisions() decisions {
	tb.t.Helper()
	text := func(rev string) string {
		return eval[string](tb, fmt.Sprintf(
			`(document.querySelector('#decision-%s .decision')?.textContent ?? '<no .decision>').trim()`, rev))
	}
	return decisions{text("baseline"), text("candidate")}
}

func expectedDecisions(t *testing.T, cfg estimator.Config) decisions {
	t.Helper()
	res, err := estimator.Estimate(cfg)
	if err != nil {
		t.Fatalf("fixture config: %v", err)
	}
	return decisions{res.Baseline.Decision.String(), res.Candidate.Decision.String()}
}

// query is the page's address query of a config, as the explorer writes it.
// query is the page's link to cfg, as it is: a config without a resident
// group opens with resident=off, and its expert parallelism is written
// where it differs from the page's 8 (page.ConfigQuery).
func query(cfg estimator.Config) string {
	return "?" + page.ConfigQuery(cfg, nil).Encode()
}

func TestE2EPageLoads(t *testing.T) {
	tb := newTab(t)
	// The server's HTML is not ready: only the WebAssembly side sets
	// data-ready and draws the chart, so the checks below prove it ran.
	resp, err := http.Get(tb.base + "/")
	if err != nil {
		t.Fatal(err)
	}
	html, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(html), `id="explorer"`) {
		t.Fatalf("GET /: status %d, no #explorer in the server's HTML", resp.StatusCode)
	}
	if strings.Contains(string(html), `data-ready="1"`) {
		t.Fatalf("the server's HTML is already data-ready; the test could not tell the WebAssembly side ran")
	}

	// The browser and server are shared by the tests: a worker another
	// test registered (or is still installing) would answer app.wasm from
	// its cache. This test is about the origin's first load, so it starts
	// from none.
	if _, err := chromedp.Call(tb.ctx, storage.ClearDataForOrigin,
		storage.ClearDataForOriginParams{Origin: tb.base, StorageTypes: "service_workers,cache_storage"}); err != nil {
		t.Fatalf("clearing the origin's workers and caches: %v", err)
	}
	tb.open("")
	if n := eval[int](tb, `document.querySelectorAll('#chart svg').length`); n < 1 {
		t.Errorf("#chart holds no <svg>")
	}
	if n := tb.renders(); n < 1 {
		t.Errorf("data-renders = %d after data-ready", n)
	}
	tb.waitDecisions(expectedDecisions(t, page.NewConfig()))
	// The browser took app.wasm compressed (this is the origin's first
	// load: no service worker answers yet) and decoded it.
	sizes := eval[[]float64](tb, `(() => {
		const e = performance.getEntriesByType('resource').find(e => e.name.endsWith('/web/app.wasm'));
		return e ? [e.encodedBodySize, e.decodedBodySize] : [];
	})()`)
	if len(sizes) != 2 || sizes[0] <= 0 || sizes[0] >= sizes[1] {
		t.Errorf("app.wasm encoded/decoded bytes %v: want it sent compressed", sizes)
	} else {
		t.Logf("app.wasm: %.0f bytes on the wire, %.0f decoded", sizes[0], sizes[1])
	}
	// The page's DOM contract, beyond what the other tests use.
	missing := eval[string](tb, `['preset', 'gpu', 'axis', 'axis-from', 'axis-to',
		'decision-baseline', 'decision-candidate', 'flips-baseline', 'flips-candidate',
		'change-summary', 'split-note', 'chart', 'breakdown', 'slider-vocab_size', 'input-vocab_size',
		'error-vocab_size', 'check-grad', 'copy-link', 'copy-status', 'export-svg', 'export-png', 'export-csv',
		'export-json', 'export-status', 'import-text', 'import-button', 'import-file', 'import-report',
		'changes-panel', 'term-add', 'error-terms', 'axis-fit', 'error-axis-from', 'error-axis-to',
		'composition-baseline', 'composition-candidate', 'dominates-baseline', 'dominates-candidate',
		'chart-summary', 'chart-bands', 'chart-crosshair', 'chart-readout', 'readout-x', 'readout-baseline',
		'readout-candidate', 'compare-preset', 'obs-text', 'measured-file', 'measured-status', 'workload-drop', 'workload-text', 'workload-status',
		'view-map', 'profile', 'error-profile', 'art-more', 'check-resident', 'error-resident', 'slider-lora_rank', 'input-lora_rank', 'input-lora_targets',
		'error-lora_targets', 'input-framework_reserve_bytes', 'slider-expert_parallel', 'resident-facts',
		'resident-baseline', 'resident-candidate'].filter(id => !document.getElementById(id)).join(' ')`)
	if missing != "" {
		t.Errorf("missing from the page: #%s", strings.ReplaceAll(missing, " ", ", #"))
	}
	// go-app's service worker registers under the server's CSP.
	tb.waitFor("the service worker to be active", swActiveExpr, 30*time.Second)
}

// swActiveExpr is true once the page's service worker is active; else it
// says how far it got.
const swActiveExpr = `(async () => {
	if (!navigator.serviceWorker) return 'no service worker API';
	const r = await navigator.serviceWorker.getRegistration();
	if (!r) return 'no registration';
	return !!r.active || {installing: r.installing?.state ?? null, waiting: r.waiting?.state ?? null};
})()`

// gojsProblem returns the console entries that show wasm_exec.js and the
// Go toolchain that built app.wasm disagreeing: the page's HTML looks
// fine, but app.wasm does not start, and the console says
// `Import #0 "gojs": module is not an object or function`.
func gojsProblem(entries []consoleEntry) []consoleEntry {
	var bad []consoleEntry
	for _, e := range entries {
		if strings.Contains(e.text, "gojs") || strings.Contains(e.text, "Import #") {
			bad = append(bad, e)
		}
	}
	return bad
}

// TestE2EWasmExecMatchesToolchain would catch a wasm_exec.js from another
// Go version than the one that built app.wasm (go-app serves its own
// copy): the page must become ready with no gojs import error.
func TestE2EWasmExecMatchesToolchain(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	if bad := gojsProblem(tb.entries()); len(bad) > 0 {
		t.Errorf("wasm_exec.js does not match the Go that built app.wasm: %v", bad)
	}
}

// TestE2EDetectsWasmExecMismatch shows that the check above works: served
// a wasm_exec.js whose import module is not "gojs" (as with a Go before
// 1.21), the page never becomes ready and the console names gojs.
func TestE2EDetectsWasmExecMismatch(t *testing.T) {
	tb := newTab(t)
	tb.expectErrors = true
	s, err := server.New(filepath.Join(e2e.dir, "web"), testAppHandler())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	broken := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/wasm_exec.js" {
			s.ServeHTTP(w, r)
			return
		}
		// The script's text, not its gzip (serve gzips it for a browser).
		r = r.Clone(r.Context())
		r.Header.Del("Accept-Encoding")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, r)
		js := rec.Body.String()
		if !strings.Contains(js, "gojs: {") {
			t.Errorf("wasm_exec.js has no gojs import object")
		}
		w.Header().Set("Content-Type", "text/javascript")
		io.WriteString(w, strings.Replace(js, "gojs: {", "go: {", 1))
	})
	srv := httptest.NewServer(broken) // 127.0.0.1, a port of its own
	defer srv.Close()
	tb.do(chromedp.Navigate(srv.URL + "/"))
	tb.waitUntil("a gojs error in the console with a mismatched wasm_exec.js", 60*time.Second, func() (bool, string) {
		return len(gojsProblem(tb.entries())) > 0, fmt.Sprintf("%d console entries, none naming gojs", len(tb.entries()))
	})
	if eval[bool](tb, readyExpr) {
		t.Errorf("the page became ready with a mismatched wasm_exec.js")
	}
}

// TestE2EVocabSliderFlipsDecision moves the vocabulary slider as a person
// would (its value, then an input event) from a config where that flips
// the decisions: chunk_rows 65536 makes the head's logits chunk scale with
// the vocabulary, so 64,000 admits both and a vocabulary near the top of
// the slider splits them.
func TestE2EVocabSliderFlipsDecision(t *testing.T) {
	cfg := estimator.Default()
	cfg.Head.ChunkRows = 65536
	cfg.Model.VocabSize = 64000
	before := expectedDecisions(t, cfg)
	tb := newTab(t)
	tb.open(query(cfg))
	tb.waitDecisions(before)
	tb.slideTo("vocab_size", 0.99)

	text := eval[string](tb, `document.getElementById('input-vocab_size').value`)
	vocab, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		t.Fatalf("#input-vocab_size shows %q after the slide", text)
	}
	moved := cfg
	moved.Model.VocabSize = vocab
	after := expectedDecisions(t, moved)
	if after == before {
		t.Fatalf("fixture: vocab_size %d decides %+v like 64000 does; pick a config where it flips", vocab, after)
	}
	tb.waitDecisions(after)
	// The page writes the address at most every 300 ms: wait for it.
	tb.waitQuery("vocab_size="+text+" and chunk_rows=65536 kept", func(search string) bool {
		q, err := url.ParseQuery(strings.TrimPrefix(search, "?"))
		return err == nil && q.Get("vocab_size") == text && q.Get("chunk_rows") == "65536"
	})
}

// query is the page's current address query.
func (tb *tab) query() url.Values {
	tb.t.Helper()
	search := eval[string](tb, `location.search`)
	q, err := url.ParseQuery(strings.TrimPrefix(search, "?"))
	if err != nil {
		tb.t.Fatalf("location.search %q: %v", search, err)
	}
	return q
}

// TestE2ESharedURLRestoresFields opens a link with many non-default values
// and checks that every control shows its value and that the page's own
// URL says the same config.
func TestE2ESharedURLRestoresFields(t *testing.T) {
	cfg := estimator.Default()
	cfg.Model.VocabSize = 64000
	cfg.Model.HiddenSize = 4096
	cfg.Model.NumHiddenLayers = 32
	cfg.Model.NumExpertsPerTok = 8
	cfg.Model.MoEIntermediateSize = 768
	cfg.Request.Rows = 100000
	cfg.Request.SequenceRows = 8192
	cfg.Request.Grad = false
	cfg.Head.ChunkRows = 1024
	cfg.FC2.DtypeBytes = 4
	cfg.Budget.CapacityBytes = estimator.H100CapacityBytes
	cfg.Budget.InUseBytes = 3 << 30
	cfg.Budget.ReservePermille = 50
	cfg.Budget.SafetyPercent = 125
	cfg.Changes.HeadEagerWorkspace = false
	if _, err := cfg.Resolve(); err != nil {
		t.Fatalf("fixture config: %v", err)
	}
	q := urlquery.Encode(cfg)
	if len(q) < 12 {
		t.Fatalf("fixture: only %d non-default values", len(q))
	}
	tb := newTab(t)
	tb.open(query(cfg))
	tb.openFolds() // moe_intermediate_size, dtype_bytes and the budget's are in closed groups
	for key := range q {
		f, _ := estimator.FieldByKey(key)
		if f.Kind == estimator.BoolField {
			got := eval[string](tb, fmt.Sprintf(`String(document.getElementById('check-%s')?.checked)`, key))
			if want := strconv.FormatBool(f.Bool(&cfg)); got != want {
				t.Errorf("#check-%s checked = %s, want %s", key, got, want)
			}
			continue
		}
		id, want := "input-"+key, q.Get(key)
		if key == "in_use_bytes" { // the page takes it in GiB
			id, want = "input-"+page.KeyInUseGiB, page.GiBText(cfg.Budget.InUseBytes)
		}
		got := eval[string](tb, fmt.Sprintf(`document.getElementById(%q)?.value ?? '<missing>'`, id))
		if got != want {
			t.Errorf("#%s = %q, want %q", id, got, want)
		}
	}
	if errs := eval[string](tb, `[...document.querySelectorAll('[id^="error-"]')].map(e => e.textContent.trim()).filter(Boolean).join(' | ')`); errs != "" {
		t.Errorf("a valid shared URL shows errors: %s", errs)
	}
	tb.waitQuery("the config ?"+q.Encode(), func(search string) bool {
		page, err := url.ParseQuery(strings.TrimPrefix(search, "?"))
		back, errs := urlquery.Decode(page)
		return err == nil && len(errs) == 0 && urlquery.Encode(back).Encode() == q.Encode()
	})
	tb.waitDecisions(expectedDecisions(t, cfg))
}

// TestE2EBadURLValue opens a link with one bad value: its control shows
// the estimator's message and the URL's text, and the rest of the link is
// kept.
func TestE2EBadURLValue(t *testing.T) {
	_, errs := urlquery.Decode(url.Values{"rows": {"0"}})
	if len(errs) != 1 {
		t.Fatalf("fixture: rows=0 gives %d errors, want 1", len(errs))
	}
	tb := newTab(t)
	tb.open("?rows=0&vocab_size=64000")
	msg := eval[string](tb, `document.getElementById('error-rows')?.textContent.trim() ?? '<missing>'`)
	if msg == "" || !strings.Contains(msg, errs[0].Message) {
		t.Errorf("#error-rows = %q, want the estimator's message %q", msg, errs[0].Message)
	}
	if got := eval[string](tb, `document.getElementById('input-rows').value`); got != "0" {
		t.Errorf("#input-rows = %q, want the URL's text 0", got)
	}
	if got := eval[string](tb, `document.getElementById('input-vocab_size').value`); got != "64000" {
		t.Errorf("#input-vocab_size = %q, want 64000 kept from the URL", got)
	}
	tb.waitQuery("vocab_size=64000 and the bad rows=0 kept", func(search string) bool {
		q, err := url.ParseQuery(strings.TrimPrefix(search, "?"))
		return err == nil && q.Get("vocab_size") == "64000" && q.Get("rows") == "0"
	})
}

// TestE2EScreenshot writes docs/screenshot.png (1280x800) for the README
// when HEADROOM_SCREENSHOT is set: make screenshot.
func TestE2EScreenshot(t *testing.T) {
	if os.Getenv("HEADROOM_SCREENSHOT") == "" {
		t.Skip("set HEADROOM_SCREENSHOT=1 to write docs/screenshot.png")
	}
	tb := newTab(t)
	tb.open("")
	tb.do(chromedp.Evaluate[chromedp.Void](`document.fonts.ready.then(() => true)`, chromedp.EvalAwaitPromise))
	png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join("..", "..", "docs", "screenshot.png")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", out, len(png))
}
