package server

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// WriteStaticSite writes a complete static site into dir: go-app's pages
// and scripts for appH, with every URL made relative so that the site runs
// from any static file server under any path prefix (the router learns its
// prefix from where app.js was loaded), and every file of webDir, app.wasm
// included. pageURL, when not empty, is the og:url of the page.
func WriteStaticSite(dir, webDir, pageURL string, appH *app.Handler) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := app.GenerateStaticWebsite(dir, appH); err != nil {
		return fmt.Errorf("generating the pages: %v", err)
	}
	for _, name := range []string{"index.html", "app.js", "app-worker.js", "manifest.webmanifest"} {
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, relativize(name, data, pageURL), 0o644); err != nil {
			return err
		}
	}
	return copyTree(webDir, filepath.Join(dir, "web"))
}

var (
	// ogURL is go-app's og:url tag, which GenerateStaticWebsite fills with
	// the temporary local address it rendered the page from.
	ogURL = regexp.MustCompile(`<meta property="og:url" content="[^"]*">\s*`)
	// rootPaths are the absolute URLs go-app writes for its own files.
	rootPaths = regexp.MustCompile(`(["'(])/(web/|app\.js|app-worker\.js|wasm_exec\.js|manifest\.webmanifest|app\.css)`)
)

// relativize rewrites one generated file so that it works under any path
// prefix: absolute URLs of the site's own files become relative (a page
// resolves them against its own URL, the service worker against its
// script's), and the router's root prefix is computed in the browser from
// the directory app.js came from.
func relativize(name string, data []byte, pageURL string) []byte {
	s := string(data)
	s = rootPaths.ReplaceAllString(s, "$1$2")
	switch name {
	case "index.html":
		tag := ""
		if pageURL != "" {
			tag = `<meta property="og:url" content="` + htmlAttr(pageURL) + `">`
		}
		s = ogURL.ReplaceAllString(s, tag)
		s = string(allowZoom([]byte(s)))
	case "app-worker.js":
		// The page itself is cached as the worker's own directory.
		s = strings.ReplaceAll(s, `"/",`, `"./",`)
		s = strings.ReplaceAll(s, `"/"]`, `"./"]`)
		s = string(patchWorker([]byte(s)))
	case "manifest.webmanifest":
		s = strings.ReplaceAll(s, `"scope": "/"`, `"scope": "./"`)
		s = strings.ReplaceAll(s, `"start_url": "/"`, `"start_url": "./"`)
	case "app.js":
		s = strings.Replace(s, `"GOAPP_ROOT_PREFIX":""`,
			`"GOAPP_ROOT_PREFIX":new URL(".", document.currentScript ? document.currentScript.src : location.href).pathname.replace(/\/$/, "")`, 1)
	}
	return []byte(s)
}

// patchWorker makes go-app's service worker answer a page request from its
// cache whatever the query string: the page's state lives in the query, so
// offline, "/?rows=100000" must find the cached "/".
func patchWorker(js []byte) []byte {
	return bytes.Replace(js, []byte(`caches.match(event.request)`),
		[]byte(`caches.match(event.request, { ignoreSearch: event.request.mode === "navigate" })`), 1)
}

func htmlAttr(s string) string {
	return strings.NewReplacer(`&`, "&amp;", `"`, "&quot;", `<`, "&lt;", `>`, "&gt;").Replace(s)
}

// copyTree copies the regular files under src into dst, skipping the
// precompressed copies of app.wasm (a plain file server would not choose
// between them) and anything that is not a regular file or directory.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case !d.Type().IsRegular():
			return nil
		case strings.HasSuffix(rel, ".wasm.gz"), strings.HasSuffix(rel, ".wasm.br"):
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.HasPrefix([]byte(rel), []byte("..")) {
			return fmt.Errorf("refusing to copy %s outside the site", rel)
		}
		return os.WriteFile(target, data, 0o644)
	})
}
