//go:build !wasm

package server

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"headroom/app/server/servertest"
)

// TestServeGzipsSmallFiles: the page, go-app's scripts, the worker and
// web/'s text files go out gzipped to a client that takes gzip, as their
// own representation (an ETag of their own, Vary: Accept-Encoding), the
// same bytes once decoded; a revalidation of either representation is a
// 304; images, tiny files, app.wasm and clients without gzip get what
// they got before.
func TestServeGzipsSmallFiles(t *testing.T) {
	web, _ := servertest.Web(t)
	css := strings.Repeat(".row { margin: 0 }\n", 200)
	png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 4096)...)
	for name, data := range map[string]string{"big.css": css, "icon.png": string(png)} {
		if err := os.WriteFile(filepath.Join(web, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base := startTestServer(t, web)
	gz := http.Header{"Accept-Encoding": {"gzip, deflate, br, zstd"}}

	for _, path := range []string{"/", "/app.js", "/wasm_exec.js", "/app-worker.js", "/manifest.webmanifest", "/web/big.css"} {
		plainResp, plain := servertest.RawRequest(t, base, "GET", path, nil)
		resp, body := servertest.RawRequest(t, base, "GET", path, gz)
		if resp.StatusCode != http.StatusOK || plainResp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: status %d (plain %d)", path, resp.StatusCode, plainResp.StatusCode)
			continue
		}
		if got := resp.Header.Get("Content-Encoding"); got != "gzip" {
			t.Errorf("GET %s, Accept-Encoding gzip: Content-Encoding %q, want gzip", path, got)
			continue
		}
		if plainResp.Header.Get("Content-Encoding") != "" {
			t.Errorf("GET %s without Accept-Encoding: Content-Encoding %q", path, plainResp.Header.Get("Content-Encoding"))
		}
		// go-app writes a page's attributes in map order, so two renders
		// of "/" differ in order only.
		decoded := string(decode(t, "gzip", []byte(body)))
		if decoded != plain && (path != "/" || len(decoded) != len(plain) || !strings.Contains(decoded, `id="test-page"`)) {
			t.Errorf("GET %s: the gzipped body decodes to other bytes than the plain one:\n%s\n----\n%s", path, decoded, plain)
		}
		if len(body) >= len(plain) {
			t.Errorf("GET %s: gzipped %d bytes, plain %d", path, len(body), len(plain))
		}
		for _, r := range []*http.Response{resp, plainResp} {
			if !strings.Contains(strings.Join(r.Header.Values("Vary"), ","), "Accept-Encoding") {
				t.Errorf("GET %s: Vary %q, want Accept-Encoding", path, r.Header.Values("Vary"))
			}
		}
		etag, plainETag := resp.Header.Get("ETag"), plainResp.Header.Get("ETag")
		if etag != strings.TrimSuffix(plainETag, `"`)+gzipETagSuffix+`"` {
			t.Errorf("GET %s: ETag %q gzipped, %q plain", path, etag, plainETag)
		}
		if resp.Header.Get("Content-Length") != "" && resp.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
			t.Errorf("GET %s: Content-Length %s, body %d bytes", path, resp.Header.Get("Content-Length"), len(body))
		}
		// The worker's install revalidates what the page loaded.
		for _, tag := range []string{etag, plainETag} {
			h := http.Header{"Accept-Encoding": {"gzip"}, "If-None-Match": {tag}}
			r, _ := servertest.RawRequest(t, base, "GET", path, h)
			if r.StatusCode != http.StatusNotModified || r.Header.Get("ETag") != etag {
				t.Errorf("GET %s, If-None-Match %s: status %d, ETag %q; want 304, %s", path, tag, r.StatusCode, r.Header.Get("ETag"), etag)
			}
		}
		// A range of a gzipped body is the whole body.
		r, _ := servertest.RawRequest(t, base, "GET", path, http.Header{"Accept-Encoding": {"gzip"}, "Range": {"bytes=0-3"}})
		if r.StatusCode != http.StatusOK {
			t.Errorf("GET %s, gzip, Range: status %d, want 200", path, r.StatusCode)
		}
	}

	for _, path := range []string{"/web/icon.png", "/web/app.css", "/web/app.wasm"} {
		resp, _ := servertest.RawRequest(t, base, "GET", path, http.Header{"Accept-Encoding": {"gzip"}})
		want := ""
		if path == "/web/app.wasm" {
			want = "gzip" // its precompressed copy, as before
		}
		if got := resp.Header.Get("Content-Encoding"); resp.StatusCode != http.StatusOK || got != want {
			t.Errorf("GET %s, gzip: status %d, Content-Encoding %q, want 200 %q", path, resp.StatusCode, got, want)
		}
	}
	resp, _ := servertest.RawRequest(t, base, "GET", "/", http.Header{"Accept-Encoding": {"gzip;q=0, identity"}})
	if resp.Header.Get("Content-Encoding") != "" {
		t.Errorf("GET /, gzip;q=0: Content-Encoding %q", resp.Header.Get("Content-Encoding"))
	}
	resp, _ = servertest.RawRequest(t, base, "GET", "/no-such-page", gz)
	if resp.StatusCode != http.StatusNotFound || resp.Header.Get("Content-Encoding") != "" {
		t.Errorf("GET /no-such-page: status %d, Content-Encoding %q; want a plain 404", resp.StatusCode, resp.Header.Get("Content-Encoding"))
	}
}
