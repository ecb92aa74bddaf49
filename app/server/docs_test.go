//go:build !wasm

package server

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeDocs: the page cites docs/model.md, and /docs/model.md was a
// 404. It is web/'s copy of the contract, as text a browser shows.
func TestServeDocs(t *testing.T) {
	web := t.TempDir()
	if err := os.MkdirAll(filepath.Join(web, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	const text = "# The model\n\n## 14. What is already on the GPU\n"
	if err := os.WriteFile(filepath.Join(web, "docs", "model.txt"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	base := startTestServer(t, web)
	for _, p := range []string{DocsPath, "/web/" + DocsFile} {
		resp, err := http.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") || string(body) != text {
			t.Errorf("GET %s: status %d, type %q, body %q, %v", p, resp.StatusCode, resp.Header.Get("Content-Type"), body, err)
		}
	}
}
