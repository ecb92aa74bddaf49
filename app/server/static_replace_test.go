//go:build !wasm

package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/app/server/servertest"
)

// TestStaticNeverWritesThroughLinks: a site folder from an earlier run,
// into which links were planted (its web/ a link to another folder, its
// index.html a link to a file elsewhere) and a stale file added, is
// replaced whole: the files the links name are untouched, the new site
// holds real files only, and the stale file is gone.
func TestStaticNeverWritesThroughLinks(t *testing.T) {
	web, _ := servertest.Web(t)
	base := t.TempDir()
	out := filepath.Join(base, "site")
	if err := WriteStaticSite(out, web, "", testAppHandler()); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(base, "victim.txt")
	elsewhere := filepath.Join(base, "elsewhere")
	os.WriteFile(victim, []byte("keep me"), 0o644)
	os.Mkdir(elsewhere, 0o755)
	for _, p := range []string{"index.html", "web"} {
		if err := os.RemoveAll(filepath.Join(out, p)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(victim, filepath.Join(out, "index.html")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(out, "web")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(out, "stale.html"), []byte("old"), 0o644)

	if err := WriteStaticSite(out, web, "", testAppHandler()); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Errorf("the file a planted link named now holds %.80q", b)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Errorf("the folder a planted link named now holds %d files", len(entries))
	}
	filepath.WalkDir(out, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.Type()&os.ModeSymlink != 0 {
			t.Errorf("the site holds a link: %s", path)
		}
		return err
	})
	if _, err := os.Stat(filepath.Join(out, "stale.html")); err == nil {
		t.Error("a file of the earlier site stayed")
	}
	if fi, err := os.Lstat(filepath.Join(out, "web", "app.wasm")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("web/app.wasm: %v", err)
	}
	// Nothing of the work is left beside the site.
	if entries, _ := os.ReadDir(base); len(entries) != 3 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("beside the site: %v, want elsewhere, site, victim.txt", names)
	}
}

// TestStaticRefusesForeignFolders: static does not replace a folder that
// holds files it did not write, nor a link given as -o; either is left as
// it was.
func TestStaticRefusesForeignFolders(t *testing.T) {
	web, _ := servertest.Web(t)
	base := t.TempDir()
	home := filepath.Join(base, "home")
	os.Mkdir(home, 0o755)
	os.WriteFile(filepath.Join(home, "notes.txt"), []byte("mine"), 0o644)
	link := filepath.Join(base, "link")
	os.Symlink(home, link)
	for dir, want := range map[string]string{home: "has no .headroom-static", link: "is a symbolic link"} {
		err := WriteStaticSite(dir, web, "", testAppHandler())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", dir, err, want)
		}
	}
	if entries, _ := os.ReadDir(home); len(entries) != 1 {
		t.Errorf("the refused folder now holds %d files", len(entries))
	}
	if entries, _ := os.ReadDir(base); len(entries) != 2 {
		t.Errorf("%d entries beside the refused folder, want 2", len(entries))
	}
}
