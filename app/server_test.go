//go:build !wasm

package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// routesOnce registers the explorer's routes with go-app once per test
// binary (main does it in the real one), so the server renders the page.
var routesOnce sync.Once

func testRoutes() { routesOnce.Do(registerRoutes) }

// secret is the content of a file outside web/ that no request may read.
const secret = "TOP SECRET outside web/"

// testWeb builds a web directory in a temporary directory: app.css, a
// synthetic app.wasm with its .gz (and .br when the brotli command is
// there), a subdirectory, a hidden file, and symlinks: one inside web/
// (served) and three leading out of it (never served). It returns the web
// directory and app.wasm's bytes.
func testWeb(t *testing.T) (string, []byte) {
	t.Helper()
	tmp := t.TempDir()
	web := filepath.Join(tmp, "web")
	outside := filepath.Join(tmp, "outside")
	for _, d := range []string{web, outside, filepath.Join(web, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	wasm := syntheticWasm(1 << 20)
	files := map[string][]byte{
		filepath.Join(outside, "secret.txt"): []byte(secret),
		filepath.Join(web, "app.css"):        []byte("body { margin: 0 }\n"),
		filepath.Join(web, ".hidden"):        []byte(secret),
		filepath.Join(web, "sub", "a.txt"):   []byte("a\n"),
		filepath.Join(web, "app.wasm"):       wasm,
		filepath.Join(web, "app.wasm.gz"):    gzipBytes(t, wasm),
	}
	for name, data := range files {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"inside.css":       "app.css",                            // stays in web/
		"escape.txt":       "../outside/secret.txt",              // relative, out
		"escape-dir":       "../outside",                         // a directory out
		"absolute.txt":     filepath.Join(outside, "secret.txt"), // absolute, out
		"sub/up-twice.txt": "../../outside/secret.txt",           // from a subdirectory
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(web, name)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := exec.LookPath("brotli"); err == nil {
		cmd := exec.Command("brotli", "-q", "5", "-f", "-k", filepath.Join(web, "app.wasm"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("brotli: %v\n%s", err, out)
		}
	}
	return web, wasm
}

// syntheticWasm returns n bytes that start like a WebAssembly module and
// compress about as well as one (repetitive, not uniform).
func syntheticWasm(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	b := bytes.NewBuffer([]byte("\x00asm\x01\x00\x00\x00"))
	words := []string{"runtime.", "main.", "estimator.", "go-app", "\x00\x01\x02", "func", "\x20\x00\x41"}
	for b.Len() < n {
		b.WriteString(words[r.IntN(len(words))])
		b.WriteByte(byte(r.IntN(256)))
	}
	return b.Bytes()[:n]
}

func gzipBytes(t *testing.T, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// startTestServer serves web on a free loopback port and stops the server
// when the test ends; it returns the base URL ("http://127.0.0.1:port").
func startTestServer(t testing.TB, web string) string {
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
	go func() { done <- serveUntil(ctx, newHTTPServer(s, io.Discard), ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server shutdown: %v", err)
		}
		s.Close()
	})
	return "http://" + ln.Addr().String()
}

// testAppHandler is the real go-app handler; only its Version is fixed
// so that tests do not depend on the time they start.
func testAppHandler() *app.Handler {
	h := appHandler()
	h.Version = "test"
	return h
}

// rawRequest sends the request line "METHOD target HTTP/1.1" as written,
// with no client-side cleaning of the target, and returns the response
// with its body read.
func rawRequest(t *testing.T, base, method, target string, header http.Header) (*http.Response, string) {
	t.Helper()
	addr := strings.TrimPrefix(base, "http://")
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	var req bytes.Buffer
	fmt.Fprintf(&req, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", method, target, addr)
	header.Write(&req)
	req.WriteString("\r\n")
	if _, err := conn.Write(req.Bytes()); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: method})
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", method, target, err)
	}
	return resp, string(body)
}

func TestServeSecurityHeaders(t *testing.T) {
	web, _ := testWeb(t)
	base := startTestServer(t, web)
	for _, target := range []string{"/", "/app.js", "/wasm_exec.js", "/web/app.css", "/web/app.wasm", "/web/missing.css", "/no/such/page"} {
		for _, method := range []string{"GET", "HEAD", "POST"} {
			resp, _ := rawRequest(t, base, method, target, nil)
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
	web, _ := testWeb(t)
	base := startTestServer(t, web)
	for _, target := range []string{"/", "/web/app.css", "/web/app.wasm", "/app.js"} {
		for _, method := range []string{"POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "PROPFIND"} {
			if method == "CONNECT" && target != "/" {
				continue // CONNECT takes an authority, not a path
			}
			resp, _ := rawRequest(t, base, method, target, nil)
			if resp.StatusCode != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: status %d, want 405", method, target, resp.StatusCode)
			}
			if got := resp.Header.Get("Allow"); got != "GET, HEAD" {
				t.Errorf("%s %s: Allow = %q, want \"GET, HEAD\"", method, target, got)
			}
		}
	}
	resp, body := rawRequest(t, base, "HEAD", "/web/app.css", nil)
	if resp.StatusCode != http.StatusOK || body != "" || resp.ContentLength != int64(len("body { margin: 0 }\n")) {
		t.Errorf("HEAD /web/app.css: status %d, Content-Length %d, body %q; want 200, the file's length, no body",
			resp.StatusCode, resp.ContentLength, body)
	}
	resp, body = rawRequest(t, base, "GET", "/web/app.css", nil)
	if resp.StatusCode != http.StatusOK || body != "body { margin: 0 }\n" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/css") {
		t.Errorf("GET /web/app.css: status %d, type %q, body %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

func TestServeOnlyWebFiles(t *testing.T) {
	web, _ := testWeb(t)
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
		resp, body := rawRequest(t, base, "GET", target, nil)
		if resp.StatusCode == http.StatusOK || strings.Contains(body, secret) || strings.Contains(body, "root:") {
			t.Errorf("GET %s: status %d, body %.80q; want it refused", target, resp.StatusCode, body)
		}
		if strings.Contains(body, "a.txt") {
			t.Errorf("GET %s lists a directory: %.200q", target, body)
		}
	}
	// A symlink that stays inside web/ is one of the app's files.
	resp, body := rawRequest(t, base, "GET", "/web/inside.css", nil)
	if resp.StatusCode != http.StatusOK || body != "body { margin: 0 }\n" {
		t.Errorf("GET /web/inside.css: status %d, body %q; want app.css", resp.StatusCode, body)
	}
	resp, body = rawRequest(t, base, "GET", "/web/sub/a.txt", nil)
	if resp.StatusCode != http.StatusOK || body != "a\n" {
		t.Errorf("GET /web/sub/a.txt: status %d, body %q", resp.StatusCode, body)
	}
}

func TestServeLimits(t *testing.T) {
	srv := newHTTPServer(http.NotFoundHandler(), io.Discard)
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 || srv.IdleTimeout <= 0 {
		t.Errorf("timeouts: read header %v, read %v, write %v, idle %v; want all set",
			srv.ReadHeaderTimeout, srv.ReadTimeout, srv.WriteTimeout, srv.IdleTimeout)
	}
	if srv.MaxHeaderBytes <= 0 || srv.MaxHeaderBytes > 64<<10 {
		t.Errorf("MaxHeaderBytes = %d, want a limit of at most 64 KiB", srv.MaxHeaderBytes)
	}
	web, _ := testWeb(t)
	base := startTestServer(t, web)
	big := http.Header{"X-Big": {strings.Repeat("a", 2*maxHeaderBytes)}}
	resp, _ := rawRequest(t, base, "GET", "/web/app.css", big)
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("GET with a %d-byte header: status %d, want 431", 2*maxHeaderBytes, resp.StatusCode)
	}
}

// TestServeCommand runs the serve command as main does, on a free port,
// fetches a file, then sends the process SIGINT: the command must shut
// down cleanly (exit status 0) and free its port.
func TestServeCommand(t *testing.T) {
	web, _ := testWeb(t)
	testRoutes()
	out := &lockedBuffer{}
	var stderr lockedBuffer
	code := make(chan int, 1)
	go func() { code <- runServe([]string{"-addr", "127.0.0.1:0", "-web", web}, nil, out, &stderr) }()
	var base string
	deadline := time.Now().Add(10 * time.Second)
	for base == "" {
		if time.Now().After(deadline) {
			t.Fatalf("serve printed no address; stdout %q, stderr %q", out.String(), stderr.String())
		}
		select {
		case c := <-code:
			t.Fatalf("serve exited early with %d: %s", c, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if _, rest, ok := strings.Cut(out.String(), "serving http://"); ok {
			base = "http://" + rest[:strings.Index(rest, "/")]
		}
	}
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("serving on %s, want 127.0.0.1", base)
	}
	resp, body := rawRequest(t, base, "GET", "/web/app.css", nil)
	if resp.StatusCode != http.StatusOK || body != "body { margin: 0 }\n" {
		t.Fatalf("GET /web/app.css: %d %q", resp.StatusCode, body)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("serve exited with %d after SIGINT, want 0; stderr %q", c, stderr.String())
		}
	case <-time.After(shutdownTimeout + 5*time.Second):
		t.Fatal("serve did not stop on SIGINT")
	}
	if !strings.Contains(out.String(), "stopped") {
		t.Errorf("stdout %q does not say it stopped", out.String())
	}
	if conn, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), time.Second); err == nil {
		conn.Close()
		t.Errorf("%s still accepts connections after shutdown", base)
	}
}

func TestServeBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-web", filepath.Join(t.TempDir(), "missing")},
		{"-nosuchflag"},
		{"extra"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runServe(args, nil, &stdout, &stderr); code != 2 {
			t.Errorf("serve %q: exit %d, want 2; stderr %q", args, code, stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := runServe([]string{"-addr", "256.0.0.1:99999", "-web", t.TempDir()}, nil, &stdout, &stderr); code != 1 {
		t.Errorf("serve on a bad address: exit %d, want 1; stderr %q", code, stderr.String())
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
	got, ok := projectRoot(filepath.Join(root, "app", "deep"))
	if !ok || got != root {
		t.Errorf("projectRoot(app/deep) = %q, %v; want %q", got, ok, root)
	}
	if _, ok := projectRoot(t.TempDir()); ok {
		t.Errorf("projectRoot found a root in an empty directory")
	}
	dir, err := findWebDir(filepath.Join(root, "web"))
	if err != nil || dir != filepath.Join(root, "web") {
		t.Errorf("findWebDir(-web) = %q, %v", dir, err)
	}
	if _, err := findWebDir(filepath.Join(root, "go.mod")); err == nil {
		t.Errorf("findWebDir accepted a file as -web")
	}
	// From the test's working directory (app/), the default finds the
	// project's web/.
	dir, err = findWebDir("")
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if want := filepath.Join(filepath.Dir(wd), "web"); dir != want {
		t.Errorf("findWebDir(\"\") = %q, want %q", dir, want)
	}
}

func TestChooseEncoding(t *testing.T) {
	all := []string{"br", "gzip", "identity"}
	tests := []struct {
		name, header string
		available    []string
		want         string // "" = 406
	}{
		{"no header", "", all, "identity"},
		{"gzip only", "gzip", all, "gzip"},
		{"browser", "gzip, deflate, br, zstd", all, "br"},
		{"ties go to br", "br, gzip", all, "br"},
		{"q prefers gzip", "gzip;q=1, br;q=0.1", all, "gzip"},
		{"q case and spaces", "BR;q=0.5, GZIP; Q=1.0", all, "gzip"},
		{"br refused", "br;q=0, gzip", all, "gzip"},
		{"both refused", "br; q=0.0, gzip;q=0", all, "identity"},
		{"star", "*", all, "br"},
		{"star refused, gzip listed", "*;q=0, gzip", all, "gzip"},
		{"identity listed", "identity", all, "identity"},
		{"identity refused", "identity;q=0", all, ""},
		{"identity refused, gzip there", "identity;q=0, gzip", all, "gzip"},
		{"star refused", "*;q=0", all, ""},
		{"star refused, identity listed", "*;q=0, identity", all, "identity"},
		{"identity over a low br", "br;q=0.5, identity", all, "identity"},
		{"low br over implicit identity", "br;q=0.5", all, "br"},
		{"bad q ignored", "br;q=2, gzip;q=x, identity;q=0.2", all, "identity"},
		{"no copies", "br, gzip", []string{"identity"}, "identity"},
		{"no copies, identity refused", "br, identity;q=0", []string{"identity"}, ""},
		{"trailing comma", " br ;q=1 ,", all, "br"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseAcceptEncoding(tt.header).choose(tt.available)
			if !ok {
				got = ""
			}
			if got != tt.want {
				t.Errorf("%q from %v: %q (ok %v), want %q", tt.header, tt.available, got, ok, tt.want)
			}
		})
	}
}

func TestServeWasmPrecompressed(t *testing.T) {
	web, wasm := testWeb(t)
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
				resp, body := rawRequest(t, base, method, path, h)
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
	web, wasm := testWeb(t)
	old := time.Now().Add(-time.Hour)
	for _, name := range []string{"app.wasm.br", "app.wasm.gz"} {
		if err := os.Chtimes(filepath.Join(web, name), old, old); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	base := startTestServer(t, web)
	resp, body := rawRequest(t, base, "GET", "/web/app.wasm", http.Header{"Accept-Encoding": {"br, gzip"}})
	checkWasmHeaders(t, "stale", resp, "", len(wasm))
	if body != string(wasm) {
		t.Errorf("stale compressed copies: body is not app.wasm")
	}
}

// TestBuiltWasmPrecompressed checks what `make wasm` wrote into the
// project's web/: app.wasm.gz and app.wasm.br decode to app.wasm exactly.
func TestBuiltWasmPrecompressed(t *testing.T) {
	web, err := findWebDir("")
	if err != nil {
		t.Fatal(err)
	}
	wasm, err := os.ReadFile(filepath.Join(web, "app.wasm"))
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%v (make test builds it first)", err)
		}
		t.Skipf("%v: run make wasm", err)
	}
	wasmInfo, _ := os.Stat(filepath.Join(web, "app.wasm"))
	for _, c := range precompressed {
		name := filepath.Join(web, "app.wasm"+c.suffix)
		fi, err := os.Stat(name)
		if err != nil || fi.ModTime().Unix() < wasmInfo.ModTime().Unix() {
			// app.wasm was built by hand, not by make wasm: serve sends
			// it uncompressed, and make test rebuilds both.
			if os.Getenv("CI") == "true" {
				t.Errorf("%s is missing or older than app.wasm: make wasm writes it", name)
				continue
			}
			t.Skipf("%s is missing or older than app.wasm: run make wasm", name)
		}
		if c.coding == "br" {
			if _, err := exec.LookPath("brotli"); err != nil {
				t.Logf("no brotli command to decode %s", name)
				continue
			}
		}
		data, _ := os.ReadFile(name)
		if got := decode(t, c.coding, data); !bytes.Equal(got, wasm) {
			t.Errorf("%s does not decode to app.wasm", name)
		}
		t.Logf("app.wasm %d bytes; %s %d bytes (%.1f%%)", len(wasm), c.coding, len(data), 100*float64(len(data))/float64(len(wasm)))
	}
}

// lockedBuffer is a bytes.Buffer safe to write from the server's
// goroutine while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestServeWasmLengthHeaderWired: go-app's loader (app.js) reads the
// header serve sets, so its progress counts the uncompressed bytes.
func TestServeWasmLengthHeaderWired(t *testing.T) {
	web, _ := testWeb(t)
	base := startTestServer(t, web)
	resp, body := rawRequest(t, base, "GET", "/app.js", nil)
	want := `const goappWasmContentLengthHeader = "` + wasmLengthHeader + `";`
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, want) {
		t.Errorf("GET /app.js: status %d; want it to contain %s", resp.StatusCode, want)
	}
}

// TestServeWorkerIgnoresQueryOffline: the live server's service worker,
// like the static site's, answers a page request from its cache whatever
// the query, so a link with its state restores offline.
func TestServeWorkerIgnoresQueryOffline(t *testing.T) {
	web, _ := testWeb(t)
	base := startTestServer(t, web)
	resp, body := rawRequest(t, base, "GET", "/app-worker.js", nil)
	want := `caches.match(event.request, { ignoreSearch: event.request.mode === "navigate" })`
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
