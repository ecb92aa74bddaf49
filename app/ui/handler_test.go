package ui

import (
	"io"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// TestHandlerIsLocal: the page names only resources on its own host (go-app's
// defaults point elsewhere).
func TestHandlerIsLocal(t *testing.T) {
	h := Handler()
	for _, p := range []string{h.Icon.Default, h.Icon.Large, h.Icon.SVG, h.Icon.AppleTouch} {
		if !strings.HasPrefix(p, "/web/") {
			t.Errorf("icon %q is not under /web/", p)
		}
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, path := range []string{"/", "/manifest.webmanifest", "/app.js", "/app-worker.js"} {
		resp, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, m := range regexp.MustCompile(`(?:href|src)="([^"]*)"|"(?:src|url)"\s*:\s*"([^"]*)"`).FindAllStringSubmatch(string(body), -1) {
			u := m[1] + m[2]
			if strings.Contains(u, "//") {
				t.Errorf("%s refers to %s", path, u)
			}
		}
		for _, host := range []string{"googleapis", "githubusercontent", "cdn"} {
			if strings.Contains(string(body), host) {
				t.Errorf("%s mentions %s", path, host)
			}
		}
	}
}
