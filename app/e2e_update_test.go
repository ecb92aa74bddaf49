//go:build !wasm

package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestE2EServiceWorkerServesNewBuild: a returning visitor gets a new build
// at the next load. The explorer is served from a web directory of its
// own; the tab visits it until the service worker controls the page (the
// build it runs says "dev"); then app.wasm is replaced by another build
// of the same source, told apart by its stamp (window.headroomBuild), as
// make wasm replaces it, without restarting the server; the tab reloads
// and must end on the new build, with the worker's cache named after the
// new content and holding the new app.wasm.
func TestE2EServiceWorkerServesNewBuild(t *testing.T) {
	tb := newTab(t)
	web := filepath.Join(t.TempDir(), "web")
	if err := copyWebFiles(filepath.Join(e2e.dir, "web"), web); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"app.wasm", "app.wasm.gz", "app.wasm.br"} {
		data, err := os.ReadFile(filepath.Join(e2e.dir, "web", name))
		if os.IsNotExist(err) && name == "app.wasm.br" {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(web, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tb.base = startUpdateServer(t, web)

	tb.open("?rows=12345")
	tb.waitServiceWorker()
	if got := eval[string](tb, `window.headroomBuild`); got != "dev" {
		t.Fatalf("the first build says %q, want dev", got)
	}
	first := workerVersion(t, tb.base)

	// The rebuild: the same source, another stamp, moved into place with
	// its gzip copy as make wasm does (no brotli copy: serve skips none,
	// the browser takes gzip).
	rebuilt := filepath.Join(t.TempDir(), "app.wasm")
	cmd := exec.Command("go", "build", "-tags="+wasmTags, "-ldflags="+wasmLDFlags+" -X main.buildStamp=rebuilt", "-o", rebuilt, ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the second app.wasm: %v\n%s", err, out)
	}
	os.Remove(filepath.Join(web, "app.wasm.br"))
	if err := gzipFile(rebuilt, rebuilt+".gz"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"app.wasm", "app.wasm.gz"} {
		if err := os.Rename(filepath.Join(filepath.Dir(rebuilt), name), filepath.Join(web, name)); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	os.Chtimes(filepath.Join(web, "app.wasm"), now, now)
	os.Chtimes(filepath.Join(web, "app.wasm.gz"), now, now)
	second := workerVersion(t, tb.base)
	if second == first {
		t.Fatalf("the worker's version did not move with app.wasm (%s)", first)
	}
	rebuiltSize, _ := os.Stat(filepath.Join(web, "app.wasm"))

	if err := chromedp.Do(tb.ctx, chromedp.Reload()); err != nil {
		// The worker's own reload may cut this one short: what counts is
		// where the tab ends.
		t.Logf("reload: %v", err)
	}
	// The reload starts from the old cache; the new worker installs,
	// takes over and reloads the page into the new build.
	expr := fmt.Sprintf(`(async () => {
		if (window.headroomBuild !== 'rebuilt' || !(%s)) return 'build ' + window.headroomBuild;
		const keys = await caches.keys();
		if (keys.join() !== 'app-%s') return 'caches ' + keys.join();
		const wasm = await (await caches.open(keys[0])).match('/web/app.wasm');
		if (!wasm) return 'no app.wasm in the cache';
		const n = (await wasm.arrayBuffer()).byteLength;
		if (n !== %d) return 'cached app.wasm of ' + n + ' bytes';
		if (!navigator.serviceWorker.controller) return 'no controller';
		return 'ok';
	})()`, readyExpr, second, rebuiltSize.Size())
	deadline := time.Now().Add(90 * time.Second)
	last := ""
	for {
		var err error
		last, err = chromedp.Run(tb.ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
		if err != nil {
			// The worker's reload may replace the page under evaluation.
			last = err.Error()
		}
		if last == "ok" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the rebuild and a reload, the tab never ran the new build: last saw %q\nconsole:\n%s", last, tb.consoleText())
		}
		select {
		case <-tb.ctx.Done():
			t.Fatalf("the tab closed: %v; last saw %q", tb.ctx.Err(), last)
		case <-time.After(100 * time.Millisecond):
		}
	}
	if got := tb.query().Get("rows"); got != "12345" {
		t.Errorf("the reload into the new build lost the state: rows=%q", got)
	}
}

// startUpdateServer serves web on a loopback port of its own (a new
// origin, so a service worker of its own) until the test ends.
func startUpdateServer(t *testing.T, web string) string {
	t.Helper()
	testRoutes()
	s, err := newServer(web, testAppHandler())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveUntil(ctx, newHTTPServer(s, os.Stderr), ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil && !strings.Contains(err.Error(), "closed") {
			t.Errorf("server shutdown: %v", err)
		}
		s.Close()
	})
	return "http://" + ln.Addr().String()
}
