package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// workerVersionMark stands for the content version in serve's service
// worker template: go-app renders the worker once, with the version it
// had when it started; serve puts the version of what web/ holds now in
// its place on every request (serveWorker), so a rebuild needs no
// restart.
const workerVersionMark = "HEADROOM_CONTENT_VERSION"

// serveWorkerTemplate is go-app's service worker as serve sends it (see
// patchWorker), its version left to serveWorker.
func serveWorkerTemplate() string {
	return strings.ReplaceAll(string(patchWorker([]byte(app.DefaultAppWorkerJS))), "{{.Version}}", workerVersionMark)
}

// workerReload is added to go-app's service worker (patchWorker). go-app's
// worker installs a new version in the background and activates it at
// once (skipWaiting), but a page that loaded from the old cache keeps
// running the old build until the next load, and go-app's own update
// notice (goappOnUpdate) is lost when it arrives before app.wasm has
// started, which on a returning visit it usually does. So a worker that
// replaces another takes over the open pages and reloads them: the first
// load after a rebuild ends on the new build, its page, scripts and
// app.wasm all from the one cache named after it. The page's state is in
// its URL, so a reload keeps it. A first install (no worker before)
// reloads nothing.
const workerReload = `
// Headroom: a worker that replaces another reloads the pages the old one
// served, so they run the build this worker cached.
let headroomReplacing = false;
self.addEventListener("install", () => {
  headroomReplacing = !!self.registration.active;
});
self.addEventListener("activate", (event) => {
  if (!headroomReplacing) {
    return;
  }
  // The reloads are not waited for: their requests wait for this
  // worker to be active.
  event.waitUntil(
    self.clients.claim().then(() => {
      self.clients.matchAll({ type: "window" }).then((pages) =>
        pages.forEach((page) => page.navigate(page.url).catch(() => {}))
      );
    })
  );
});
`

// goappServes reports whether go-app's handler answers path with one of
// its files or a page (main routes only "/": app/routes.go). Every other
// path is a 404 that serve answers itself: go-app would answer 304 to
// any path whose request carries its ETag, a missing page included.
func goappServes(path string) bool {
	switch path {
	case "/", "/app.js", "/goapp.js", "/app-worker.js", "/wasm_exec.js",
		"/manifest.webmanifest", "/manifest.json", "/app.css":
		return true
	}
	return false
}

// serveWorker sends go-app's service worker with the content version of
// web/ as it is now, app.wasm's SHA-256 and ETags (see handoff.go), and an ETag
// of its bytes.
func (s *Server) serveWorker(w http.ResponseWriter, r *http.Request) {
	version, err := siteVersion(s.web, &s.sums)
	if err != nil {
		http.Error(w, "reading the web files failed", http.StatusInternalServerError)
		return
	}
	r2 := r.Clone(r.Context())
	r2.Method = http.MethodGet
	r2.Header.Del("If-None-Match") // go-app's ETag is not this body's
	rec := &bufferedResponse{header: http.Header{}, code: http.StatusOK}
	s.app.ServeHTTP(rec, r2)
	if rec.code != http.StatusOK {
		http.Error(w, "the service worker could not be rendered", http.StatusInternalServerError)
		return
	}
	wasmSum, err := siteWasmSum(s.web, &s.sums)
	if err != nil {
		http.Error(w, "reading app.wasm failed", http.StatusInternalServerError)
		return
	}
	wasmETags, err := siteWasmETags(s.web, &s.sums)
	if err != nil {
		http.Error(w, "reading app.wasm failed", http.StatusInternalServerError)
		return
	}
	body := bytes.ReplaceAll(rec.body.Bytes(), []byte(workerVersionMark), []byte(version))
	body = bytes.ReplaceAll(body, []byte(workerWasmSumMark), []byte(wasmSum))
	body = bytes.ReplaceAll(body, []byte(workerWasmETagsMark), []byte(wasmETags))
	sum := sha256.Sum256(body)
	h := w.Header()
	h.Set("Content-Type", "application/javascript")
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", `"`+hex.EncodeToString(sum[:10])+`"`)
	http.ServeContent(w, r, "app-worker.js", time.Time{}, bytes.NewReader(body))
}

// bufferedResponse keeps a response in memory.
type bufferedResponse struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header         { return b.header }
func (b *bufferedResponse) WriteHeader(code int)        { b.code = code }
func (b *bufferedResponse) Write(p []byte) (int, error) { return b.body.Write(p) }
