//go:build !wasm

package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/server/servertest"
)

// startTestServer serves web on a free loopback port and stops the server
// when the test ends; it returns the base URL ("http://127.0.0.1:port").
func startTestServer(t testing.TB, web string) string {
	t.Helper()
	s, err := New(web, testAppHandler())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeUntil(ctx, NewHTTPServer(s, io.Discard), ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server shutdown: %v", err)
		}
		s.Close()
	})
	return "http://" + ln.Addr().String()
}

// testPage is the page go-app's handler renders at "/" in these tests:
// the server knows nothing of the explorer (main hands it the handler).
type testPage struct{ app.Compo }

func (*testPage) Render() app.UI { return app.Div().ID("test-page").Text("test page") }

// TestMain routes "/" to testPage, once, as main routes the explorer.
func TestMain(m *testing.M) {
	app.Route("/", &testPage{})
	os.Exit(m.Run())
}

// testAppHandler is a go-app handler with local icons and a fixed
// Version, so that tests do not depend on the time they start.
func testAppHandler() *app.Handler {
	return &app.Handler{
		Name:    "Headroom test",
		Version: "test",
		Icon:    app.Icon{Default: "/web/icon.png"},
	}
}

func TestServeSecurityHeaders(t *testing.T) {
	web, _ := servertest.Web(t)
	base := startTestServer(t, web)
	for _, target := range []string{"/", "/app.js", "/wasm_exec.js", "/web/app.css", "/web/app.wasm", "/web/missing.css", "/no/such/page"} {
		for _, method := range []string{"GET", "HEAD", "POST"} {
			resp, _ := servertest.RawRequest(t, base, method, target, nil)
			h := resp.Header
			csp := h.Get("Content-Security-Policy")
			if csp != contentSecurityPolicy {
				t.Errorf("%s %s: Content-Security-Policy = %q, want %q", method, target, csp, contentSecurityPolicy)
			}
			if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("%s %s: X-Content-Type-Options = %q, want nosniff", method, target, got)
			}
			if got := h.Get("Referrer-Policy"); got != "no-referrer" {
				t.Errorf("%s %s: Referrer-Policy = %q, want no-referrer", method, target, got)
			}
		}
	}
}

func TestContentSecurityPolicyOwnOriginOnly(t *testing.T) {
	directives := map[string]string{}
	for _, d := range strings.Split(contentSecurityPolicy, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		directives[name] = value
	}
	want := map[string]string{
		"default-src":     "'self'",
		"script-src":      "'self' 'wasm-unsafe-eval'",
		"object-src":      "'none'",
		"base-uri":        "'none'",
		"frame-ancestors": "'none'",
	}
	for name, value := range want {
		if directives[name] != value {
			t.Errorf("%s = %q, want %q", name, directives[name], value)
		}
	}
	for name, value := range directives {
		for _, bad := range []string{"*", "http:", "https:", "'unsafe-eval'", "data:"} {
			if slicesContains(strings.Fields(value), bad) {
				t.Errorf("%s allows %s: %q", name, bad, value)
			}
		}
		// No inline scripts, <style> elements or style attributes: the
		// chart's SVG uses presentation attributes (see fitSVG).
		if strings.Contains(value, "'unsafe-inline'") {
			t.Errorf("%s allows inline content: %q", name, value)
		}
	}
}

func slicesContains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestServeMethods(t *testing.T) {
	web, _ := servertest.Web(t)
	base := startTestServer(t, web)
	for _, target := range []string{"/", "/web/app.css", "/web/app.wasm", "/app.js"} {
		for _, method := range []string{"POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "PROPFIND"} {
			if method == "CONNECT" && target != "/" {
				continue // CONNECT takes an authority, not a path
			}
			resp, _ := servertest.RawRequest(t, base, method, target, nil)
			if resp.StatusCode != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: status %d, want 405", method, target, resp.StatusCode)
			}
			if got := resp.Header.Get("Allow"); got != "GET, HEAD" {
				t.Errorf("%s %s: Allow = %q, want \"GET, HEAD\"", method, target, got)
			}
		}
	}
	resp, body := servertest.RawRequest(t, base, "HEAD", "/web/app.css", nil)
	if resp.StatusCode != http.StatusOK || body != "" || resp.ContentLength != int64(len("body { margin: 0 }\n")) {
		t.Errorf("HEAD /web/app.css: status %d, Content-Length %d, body %q; want 200, the file's length, no body",
			resp.StatusCode, resp.ContentLength, body)
	}
	resp, body = servertest.RawRequest(t, base, "GET", "/web/app.css", nil)
	if resp.StatusCode != http.StatusOK || body != "body { margin: 0 }\n" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/css") {
		t.Errorf("GET /web/app.css: status %d, type %q, body %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

func TestServeOnlyWebFiles(t *testing.T) {
	web, _ := servertest.Web(t)
	base := startTestServer(t, web)
	refused := []string{
		"/web/../outside/secret.txt",
		"/web/sub/../../outside/secret.txt",
		"/../outside/secret.txt",
		"/web/%2e%2e/outside/secret.txt",
		"/web/%2E%2E/outside/secret.txt",
		"/web/..%2foutside%2fsecret.txt",
		"/web/%2e%2e%2foutside%2fsecret.txt",
		"/web/..%5coutside%5csecret.txt",
		"/web//etc/passwd",
		"/web/%2fetc%2fpasswd",
		"/web/" + filepath.Join(filepath.Dir(web), "outside", "secret.txt"),
		"/web/%2f" + strings.TrimPrefix(filepath.Join(filepath.Dir(web), "outside", "secret.txt"), "/"),
		"http://127.0.0.1/web/../outside/secret.txt", // absolute-form target
		"/web/escape.txt",
		"/web/escape-dir/secret.txt",
		"/web/absolute.txt",
		"/web/sub/up-twice.txt",
		"/web/.hidden",
		"/web/sub/",
		"/web/sub",
		"/web/",
		"/web/.",
		"/web/./app.css",
		"/robots.txt", // go-app would fetch it over HTTP from the request's Host
	}
	for _, target := range refused {
		resp, body := servertest.RawRequest(t, base, "GET", target, nil)
		if resp.StatusCode == http.StatusOK || strings.Contains(body, servertest.Secret) || strings.Contains(body, "root:") {
			t.Errorf("GET %s: status %d, body %.80q; want it refused", target, resp.StatusCode, body)
		}
		if strings.Contains(body, "a.txt") {
			t.Errorf("GET %s lists a directory: %.200q", target, body)
		}
	}
	// A symlink that stays inside web/ is one of the app's files.
	resp, body := servertest.RawRequest(t, base, "GET", "/web/inside.css", nil)
	if resp.StatusCode != http.StatusOK || body != "body { margin: 0 }\n" {
		t.Errorf("GET /web/inside.css: status %d, body %q; want app.css", resp.StatusCode, body)
	}
	resp, body = servertest.RawRequest(t, base, "GET", "/web/sub/a.txt", nil)
	if resp.StatusCode != http.StatusOK || body != "a\n" {
		t.Errorf("GET /web/sub/a.txt: status %d, body %q", resp.StatusCode, body)
	}
}

func TestServeLimits(t *testing.T) {
	srv := NewHTTPServer(http.NotFoundHandler(), io.Discard)
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 || srv.IdleTimeout <= 0 {
		t.Errorf("timeouts: read header %v, read %v, write %v, idle %v; want all set",
			srv.ReadHeaderTimeout, srv.ReadTimeout, srv.WriteTimeout, srv.IdleTimeout)
	}
	if srv.MaxHeaderBytes <= 0 || srv.MaxHeaderBytes > 64<<10 {
		t.Errorf("MaxHeaderBytes = %d, want a limit of at most 64 KiB", srv.MaxHeaderBytes)
	}
	web, _ := servertest.Web(t)
	base := startTestServer(t, web)
	big := http.Header{"X-Big": {strings.Repeat("a", 2*maxHeaderBytes)}}
	resp, _ := servertest.RawRequest(t, base, "GET", "/web/app.css", big)
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("GET with a %d-byte header: status %d, want 431", 2*maxHeaderBytes, resp.StatusCode)
	}
}

func TestFindWebDir(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"web", "app/deep"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, ok := ProjectRoot(filepath.Join(root, "app", "deep"))
	if !ok || got != root {
		t.Errorf("ProjectRoot(app/deep) = %q, %v; want %q", got, ok, root)
	}
	if _, ok := ProjectRoot(t.TempDir()); ok {
		t.Errorf("ProjectRoot found a root in an empty directory")
	}
	dir, err := FindWebDir(filepath.Join(root, "web"))
	if err != nil || dir != filepath.Join(root, "web") {
		t.Errorf("FindWebDir(-web) = %q, %v", dir, err)
	}
	if _, err := FindWebDir(filepath.Join(root, "go.mod")); err == nil {
		t.Errorf("FindWebDir accepted a file as -web")
	}
	// From the test's working directory (app/server/), the default finds
	// the project's web/.
	dir, err = FindWebDir("")
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if want := filepath.Join(filepath.Dir(filepath.Dir(wd)), "web"); dir != want {
		t.Errorf("FindWebDir(\"\") = %q, want %q", dir, want)
	}
}

func TestServeWasmPrecompressed(t *testing.T) {
	web, wasm := servertest.Web(t)
	_, brErr := os.Stat(filepath.Join(web, "app.wasm.br"))
	haveBr := brErr == nil
	if !haveBr && os.Getenv("CI") == "true" {
		t.Fatal("the brotli command is missing (CI installs it)")
	}
	base := startTestServer(t, web)
	tests := []struct {
		accept string
		want   string
	}{
		{"br, gzip", "br"},
		{"gzip, deflate, br, zstd", "br"},
		{"gzip", "gzip"},
		{"br;q=0, gzip", "gzip"},
		{"", ""},
		{"identity", ""},
		{"deflate", ""},
		{"gzip;q=1, br;q=0.1", "gzip"},
	}
	for _, path := range []string{"/web/app.wasm", "/app.wasm", "/goapp.wasm"} {
		for _, tt := range tests {
			wantEnc := tt.want
			if wantEnc == "br" && !haveBr {
				wantEnc = "gzip"
			}
			for _, method := range []string{"GET", "HEAD"} {
				h := http.Header{}
				if tt.accept != "" {
					h.Set("Accept-Encoding", tt.accept)
				}
				resp, body := servertest.RawRequest(t, base, method, path, h)
				name := fmt.Sprintf("%s %s, Accept-Encoding %q", method, path, tt.accept)
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("%s: status %d", name, resp.StatusCode)
				}
				checkWasmHeaders(t, name, resp, wantEnc, len(wasm))
				onWire := resp.ContentLength
				if method == "HEAD" {
					if body != "" {
						t.Errorf("%s: HEAD has a body", name)
					}
					continue
				}
				if int64(len(body)) != onWire {
					t.Errorf("%s: Content-Length %d, body %d bytes", name, onWire, len(body))
				}
				if wantEnc != "" && len(body) >= len(wasm) {
					t.Errorf("%s: %d bytes on the wire, not fewer than app.wasm's %d", name, len(body), len(wasm))
				}
				if got := decode(t, wantEnc, []byte(body)); !bytes.Equal(got, wasm) {
					t.Errorf("%s: decoded body (%d bytes) is not app.wasm (%d bytes)", name, len(got), len(wasm))
				}
			}
		}
	}
	// br is preferred, and smaller than gzip here.
	if haveBr {
		br, _ := os.ReadFile(filepath.Join(web, "app.wasm.br"))
		gz, _ := os.ReadFile(filepath.Join(web, "app.wasm.gz"))
		t.Logf("synthetic app.wasm: %d bytes; gzip %d; br %d", len(wasm), len(gz), len(br))
	}
}

// checkWasmHeaders checks the headers of an app.wasm response.
func checkWasmHeaders(t *testing.T, name string, resp *http.Response, encoding string, size int) {
	t.Helper()
	h := resp.Header
	if got := h.Get("Content-Encoding"); got != encoding {
		t.Errorf("%s: Content-Encoding %q, want %q", name, got, encoding)
	}
	if got := h.Get("Content-Type"); got != "application/wasm" {
		t.Errorf("%s: Content-Type %q, want application/wasm", name, got)
	}
	if !strings.Contains(h.Get("Vary"), "Accept-Encoding") {
		t.Errorf("%s: Vary %q, want Accept-Encoding", name, h.Get("Vary"))
	}
	if got := h.Get(wasmLengthHeader); got != strconv.Itoa(size) {
		t.Errorf("%s: %s %q, want the uncompressed size %d", name, wasmLengthHeader, got, size)
	}
	if resp.ContentLength < 0 {
		t.Errorf("%s: no Content-Length", name)
	}
}

// decode undoes a content coding: gzip with compress/gzip, br with the
// brotli command.
func decode(t *testing.T, encoding string, body []byte) []byte {
	t.Helper()
	switch encoding {
	case "":
		return body
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		out, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		return out
	case "br":
		cmd := exec.Command("brotli", "-d", "-c")
		cmd.Stdin = bytes.NewReader(body)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("brotli -d: %v", err)
		}
		return out
	}
	t.Fatalf("unknown encoding %q", encoding)
	return nil
}

// TestServeWasmStaleCompressed: a compressed copy older than app.wasm (a
// rebuild without make) is never served.
func TestServeWasmStaleCompressed(t *testing.T) {
	web, wasm := servertest.Web(t)
	old := time.Now().Add(-time.Hour)
	for _, name := range []string{"app.wasm.br", "app.wasm.gz"} {
		if err := os.Chtimes(filepath.Join(web, name), old, old); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	base := startTestServer(t, web)
	resp, body := servertest.RawRequest(t, base, "GET", "/web/app.wasm", http.Header{"Accept-Encoding": {"br, gzip"}})
	checkWasmHeaders(t, "stale", resp, "", len(wasm))
	if body != string(wasm) {
		t.Errorf("stale compressed copies: body is not app.wasm")
	}
}

// TestServeWasmLengthHeaderWired: go-app's loader (app.js) reads the
// header serve sets, so its progress counts the uncompressed bytes.
func TestServeWasmLengthHeaderWired(t *testing.T) {
	web, _ := servertest.Web(t)
	base := startTestServer(t, web)
	resp, body := servertest.RawRequest(t, base, "GET", "/app.js", nil)
	want := `const goappWasmContentLengthHeader = "` + wasmLengthHeader + `";`
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, want) {
		t.Errorf("GET /app.js: status %d; want it to contain %s", resp.StatusCode, want)
	}
}

// TestServeWorkerIgnoresQueryOffline: the live server's service worker,
// like the static site's, answers a page request from its cache whatever
// the query, so a link with its state restores offline.
func TestServeWorkerIgnoresQueryOffline(t *testing.T) {
	web, _ := servertest.Web(t)
	base := startTestServer(t, web)
	resp, body := servertest.RawRequest(t, base, "GET", "/app-worker.js", nil)
	want := `cache.match(event.request, { ignoreSearch: event.request.mode === "navigate" })`
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, want) {
		t.Errorf("GET /app-worker.js: status %d; want it to contain %s:\n%s", resp.StatusCode, want, body)
	}
	root, err := os.OpenRoot(web)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	version, err := siteVersion(root, &fileSums{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, `const cacheName = "app-" + "`+version+`"`) {
		t.Errorf("GET /app-worker.js: the cache is not named after web/'s content (%s):\n%.300s", version, body)
	}
}
