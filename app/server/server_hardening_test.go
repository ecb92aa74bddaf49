//go:build !wasm

package server

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"headroom/app/server/servertest"
)

// TestServeMissingNeverNotModified: a path nobody serves is 404 whatever
// If-None-Match says, the page's own ETag included.
func TestServeMissingNeverNotModified(t *testing.T) {
	web, _ := servertest.Web(t)
	base := startTestServer(t, web)
	resp, _ := servertest.RawRequest(t, base, "GET", "/", nil)
	etag := resp.Header.Get("ETag")
	if resp.StatusCode != http.StatusOK || etag == "" {
		t.Fatalf("GET /: status %d, ETag %q", resp.StatusCode, etag)
	}
	if resp, _ := servertest.RawRequest(t, base, "GET", "/", http.Header{"If-None-Match": {etag}}); resp.StatusCode != http.StatusNotModified {
		t.Errorf("GET / with its ETag: status %d, want 304", resp.StatusCode)
	}
	for _, path := range []string{"/nope", "/web/nope.css", "/app.wasm.map", "/index.html", "/nope/"} {
		resp, _ := servertest.RawRequest(t, base, "GET", path, http.Header{"If-None-Match": {etag, `*`}})
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s with the page's ETag: status %d, want 404", path, resp.StatusCode)
		}
		if resp.Header.Get("ETag") != "" {
			t.Errorf("GET %s: a 404 with an ETag %q", path, resp.Header.Get("ETag"))
		}
	}
}

// TestServeWasmEncodingsValidators: each encoding of app.wasm has its own
// ETag; a range of a compressed copy is answered with the whole copy
// (200, Accept-Ranges: none), a range of app.wasm itself with the range;
// If-Range with another encoding's ETag gets the whole body.
func TestServeWasmEncodingsValidators(t *testing.T) {
	web, wasm := servertest.Web(t)
	base := startTestServer(t, web)
	codings := []string{"identity", "gzip"}
	if _, err := os.Stat(filepath.Join(web, "app.wasm.br")); err == nil {
		codings = append(codings, "br")
	}
	etags := map[string]string{}
	for _, c := range codings {
		resp, _ := servertest.RawRequest(t, base, "HEAD", "/web/app.wasm", http.Header{"Accept-Encoding": {c}})
		etag := resp.Header.Get("ETag")
		if etag == "" {
			t.Fatalf("%s: no ETag", c)
		}
		for other, e := range etags {
			if e == etag {
				t.Errorf("%s and %s share the ETag %s", c, other, etag)
			}
		}
		etags[c] = etag
		if resp, _ := servertest.RawRequest(t, base, "GET", "/web/app.wasm", http.Header{"Accept-Encoding": {c}, "If-None-Match": {etag}}); resp.StatusCode != http.StatusNotModified {
			t.Errorf("%s with its ETag: status %d, want 304", c, resp.StatusCode)
		}
	}
	for _, c := range codings[1:] {
		for _, ranges := range []string{"bytes=0-3", "bytes=0-3,10-13"} {
			h := http.Header{"Accept-Encoding": {c}, "Range": {ranges}}
			resp, body := servertest.RawRequest(t, base, "GET", "/web/app.wasm", h)
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != c {
				t.Errorf("%s, Range %s: status %d, encoding %q; want 200 and the whole %s copy",
					c, ranges, resp.StatusCode, resp.Header.Get("Content-Encoding"), c)
				continue
			}
			if got := resp.Header.Get("Accept-Ranges"); got != "none" {
				t.Errorf("%s: Accept-Ranges %q, want none", c, got)
			}
			if dec := decode(t, c, []byte(body)); string(dec) != string(wasm) {
				t.Errorf("%s, Range %s: the body does not decode to app.wasm", c, ranges)
			}
		}
	}
	resp, body := servertest.RawRequest(t, base, "GET", "/web/app.wasm", http.Header{"Range": {"bytes=0-3"}})
	if resp.StatusCode != http.StatusPartialContent || body != string(wasm[:4]) || resp.Header.Get("Content-Encoding") != "" {
		t.Errorf("identity, Range bytes=0-3: status %d, body %q; want 206 and app.wasm's first 4 bytes", resp.StatusCode, body)
	}
	// A download of the gzip copy resumed against the identity body.
	h := http.Header{"Range": {"bytes=4-7"}, "If-Range": {etags["gzip"]}}
	if resp, body := servertest.RawRequest(t, base, "GET", "/web/app.wasm", h); resp.StatusCode != http.StatusOK || body != string(wasm) {
		t.Errorf("identity, If-Range with gzip's ETag: status %d, %d bytes; want 200 and the whole file", resp.StatusCode, len(body))
	}
}

// TestServeWasmNotAcceptable: a client that refuses identity and every
// copy gets 406, with the security headers.
func TestServeWasmNotAcceptable(t *testing.T) {
	web, _ := servertest.Web(t)
	base := startTestServer(t, web)
	for _, accept := range []string{"identity;q=0", "*;q=0", "zstd, identity;q=0"} {
		resp, _ := servertest.RawRequest(t, base, "GET", "/web/app.wasm", http.Header{"Accept-Encoding": {accept}})
		if resp.StatusCode != http.StatusNotAcceptable {
			t.Errorf("Accept-Encoding %q: status %d, want 406", accept, resp.StatusCode)
		}
		if resp.Header.Get("Content-Security-Policy") != contentSecurityPolicy {
			t.Errorf("Accept-Encoding %q: no CSP on the 406", accept)
		}
	}
	resp, _ := servertest.RawRequest(t, base, "GET", "/web/app.wasm", http.Header{"Accept-Encoding": {"identity;q=0, gzip"}})
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("identity;q=0, gzip: status %d, encoding %q; want 200 gzip", resp.StatusCode, resp.Header.Get("Content-Encoding"))
	}
}

// TestServeOptionsStar: "OPTIONS *" is the server's 405, with the
// security headers, not net/http's bare 200. (net/http's own 400 and 431
// are written before any handler: see NewHTTPServer.)
func TestServeOptionsStar(t *testing.T) {
	web, _ := servertest.Web(t)
	base := startTestServer(t, web)
	resp, _ := servertest.RawRequest(t, base, "OPTIONS", "*", nil)
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("OPTIONS *: status %d, Allow %q; want 405, GET, HEAD", resp.StatusCode, resp.Header.Get("Allow"))
	}
	for k, v := range map[string]string{"Content-Security-Policy": contentSecurityPolicy, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"} {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("OPTIONS *: %s = %q, want %q", k, got, v)
		}
	}
}

// deadlineRecorder records the write deadline a handler sets.
type deadlineRecorder struct {
	*httptest.ResponseRecorder
	deadline time.Time
}

func (d *deadlineRecorder) SetWriteDeadline(t time.Time) error {
	d.deadline = t
	return nil
}

// TestServeWriteDeadlineScales: a file's response may take writeTimeout
// plus a second per slowClientRate bytes, so a client at that rate
// finishes the uncompressed app.wasm.
func TestServeWriteDeadlineScales(t *testing.T) {
	web, wasm := servertest.Web(t)
	big := make([]byte, 40<<20)
	copy(big, wasm)
	if err := os.WriteFile(filepath.Join(web, "app.wasm"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := New(web, testAppHandler())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tt := range []struct {
		path string
		size int64
	}{
		{"/web/app.wasm", int64(len(big))},
		{"/web/app.css", int64(len("body { margin: 0 }\n"))},
	} {
		rec := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
		start := time.Now()
		s.ServeHTTP(rec, httptest.NewRequest("GET", tt.path, nil))
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Length") != strconv.FormatInt(tt.size, 10) {
			t.Fatalf("GET %s: status %d, length %s", tt.path, rec.Code, rec.Header().Get("Content-Length"))
		}
		need := time.Duration(float64(tt.size) / slowClientRate * float64(time.Second))
		if got := rec.deadline.Sub(start); got < need || got < writeTimeout || got > writeTimeout+need+time.Minute {
			t.Errorf("GET %s (%d bytes): write deadline in %v; want writeTimeout (%v) plus %v for a client at %d B/s",
				tt.path, tt.size, got, writeTimeout, need, slowClientRate)
		}
	}
}
