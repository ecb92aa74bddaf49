//go:build !wasm

package server

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"headroom/app/server/servertest"
)

// TestPageAllowsZoom: the served page and the static site's index.html
// let people zoom; the served page's length is the rewritten one's.
func TestPageAllowsZoom(t *testing.T) {
	web, _ := servertest.Web(t)
	base := startTestServer(t, web)
	for _, method := range []string{"GET", "HEAD"} {
		resp, body := servertest.RawRequest(t, base, method, "/", nil)
		if resp.StatusCode != 200 {
			t.Fatalf("%s /: %s", method, resp.Status)
		}
		if method == "GET" {
			if !strings.Contains(body, string(zoomableViewport)) || strings.Contains(body, "user-scalable") {
				t.Errorf("GET /: the viewport tag is not the zoomable one")
			}
			if got := resp.Header.Get("Content-Length"); got != strconv.Itoa(len(body)) {
				t.Errorf("GET /: Content-Length %s, body %d bytes", got, len(body))
			}
		}
	}
	dir := t.TempDir()
	if err := WriteStaticSite(dir, web, "", testAppHandler()); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), string(zoomableViewport)) || strings.Contains(string(page), "user-scalable") {
		t.Error("the static site's index.html forbids zooming")
	}
}
