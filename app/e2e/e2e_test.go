//go:build !wasm

package e2e

// The harness of the browser tests: the explorer built to WebAssembly,
// served in-process on loopback, driven in Debian's headless Chromium with
// chromedp. The tests are the e2e_*_test.go files beside this one.
//
// The DOM contract the tests rely on (TestE2EPageLoads checks every id):
//
//	#explorer                    data-ready="1" after the first render, data-renders,
//	                             data-busy="1" while a render or an address write is due
//	#preset #gpu #axis #axis-from #axis-to   the menus and the range fields
//	#input-KEY #slider-KEY #error-KEY #check-KEY   the controls, by field key
//	#chart (its <svg>) #decision-baseline #decision-candidate
//	#flips-baseline #flips-candidate #change-summary #split-note #breakdown
//	#breakdown-scroll-cue (shown on a phone) #chart-help (#chart-help-pointer, #chart-help-touch)
//	#error-banner #error-details #copy-details #dismiss-error
//	#copy-link (button) #copy-status (its confirmation)
//	#export-svg #export-png #export-csv #export-json (buttons) #export-status
//	#import-text (textarea) #import-button #import-file (file input)
//	#import-report (what was recognised and ignored, or why nothing changed)
//	#changes-panel #term-add #error-terms   the Changes panel (the three #check-KEY switches too)
//	#term-N #term-name-N #term-place-N #term-revision-N #term-bytes-N #error-term-N
//	#term-help-N (opens #term-helpbox-N: #term-value-N, #term-vars-N) #term-remove-N
//	#axis-fit (puts a typed range back) #error-axis-from #error-axis-to
//	#composition-REV #dominates-REV   what each decision's required bytes are made of
//	#chart-summary #chart-bands #chart-crosshair #chart-readout (#readout-x,
//	  #readout-baseline, #readout-candidate)   the chart's overlay and read-out
//	#compare-preset   the Compare control (its form opens from it; there #b.profile, the baseline's trainer)
//	#profile #error-profile   the Trainer menu (seeds or art) in the Changes panel
//	#art-more   the folded group of ART's fields (#input-KEY, #check-KEY inside)
//	details[data-fields]   a closed group (data-fields: the keys of its fields),
//	  whose fields are drawn once it is opened (openFolds, e2e_folds_test.go)
//	#obs-text   observed peaks; #obs-note #obs-sentence #error-observed once pasted
//	#measured-file #measured-status   a snapshot or reports dropped on #observed-panel;
//	  while one is read: #measured-progress #measured-cancel; once read:
//	  #measured-peak-N #measured-compare-N #measured-chart-N #measured-live-N
//	  (device N), #measured-reports, #measured-use-points #measured-use-profile
//	#workload-drop #workload-text #workload-status   the Workload panel; once a
//	  workload is read: #workload-table #workload-sentence #workload-progress
//	  #workload-markdown #workload-share-status #workload-cost (what the hold
//	  costs) #workload-ignored (the ignored columns, when there are any)
//	#view-map   the "Two inputs" tab; with view=map: #map-view #map #my
//	  #map-progress #map-problem #map-readout
//	#stale-note   with a field in error (names it; the results are the last valid state's)
//	#chart-empty   while the chart has no drawing: "Loading…", or with a link that
//	  cannot be priced, what to fix
//	#note-in_use_gib   with in-use bytes that are no round GiB: the bytes with their GiB
//	#breakdown-diff-head   once drawn: the difference column's head ("whole plans" when they differ)
//	#workload-pinned #workload-rebase   once a workload line is loaded into the explorer;
//	  #workload-moved once a rerun for a new config moved the verdict
//	#check-resident #error-resident   the "On the GPU" group's switch; with it on:
//	  #input-lora_rank #input-lora_targets #input-framework_reserve_bytes
//	  (#slider-/#error- of each but the targets' slider), #slider-expert_parallel,
//	  #resident-facts, #resident-REV (what each decision panel says is resident);
//	  once the weights cannot fit: #no-fit #no-fit-text #no-fit-use
//
// The ids above "once" or "with" exist only in that state; TestE2EPageLoads
// checks the others on the default page.

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"headroom/app/server"
)

// wasmTags and wasmLDFlags are the Makefile's WASM_TAGS and WASM_LDFLAGS
// (and the builds take its -trimpath): the tests run the build the page
// ships.
const (
	wasmTags    = "minimal"
	wasmLDFlags = "-s -w"
)

// e2eTimeout bounds one browser test, page load included (scaled by the
// throttle, as every wait is): a bound on a hang, generous for a loaded
// machine.
const e2eTimeout = 5 * time.Minute

// e2e is the browser tests' shared state: one build, one server, one
// browser for the whole test binary, started by the first test that needs
// them and stopped by TestMain.
var e2e struct {
	once    sync.Once
	skip    string // why the browser tests cannot run here
	err     error  // the setup failed
	dir     string // temporary: web/, the browser profile
	base    string // the server, http://127.0.0.1:port
	browser context.Context
	stop    []func() // in reverse order
}

func TestMain(m *testing.M) {
	code := m.Run()
	for i := len(e2e.stop) - 1; i >= 0; i-- {
		e2e.stop[i]()
	}
	os.Exit(code)
}

// e2eSetup returns the server's URL and the browser, starting them on the
// first call. Without chromium the test skips, but fails under CI=true:
// CI installs it, so a skip there would hide the browser tests.
func e2eSetup(t *testing.T) (base string, browser context.Context) {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests skipped in -short mode")
	}
	e2e.once.Do(startE2E)
	if e2e.skip != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true: %s", e2e.skip)
		}
		t.Skip(e2e.skip)
	}
	if e2e.err != nil {
		t.Fatalf("browser test setup: %v", e2e.err)
	}
	return e2e.base, e2e.browser
}

func startE2E() {
	chromium, err := findChromium()
	if err != nil {
		e2e.skip = err.Error()
		return
	}
	e2e.dir, e2e.err = os.MkdirTemp("", "headroom-e2e-")
	if e2e.err != nil {
		return
	}
	e2e.stop = append(e2e.stop, func() { os.RemoveAll(e2e.dir) })
	web := filepath.Join(e2e.dir, "web")
	if e2e.err = buildTestWeb(web); e2e.err != nil {
		return
	}
	if e2e.base, e2e.err = startE2EServer(web); e2e.err != nil {
		return
	}
	e2e.browser, e2e.err = startBrowser(chromium, filepath.Join(e2e.dir, "profile"))
}

// findChromium finds Debian's chromium: on PATH, else /usr/bin/chromium.
// The tests never download a browser.
func findChromium() (string, error) {
	if p, err := exec.LookPath("chromium"); err == nil {
		return p, nil
	}
	if fi, err := os.Stat("/usr/bin/chromium"); err == nil && !fi.IsDir() {
		return "/usr/bin/chromium", nil
	}
	return "", errors.New("chromium is not installed, so the browser tests cannot run " +
		"(Debian: apt-get install chromium; make test installs it when run as root)")
}

// prebuiltWasmEnv names an app.wasm the tests serve instead of building
// their own: make test sets it to the web/app.wasm its wasm step has just
// built from this source (with its gzip and brotli copies), so its three
// runs of this package do not each build and compress it again.
const prebuiltWasmEnv = "HEADROOM_E2E_WASM"

// buildTestWeb fills web with the project's web/ files and an app.wasm
// built now from this source, so the tests never run a stale build, with
// its gzip copy (and br, when the brotli command is there) so the browser
// loads it compressed as it would from make run. With HEADROOM_E2E_WASM
// set it copies that build and its compressed copies instead.
func buildTestWeb(web string) error {
	src, err := server.FindWebDir("")
	if err != nil {
		return err
	}
	if err := copyWebFiles(src, web); err != nil {
		return err
	}
	if pre := os.Getenv(prebuiltWasmEnv); pre != "" {
		return copyPrebuiltWasm(pre, filepath.Join(web, "app.wasm"))
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("building app.wasm: %v", err)
	}
	wasm := filepath.Join(web, "app.wasm")
	cmd := exec.Command(goCmd, "build", "-trimpath", "-tags="+wasmTags, "-ldflags="+wasmLDFlags, "-o", wasm, mainPackage)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("GOOS=js GOARCH=wasm go build: %v\n%s", err, out)
	}
	if err := gzipFile(wasm, wasm+".gz"); err != nil {
		return err
	}
	if _, err := exec.LookPath("brotli"); err == nil {
		// Quality 5: seconds, not the half minute of make wasm's 11.
		if out, err := exec.Command("brotli", "-q", "5", "-k", "-f", wasm).CombinedOutput(); err != nil {
			return fmt.Errorf("brotli: %v\n%s", err, out)
		}
	}
	return nil
}

// copyPrebuiltWasm copies the build at src to dst with its .gz copy,
// which must be there and no older than the build (make wasm's rule: an
// older copy is of another build), and its .br copy when it is there and
// no older.
func copyPrebuiltWasm(src, dst string) error {
	fi, err := os.Stat(src)
	if err != nil {
		return fmt.Errorf("%s: %v", prebuiltWasmEnv, err)
	}
	for _, ext := range []string{"", ".gz", ".br"} {
		ci, err := os.Stat(src + ext)
		if ext == ".br" && errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %v", prebuiltWasmEnv, err)
		}
		if ci.ModTime().Before(fi.ModTime()) {
			return fmt.Errorf("%s: %s is older than %s, so it is not its copy (make wasm redoes it)", prebuiltWasmEnv, src+ext, src)
		}
		data, err := os.ReadFile(src + ext)
		if err != nil {
			return err
		}
		if err := os.WriteFile(dst+ext, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// copyWebFiles copies the regular files of src into dst, except app.wasm
// and its compressed copies.
func copyWebFiles(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() || strings.HasPrefix(rel, "app.wasm") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
}

func gzipFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(out)
	if _, err := io.Copy(zw, in); err != nil {
		out.Close()
		return err
	}
	if err := zw.Close(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// startE2EServer serves web on a free loopback port until TestMain stops it.
func startE2EServer(web string) (string, error) {
	s, err := server.New(web, testAppHandler())
	if err != nil {
		return "", err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.Close()
		return "", err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- server.ServeUntil(ctx, server.NewHTTPServer(s, os.Stderr), ln) }()
	e2e.stop = append(e2e.stop, func() {
		cancel()
		if err := <-done; err != nil {
			fmt.Fprintf(os.Stderr, "e2e server shutdown: %v\n", err)
		}
		s.Close()
	})
	return "http://" + ln.Addr().String(), nil
}

// startBrowser starts headless Chromium with exactly the flags the tests
// need (no others: chromedp's defaults include flags we do not want, and
// no --virtual-time-budget, which freezes the page's clock) and opens
// about:blank, so the browser exists before any test listens to a tab.
func startBrowser(chromium, profile string) (context.Context, error) {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("no-first-run", true),
		chromedp.UserDataDir(profile),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	browser, cancelBrowser := chromedp.NewContext(allocCtx)
	e2e.stop = append(e2e.stop, cancelAlloc, cancelBrowser)
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(browser, chromedp.Navigate("about:blank")) }()
	select {
	case err := <-started:
		if err != nil {
			return nil, fmt.Errorf("starting %s: %v", chromium, err)
		}
	case <-time.After(time.Minute):
		return nil, fmt.Errorf("starting %s: no answer in a minute", chromium)
	}
	return browser, nil
}

// consoleEntry is one message of a tab's console: a console API call, an
// uncaught exception, or a browser log entry (a CSP violation, a failed
// load).
type consoleEntry struct {
	kind string // "console.error", "exception", "log.error", ...
	text string
}

func (e consoleEntry) String() string { return e.kind + ": " + e.text }

// isError reports whether the entry is a failure of the page: an error of
// any source, or the Go runtime reporting a panic or an exit (it writes
// through console.log and console.warn).
func (e consoleEntry) isError() bool {
	switch e.kind {
	case "console.error", "console.assert", "exception", "log.error":
		return true
	}
	for _, s := range []string{"panic: ", "fatal error: ", "exit code:", "Content Security Policy", "Content-Security-Policy"} {
		if strings.Contains(e.text, s) {
			return true
		}
	}
	return false
}

// tab is one browser tab of a test, with its console.
type tab struct {
	t    *testing.T
	ctx  context.Context // bounded by e2eTimeout
	base string

	// expectErrors turns off the console check, for a test that breaks
	// the page on purpose.
	expectErrors bool

	mu      sync.Mutex
	console []consoleEntry
}

// newTab opens a tab and records its console from the start; when the
// test ends, any console error fails it.
func newTab(t *testing.T) *tab {
	t.Helper()
	return newTabFor(t, slow(e2eTimeout))
}

// newTabFor is newTab with the tab's whole life bounded by d instead of
// e2eTimeout: for a test that reads a file of hundreds of MB.
func newTabFor(t *testing.T, d time.Duration) *tab {
	t.Helper()
	base, browser := e2eSetup(t)
	tabCtx, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	tb := &tab{t: t, base: base}
	// Listen opens the tab; its func sees each event before the command
	// that follows it returns, so checkConsole misses nothing.
	if err := chromedp.Listen(tabCtx, tb.record); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	// The newest tab in front: a tab behind others gets fewer animation
	// frames, and the map is computed in them.
	if _, err := chromedp.Call(tabCtx, cdppage.BringToFront, cdp.Empty{}); err != nil {
		t.Fatalf("bringing the tab to the front: %v", err)
	}
	if err := throttle(tabCtx); err != nil {
		t.Fatalf("CPU throttle: %v", err)
	}
	ctx, cancelTimeout := context.WithTimeout(tabCtx, d)
	t.Cleanup(cancelTimeout)
	tb.ctx = ctx
	t.Cleanup(tb.checkConsole)
	tb.do(chromedp.EmulateViewport(1280, 800))
	return tb
}

func (tb *tab) record(ev any) {
	var e consoleEntry
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		var parts []string
		for _, a := range ev.Args {
			parts = append(parts, remoteText(a))
		}
		e = consoleEntry{"console." + string(ev.Type), strings.Join(parts, " ")}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil {
			text += " " + d.Exception.Description
		}
		e = consoleEntry{"exception", text}
	case *log.EventEntryAdded:
		e = consoleEntry{"log." + string(ev.Entry.Level), ev.Entry.Text + " " + ev.Entry.URL}
	default:
		return
	}
	tb.mu.Lock()
	tb.console = append(tb.console, e)
	tb.mu.Unlock()
}

// remoteText is a console argument as text: a string as it is, another
// value by its description or JSON.
func remoteText(o *runtime.RemoteObject) string {
	if o.Type == runtime.RemoteObjectTypeString {
		var s string
		if err := json.Unmarshal(o.Value, &s); err == nil {
			return s
		}
	}
	if o.Description != "" {
		return o.Description
	}
	return string(o.Value)
}

// entries returns the console so far.
func (tb *tab) entries() []consoleEntry {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]consoleEntry(nil), tb.console...)
}

// consoleLen is how many console entries the tab has seen so far.
func (tb *tab) consoleLen() int {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return len(tb.console)
}

// forgiveConsole takes out of the console check the entries since the
// first from that forgiven matches, logging each, and returns how many.
func (tb *tab) forgiveConsole(from int, forgiven func(consoleEntry) bool) int {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	kept, n := tb.console[:from:from], 0
	for _, e := range tb.console[from:] {
		if forgiven(e) {
			tb.t.Logf("browser console (forgiven): %s", e)
			n++
			continue
		}
		kept = append(kept, e)
	}
	tb.console = kept
	return n
}

// consoleErrors returns the console's errors so far.
func (tb *tab) consoleErrors() []consoleEntry {
	var errs []consoleEntry
	for _, e := range tb.entries() {
		if e.isError() {
			errs = append(errs, e)
		}
	}
	return errs
}

// checkConsole fails the test on any console error; it runs when the test
// ends, after a round trip to the page so every earlier message is in.
func (tb *tab) checkConsole() {
	if tb.expectErrors {
		return
	}
	chromedp.Run(tb.ctx, chromedp.Evaluate[chromedp.Void](`0`))
	for _, e := range tb.entries() {
		if e.isError() {
			tb.t.Errorf("browser console: %s", e)
		} else {
			tb.t.Logf("browser console: %s", e)
		}
	}
}

// do runs actions in the tab, failing the test on an error.
func (tb *tab) do(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, actions...); err != nil {
		tb.t.Fatalf("browser: %v\nconsole:\n%s", err, tb.consoleText())
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](tb *tab, expr string, opts ...chromedp.EvaluateOption) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		tb.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

func (tb *tab) consoleText() string {
	var b strings.Builder
	for _, e := range tb.entries() {
		fmt.Fprintf(&b, "  %s\n", e)
	}
	return b.String()
}

// readyExpr is true once the WebAssembly side has rendered: the server's
// HTML has neither data-ready="1" nor the chart's <svg>.
const readyExpr = `(() => {
	const e = document.getElementById('explorer');
	return !!e && e.dataset.ready === '1' && !!document.querySelector('#chart svg');
})()`

// open loads the explorer with a query ("" or "?rows=..."), and waits
// until the WebAssembly side has rendered it.
func (tb *tab) open(query string) {
	tb.t.Helper()
	tb.do(chromedp.Navigate(tb.base + "/" + query))
	tb.waitReady()
}

// waitReady waits for readyExpr; on timeout it fails with what the page
// showed and what the console said (a wasm_exec.js mismatch shows only
// there).
func (tb *tab) waitReady() {
	tb.t.Helper()
	tb.waitFor("the WebAssembly side to render the explorer", readyExpr+` || (e => ({explorer: !!e, ready: e?.dataset.ready,
		svg: !!document.querySelector('#chart svg'), state: document.readyState}))(document.getElementById('explorer'))`, 90*time.Second)
}

// renders is the explorer's completed render count.
func (tb *tab) renders() int {
	return eval[int](tb, `Number(document.getElementById('explorer').dataset.renders)`)
}

// waitRenders waits until more than n renders completed.
func (tb *tab) waitRenders(n int) {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf("a render after render %d", n), fmt.Sprintf(
		`(n => n > %d || 'data-renders ' + n)(Number(document.getElementById('explorer')?.dataset.renders))`, n), 30*time.Second)
}
