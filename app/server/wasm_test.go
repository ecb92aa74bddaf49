//go:build !wasm

package server

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"headroom/app/server/servertest"
)

func TestAcceptedCodings(t *testing.T) {
	tests := []struct {
		header   string
		br, gzip bool
	}{
		{"", false, false},
		{"gzip", false, true},
		{"br, gzip", true, true},
		{"gzip, deflate, br, zstd", true, true},
		{"BR;q=0.5, GZIP;q=1.0", true, true},
		{"br;q=0, gzip", false, true},
		{"br; q=0.0, gzip;q=0", false, false},
		{"*", true, true},
		{"*;q=0, gzip", false, true},
		{"identity", false, false},
		{" br ;q=1 ,", true, false},
	}
	for _, tt := range tests {
		accepted := acceptedCodings(tt.header)
		if got := accepted("br"); got != tt.br {
			t.Errorf("%q: br accepted = %v, want %v", tt.header, got, tt.br)
		}
		if got := accepted("gzip"); got != tt.gzip {
			t.Errorf("%q: gzip accepted = %v, want %v", tt.header, got, tt.gzip)
		}
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
	web, wasm := servertest.Web(t)
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
	web, err := FindWebDir("")
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

// TestServeWasmLengthHeaderWired: go-app's loader (app.js) reads the
// header serve sets, so its progress counts the uncompressed bytes.
func TestServeWasmLengthHeaderWired(t *testing.T) {
	web, _ := servertest.Web(t)
	base := startTestServer(t, web)
	resp, body := rawRequest(t, base, "GET", "/app.js", nil)
	want := `const goappWasmContentLengthHeader = "` + wasmLengthHeader + `";`
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, want) {
		t.Errorf("GET /app.js: status %d; want it to contain %s", resp.StatusCode, want)
	}
}
