//go:build !wasm

package server

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"headroom/app/server/servertest"
)

func TestSiteFile(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"app.wasm", true},
		{"app.wasm.br", true},
		{"app.wasm.gz", true},
		{"headroom.css", true},
		{"icons/icon-192.png", true},
		{"seeds/gdn_early_release.txt", true},
		{".env", false},
		{".git/config", false},
		{"icons/.DS_Store", false},
		{"notes.txt~", false},
		{"#notes.txt#", false},
		{"headroom.css.bak", false},
		{"headroom.css.orig", false},
		{".headroom.css.swp", false},
		{"other.gz", false},
		{"Makefile", false},
		{"../secret.txt", false},
		{"a/../b.css", false},
		{"", false},
		{".", false},
		{"a\\b.css", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := siteFile(tt.name); got != tt.ok {
				t.Errorf("siteFile(%q) = %v, want %v", tt.name, got, tt.ok)
			}
		})
	}
}

// privateWeb adds to web what must never leave it: hidden files, a
// repository, editor leftovers and backups.
func privateWeb(t *testing.T, web string) []string {
	t.Helper()
	private := []string{".env", ".git/config", "notes.txt~", "#notes.txt#", "headroom.css.bak", "sub/.secret.txt"}
	for _, name := range private {
		path := filepath.Join(web, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(servertest.Secret), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return private
}

// TestStaticCopiesOnlySiteFiles: static copies what serve sends and
// nothing else: no hidden file, backup, compressed copy, or file a
// symlink reaches outside web/.
func TestStaticCopiesOnlySiteFiles(t *testing.T) {
	web, _ := servertest.Web(t)
	private := privateWeb(t, web)
	out := t.TempDir()
	if err := WriteStaticSite(out, web, "", testAppHandler()); err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(filepath.Join(out, "web"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(filepath.Join(out, "web"), path)
			got = append(got, filepath.ToSlash(rel))
		}
		return err
	})
	want := "app.css app.wasm inside.css sub/a.txt"
	if strings.Join(got, " ") != want {
		t.Errorf("static copied %v, want %s", got, want)
	}
	base := startTestServer(t, web)
	for _, name := range append(private, "escape.txt", "absolute.txt") {
		if resp, body := servertest.RawRequest(t, base, "GET", "/web/"+name, nil); resp.StatusCode != http.StatusNotFound || strings.Contains(body, servertest.Secret) {
			t.Errorf("serve: GET /web/%s: status %d, want 404", name, resp.StatusCode)
		}
	}
}

// TestStaticPageStatesCSP: the static site's page carries serve's policy
// in a <meta> tag (less frame-ancestors, which a <meta> cannot state).
func TestStaticPageStatesCSP(t *testing.T) {
	web, _ := servertest.Web(t)
	out := t.TempDir()
	if err := WriteStaticSite(out, web, "", testAppHandler()); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindSubmatchIndex(page)
	if m == nil {
		t.Fatalf("index.html has no CSP <meta>:\n%.600s", page)
	}
	if csp := string(page[m[2]:m[3]]); !strings.HasPrefix(contentSecurityPolicy, csp) || !strings.Contains(csp, "script-src 'self' 'wasm-unsafe-eval'") || strings.Contains(csp, "frame-ancestors") {
		t.Errorf("the <meta> states %q; want serve's policy less frame-ancestors", csp)
	}
	head := string(page[:m[0]])
	if strings.Contains(head, "<script") || strings.Contains(head, "<link") {
		t.Errorf("the CSP <meta> comes after a script or a link: it must precede what it governs")
	}
}

// TestServeWorkerKeyedOnContent: serve's worker names its cache after
// web/'s content: the same while nothing changes, another at once when
// app.wasm or an asset changes, without a restart; static's the same.
func TestServeWorkerKeyedOnContent(t *testing.T) {
	web, wasm := servertest.Web(t)
	base := startTestServer(t, web)
	v1 := servertest.WorkerVersion(t, base)
	if v := servertest.WorkerVersion(t, base); v != v1 {
		t.Fatalf("the version moved with nothing changed: %s, then %s", v1, v)
	}
	// 304 to the worker's own ETag.
	resp, _ := servertest.RawRequest(t, base, "GET", "/app-worker.js", nil)
	etag := resp.Header.Get("ETag")
	if resp, _ := servertest.RawRequest(t, base, "GET", "/app-worker.js", http.Header{"If-None-Match": {etag}}); resp.StatusCode != http.StatusNotModified {
		t.Errorf("GET /app-worker.js with its ETag %s: status %d, want 304", etag, resp.StatusCode)
	}
	rebuilt := append([]byte(nil), wasm...)
	rebuilt[len(rebuilt)-1] ^= 1 // same size, another build
	if err := os.WriteFile(filepath.Join(web, "app.wasm"), rebuilt, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(filepath.Join(web, "app.wasm"), later, later)
	v2 := servertest.WorkerVersion(t, base)
	if v2 == v1 {
		t.Errorf("app.wasm changed, the worker's version did not (%s)", v1)
	}
	if resp, _ := servertest.RawRequest(t, base, "GET", "/app-worker.js", http.Header{"If-None-Match": {etag}}); resp.StatusCode != http.StatusOK {
		t.Errorf("GET /app-worker.js with the old build's ETag: status %d, want 200", resp.StatusCode)
	}
	if err := os.WriteFile(filepath.Join(web, "app.css"), []byte("body { margin: 1px }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v3 := servertest.WorkerVersion(t, base); v3 == v2 {
		t.Errorf("app.css changed, the worker's version did not (%s)", v2)
	}
	// Files that are not the site's change nothing.
	privateWeb(t, web)
	os.WriteFile(filepath.Join(web, "app.wasm.gz"), []byte("not even gzip"), 0o644)
	v4 := servertest.WorkerVersion(t, base)
	if err := os.WriteFile(filepath.Join(web, ".env"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v := servertest.WorkerVersion(t, base); v != v4 {
		t.Errorf("a hidden file moved the version: %s, then %s", v4, v)
	}

	// static: the site written from each build names its cache after it.
	staticVersion := func() string {
		out := t.TempDir()
		if err := WriteStaticSite(out, web, "", testAppHandler()); err != nil {
			t.Fatal(err)
		}
		js, err := os.ReadFile(filepath.Join(out, "app-worker.js"))
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`const cacheName = "app-" \+ "([^"]*)"`).FindSubmatch(js)
		if m == nil || !strings.Contains(string(js), "headroomReplacing") {
			t.Fatalf("static app-worker.js: no cacheName or no reload:\n%.300s", js)
		}
		return string(m[1])
	}
	s1 := staticVersion()
	if s1 != v4 {
		t.Errorf("static names its cache %s, serve %s, for the same web/", s1, v4)
	}
	os.WriteFile(filepath.Join(web, "app.wasm"), wasm, 0o644)
	if s2 := staticVersion(); s2 == s1 {
		t.Errorf("static: another app.wasm, the same version %s", s1)
	}
}

// privatePath matches a home directory's path, as a build machine or a
// copied note would leave one.
var privatePath = regexp.MustCompile(`/home/[^/\s"]+/|/Users/[^/\s"]+/|/root/|[A-Za-z]:\\Users\\`)

// TestWebFilesNoPrivatePaths: nothing the site serves names a home
// directory or the checkout's own path: the seed texts keep the
// paragraphs the page cites, and app.wasm is built with -trimpath (make
// wasm). app.wasm is checked when make wasm built it (make test does).
func TestWebFilesNoPrivatePaths(t *testing.T) {
	web, err := FindWebDir("")
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(web)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	names, err := siteCopies(root)
	if err != nil {
		t.Fatal(err)
	}
	checkout := filepath.Dir(web)
	modcache := filepath.Join(os.Getenv("HOME"), "go", "pkg", "mod")
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		modcache = strings.TrimSpace(string(out))
	}
	sawWasm := false
	for _, name := range names {
		data, err := root.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sawWasm = sawWasm || name == "app.wasm"
		if name != "app.wasm" {
			if m := privatePath.Find(data); m != nil {
				t.Errorf("web/%s names a private path: %q", name, m)
			}
		}
		for _, p := range []string{checkout + "/", modcache + "/"} {
			if n := strings.Count(string(data), p); n > 0 {
				t.Errorf("web/%s names %s %d times (build with -trimpath)", name, p, n)
			}
		}
	}
	if !sawWasm {
		if os.Getenv("CI") == "true" {
			t.Errorf("web/app.wasm is missing (make test builds it first)")
		} else {
			t.Logf("web/app.wasm is missing: run make wasm to check it too")
		}
	}
}
