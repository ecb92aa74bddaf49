package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestWebAssetsMatchSources: web/icons and web/seeds are committed copies
// of assets/ (make web-assets); a change to one side alone is a mistake.
func TestWebAssetsMatchSources(t *testing.T) {
	for _, pattern := range []string{"icons/*", "seeds/*.txt"} {
		srcs, err := filepath.Glob(filepath.Join("..", "..", "assets", pattern))
		if err != nil || len(srcs) == 0 {
			t.Fatalf("assets/%s: %v %v", pattern, srcs, err)
		}
		for _, src := range srcs {
			dst := filepath.Join("..", "..", "web", pattern[:len(pattern)-len(filepath.Base(pattern))], filepath.Base(src))
			a, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(dst)
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("%s differs from %s (run make web-assets): %v", dst, src, err)
			}
		}
	}
	// The contract the page links to, as text (make web-assets).
	a, err := os.ReadFile(filepath.Join("..", "..", "docs", "model.md"))
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join("..", "..", "web", "docs", "model.txt")); err != nil || !bytes.Equal(a, b) {
		t.Errorf("web/docs/model.txt differs from docs/model.md (run make web-assets): %v", err)
	}
	for _, s := range changeSwitches {
		if _, err := os.Stat(filepath.Join("..", "..", "web", "seeds", s.key+".txt")); err != nil {
			t.Errorf("the %s switch links to a missing seed: %v", s.key, err)
		}
	}
}
