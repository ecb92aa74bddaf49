package server

import (
	"bytes"
	"errors"
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
// prefix from where app.js was loaded), and webDir's site files (the ones
// serve sends, app.wasm included; see siteFile). pageURL, when not empty,
// is the og:url of the page. appH's Version is set to the content version
// of those files (siteVersion): the service worker names its cache after
// it, so a site written from another build replaces the cached one at the
// next visit.
//
// The site is written into a new folder beside dir, which then takes
// dir's place: nothing is written through a symbolic link that dir holds
// (a link planted there would send the site, or an overwrite, elsewhere),
// and no file of an earlier site stays behind. dir must be new, empty,
// or a site WriteStaticSite wrote (it holds siteMarker); a folder of
// other files is refused, not replaced.
func WriteStaticSite(dir, webDir, pageURL string, appH *app.Handler) error {
	dir = filepath.Clean(dir)
	if err := checkReplaceable(dir); err != nil {
		return err
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".new-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // nothing left once it has taken dir's place
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := writeSite(tmp, webDir, pageURL, appH); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, siteMarker), []byte(siteMarkerText), 0o644); err != nil {
		return err
	}
	return replaceDir(dir, tmp)
}

// siteMarker is the file that says a folder is a site WriteStaticSite
// wrote, which a later run may replace whole.
const (
	siteMarker     = ".headroom-static"
	siteMarkerText = "A static site written by headroom static; the next run replaces this folder whole.\n"
)

// checkReplaceable refuses a dir that WriteStaticSite must not replace:
// a symbolic link, a file, or a folder of files it did not write.
func checkReplaceable(dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link: give the folder it names", dir)
	case !fi.IsDir():
		return fmt.Errorf("%s is not a folder", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		return err
	}
	if m, err := os.Lstat(filepath.Join(dir, siteMarker)); err != nil || !m.Mode().IsRegular() {
		return fmt.Errorf("%s holds files a headroom static site does not (it has no %s): give a new or empty folder", dir, siteMarker)
	}
	return nil
}

// replaceDir puts the folder tmp in dir's place: the old dir, when there
// is one, is moved aside first and removed after (a symbolic link inside
// it is removed, never followed).
func replaceDir(dir, tmp string) error {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(tmp, dir)
	}
	old := tmp + ".old"
	if err := os.Rename(dir, old); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.Rename(old, dir)
		return err
	}
	return os.RemoveAll(old)
}

// writeSite writes the site into dir, a new empty folder.
func writeSite(dir, webDir, pageURL string, appH *app.Handler) error {
	root, err := os.OpenRoot(webDir)
	if err != nil {
		return fmt.Errorf("web directory: %v", err)
	}
	defer root.Close()
	if appH.Version, err = siteVersion(root, &fileSums{}); err != nil {
		return fmt.Errorf("reading %s: %v", webDir, err)
	}
	if err := app.GenerateStaticWebsite(dir, appH); err != nil {
		return fmt.Errorf("generating the pages: %v", err)
	}
	wasmSum, err := siteWasmSum(root, &fileSums{})
	if err != nil {
		return err
	}
	for _, name := range []string{"index.html", "app.js", "app-worker.js", "manifest.webmanifest"} {
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		data = relativize(name, data, pageURL)
		switch name {
		case "app.js":
			if data, err = patchAppJS(data, true); err != nil {
				return err
			}
		case "app-worker.js":
			data = bytes.ReplaceAll(data, []byte(workerWasmSumMark), []byte(wasmSum))
			// A static host's ETags are its own: the worker sums the bytes.
			data = bytes.ReplaceAll(data, []byte(workerWasmETagsMark), []byte("[]"))
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	return copySite(root, filepath.Join(dir, "web"))
}

var (
	// ogURL is go-app's og:url tag, which GenerateStaticWebsite fills with
	// the temporary local address it rendered the page from. go-app writes
	// an element's attributes in map order, so either may come first.
	ogURL = regexp.MustCompile(`<meta (?:property="og:url" content="[^"]*"|content="[^"]*" property="og:url")>\s*`)
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
		// A static file server sends no Content-Security-Policy header:
		// the page carries the policy itself.
		s = strings.Replace(s, `<meta charset="UTF-8">`,
			`<meta charset="UTF-8">`+"\n"+`<meta http-equiv="Content-Security-Policy" content="`+htmlAttr(metaCSP())+`">`, 1)
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
// offline, "/?rows=100000" must find the cached "/". It fills its cache
// with what the server says is current (a static host's max-age could
// otherwise hand a new worker the previous build): the app.wasm the page
// handed over (a static site) or the HTTP cache's, revalidated (serve),
// when it is this build's, else app.wasm from the server; the
// other files revalidated, so what the page has loaded is a 304 (see
// handoff.go). And a worker
// that replaces another reloads the pages it served (workerReload).
//
// It answers only from its own cache (the one named after the content),
// never from another such as the page's hand-off (handoff.go), whose
// app.wasm its install takes when the bytes are this build's
// (workerHandoff; its SHA-256 is left as workerWasmSumMark).
func patchWorker(js []byte) []byte {
	js = bytes.Replace(js, []byte(`caches.match(event.request)`),
		[]byte(`caches.open(cacheName).then((cache) => cache.match(event.request, { ignoreSearch: event.request.mode === "navigate" }))`), 1)
	js = bytes.Replace(js, []byte(`cache.addAll(resourcesToCache)`), []byte(`headroomFill(cache)`), 1)
	js = append(js, workerHandoff...)
	return append(js, workerReload...)
}

// metaCSP is the Content-Security-Policy a page states in a <meta> tag:
// serve's, less frame-ancestors, which a browser ignores there (with a
// console warning).
func metaCSP() string {
	var kept []string
	for _, d := range strings.Split(contentSecurityPolicy, ";") {
		if d = strings.TrimSpace(d); d != "" && !strings.HasPrefix(d, "frame-ancestors") {
			kept = append(kept, d)
		}
	}
	return strings.Join(kept, "; ")
}

func htmlAttr(s string) string {
	return strings.NewReplacer(`&`, "&amp;", `"`, "&quot;", `<`, "&lt;", `>`, "&gt;").Replace(s)
}

// copySite copies the site files of root (siteCopies: what serve sends,
// without app.wasm's compressed copies, which a plain file server would
// not choose between) into dst.
func copySite(root *os.Root, dst string) error {
	names, err := siteCopies(root)
	if err != nil {
		return err
	}
	for _, name := range names {
		data, err := root.ReadFile(name)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
