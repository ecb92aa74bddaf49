package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// contentSecurityPolicy lets the page load only from its own origin.
// 'wasm-unsafe-eval' is what WebAssembly.instantiateStreaming needs; it
// allows compiling WebAssembly, not JavaScript eval. go-app's page has no
// inline script (wasm_exec.js and app.js are files), so script-src needs no
// hash and no 'unsafe-inline'.
//
// style-src 'self' refuses every inline style, style="..." attributes
// included: the chart's SVG is written with presentation attributes
// (fill="...", stroke="...", see app/chart's svgCanvas) where gonum's vgsvg would put
// a style on every path and text; they need no permission (the e2e tests
// fail on any CSP violation in the console).
//
// img-src also allows blob: for the PNG export: the page draws the chart's
// SVG on a canvas through an Image loading it from a blob: URL, which only
// the page's own script can make (app.wasm has no PNG encoder). Downloads
// through blob: URLs need nothing here.
const contentSecurityPolicy = "default-src 'self'; " +
	"script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self'; " +
	"img-src 'self' blob:; " +
	"object-src 'none'; " +
	"base-uri 'none'; " +
	"form-action 'self'; " +
	"frame-ancestors 'none'"

// DocsPath is where serve answers with the contract, docs/model.md, as
// text; DocsFile is web/'s copy of it, which the static site holds too
// (the page links to /web/docs/model.txt, which both serve).
const (
	DocsPath = "/docs/model.md"
	DocsFile = "docs/model.txt"
)

// wasmLengthHeader carries app.wasm's uncompressed size on every app.wasm
// response. go-app's loader (app.js) counts decompressed bytes against the
// header that Handler.WasmContentLengthHeader names, falling back to
// Content-Length, which for a compressed response is the smaller wire size
// and would push the progress far past 100%.
const wasmLengthHeader = "X-Wasm-Content-Length"

// The server's limits: a header that takes longer than readHeaderTimeout
// or exceeds maxHeaderBytes is refused; writeTimeout bounds a response,
// and a file's response gets one more second per slowClientRate bytes of
// its body (bodyDeadline), so a slow link can finish app.wasm.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 15 * time.Second
	writeTimeout      = 60 * time.Second
	slowClientRate    = 32 << 10 // bytes per second
	idleTimeout       = 120 * time.Second
	maxHeaderBytes    = 32 << 10
	shutdownTimeout   = 10 * time.Second
)

// precompressed lists the encodings of app.wasm that `make wasm` writes
// next to it, in the order the server prefers them.
var precompressed = []struct{ coding, suffix string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// Server serves the explorer: the files of web/ itself (safely, see
// serveFile), and everything else (the page, app.js, wasm_exec.js, the
// manifest) through go-app's handler.
//
// It serves /web/ itself. The alternative, chdir to the project root so
// that go-app's own file server (http.FileServer(http.Dir(""))) finds
// web/, would follow symlinks anywhere, change the working directory of
// the whole process, and know nothing of the precompressed app.wasm.
type Server struct {
	web  *os.Root
	app  http.Handler
	sums fileSums // of web/'s files: the content version, the ETags

	// prerenders holds a token for each prerender of the page running;
	// a request that finds no free one within prerenderWait is answered
	// 503 (see servePage).
	prerenders    chan struct{}
	prerenderWait time.Duration
}

// maxPrerenders is how many prerenders of the page may run at once: two
// for each CPU, at least four. prerenderQueueWait is how long a request
// waits for one to finish before it is answered 503 (Retry-After), rather
// than queueing work that the write timeout would throw away.
const prerenderQueueWait = 5 * time.Second

func maxPrerenders() int { return max(4, 2*runtime.GOMAXPROCS(0)) }

// New returns a server of the files in webDir and of appH. Close it
// to release webDir.
func New(webDir string, appH *app.Handler) (*Server, error) {
	root, err := os.OpenRoot(webDir)
	if err != nil {
		return nil, fmt.Errorf("web directory: %v", err)
	}
	appH.WasmContentLengthHeader = wasmLengthHeader
	if appH.ServiceWorkerTemplate == "" {
		// The static site's worker (patchWorker), named after web/'s
		// content when it is served (serveWorker).
		appH.ServiceWorkerTemplate = serveWorkerTemplate()
	}
	return &Server{web: root, app: appH,
		prerenders: make(chan struct{}, maxPrerenders()), prerenderWait: prerenderQueueWait}, nil
}

// Close releases the web directory.
func (s *Server) Close() error { return s.web.Close() }

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	switch p := r.URL.Path; p {
	case "/web/app.wasm", "/app.wasm", "/goapp.wasm":
		// The last two are go-app's aliases of the first.
		s.serveWasm(w, r)
	default:
		serveGzipped(s.serveSmall, w, r)
	}
}

// serveSmall serves everything but app.wasm: the page, go-app's scripts
// and manifest, the worker and web/'s other files (gzipped when the
// client takes it: see serveGzipped).
func (s *Server) serveSmall(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case strings.HasPrefix(p, "/web/"):
		s.serveFile(w, r, strings.TrimPrefix(p, "/web/"))
	case p == DocsPath:
		// The contract the page cites, readable in the browser as text:
		// web/'s copy of docs/model.md (make web-assets).
		s.serveFile(w, r, DocsFile)
	case p == "/robots.txt", p == "/sitemap.xml", p == "/ads.txt":
		// go-app would fetch these from http://<request Host>/web/...,
		// a request to wherever the client's Host header points.
		s.serveFile(w, r, strings.TrimPrefix(p, "/"))
	case p == "/app-worker.js":
		s.serveWorker(w, r)
	case p == "/app.js", p == "/goapp.js":
		s.serveAppJS(w, r)
	case !goappServes(p):
		http.NotFound(w, r)
	case p == "/":
		s.servePage(w, r)
	default:
		// go-app's scripts and manifest: as the page, they must not see
		// the request's own text (prerenderRequest).
		serveZoomable(s.app, w, prerenderRequest(r))
	}
}

// servePage serves the page, prerendered for the request's query. The
// prerender must not see the request's own text, and its work is bounded
// (see prerenderRequest); at most cap(s.prerenders) run at once, and a
// request that cannot start one within s.prerenderWait is answered 503
// with Retry-After.
func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	select {
	case s.prerenders <- struct{}{}:
	default:
		t := time.NewTimer(s.prerenderWait)
		defer t.Stop()
		select {
		case s.prerenders <- struct{}{}:
		case <-t.C:
			w.Header().Set("Retry-After", "2")
			http.Error(w, "the server is busy drawing other pages; try again in a moment", http.StatusServiceUnavailable)
			return
		case <-r.Context().Done():
			return
		}
	}
	defer func() { <-s.prerenders }()
	serveZoomable(s.app, w, prerenderRequest(r))
}

// serveFile serves the site file name (slash-separated, relative to
// web/; see siteFile), with an ETag of its bytes.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, name string) {
	f, fi, ok := s.open(name)
	if !ok {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	sum, err := s.sums.of(name, f, fi)
	if err != nil {
		http.Error(w, "reading the file failed", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("ETag", `"`+sum[:32]+`"`)
	bodyDeadline(w, fi.Size())
	http.ServeContent(w, r, fi.Name(), fi.ModTime(), f)
}

// bodyDeadline gives the response writeTimeout from now plus a second for
// every slowClientRate bytes of a size-byte body: at 128 KiB/s, the
// probe's slow client, the uncompressed app.wasm needs about two minutes.
func bodyDeadline(w http.ResponseWriter, size int64) {
	d := writeTimeout + time.Duration(size/slowClientRate)*time.Second
	// Not every ResponseWriter has a deadline (a test's recorder).
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(d))
}

// serveWasm serves app.wasm in the encoding the client prefers among
// those `make wasm` wrote (br, gzip) and the file itself, by q-value, ties
// going to the smaller; 406 when the client refuses them all. A
// compressed copy older than app.wasm is stale (app.wasm was rebuilt
// without make) and is skipped.
//
// Each encoding is its own representation with its own ETag (the hash of
// the bytes sent), so a client resuming a download never splices one
// encoding's bytes onto another's. Ranges are answered on app.wasm itself
// only: a compressed copy is sent whole (200, Accept-Ranges: none), since
// a multipart range of an encoded body is what no client decodes.
func (s *Server) serveWasm(w http.ResponseWriter, r *http.Request) {
	f, fi, ok := s.open("app.wasm")
	if !ok {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	h := w.Header()
	h.Add("Vary", "Accept-Encoding")
	h.Set("Cache-Control", "no-cache")
	files := map[string]*os.File{"identity": f}
	infos := map[string]fs.FileInfo{"identity": fi}
	var available []string
	for _, c := range precompressed {
		cf, cfi, ok := s.open("app.wasm" + c.suffix)
		if !ok {
			continue
		}
		defer cf.Close()
		if cfi.ModTime().Unix() < fi.ModTime().Unix() {
			// Whole seconds: brotli and gzip give their output the
			// input's time, brotli truncated to the second.
			continue
		}
		files[c.coding], infos[c.coding] = cf, cfi
		available = append(available, c.coding)
	}
	coding, ok := parseAcceptEncoding(r.Header.Get("Accept-Encoding")).choose(append(available, "identity"))
	if !ok {
		http.Error(w, "app.wasm is available as "+strings.Join(append(available, "identity"), ", ")+
			"; the request's Accept-Encoding refuses them all", http.StatusNotAcceptable)
		return
	}
	body, bi := files[coding], infos[coding]
	name := "app.wasm"
	if coding != "identity" {
		name += "." + coding
	}
	sum, err := s.sums.of(name, body, bi)
	if err != nil {
		http.Error(w, "reading app.wasm failed", http.StatusInternalServerError)
		return
	}
	h.Set("Content-Type", "application/wasm")
	h.Set(wasmLengthHeader, strconv.FormatInt(fi.Size(), 10))
	h.Set("ETag", `"`+sum[:32]+`"`)
	bodyDeadline(w, bi.Size())
	if coding != "identity" {
		h.Set("Content-Encoding", coding)
		// ServeContent leaves Content-Length out once Content-Encoding is
		// set; the file is the exact encoded body, so say its size.
		h.Set("Content-Length", strconv.FormatInt(bi.Size(), 10))
		r = r.Clone(r.Context())
		r.Header.Del("Range")
		r.Header.Del("If-Range")
		w = noRanges{w}
	}
	http.ServeContent(w, r, "app.wasm", fi.ModTime(), body)
}

// noRanges says a response takes no range requests (ServeContent always
// says it does).
type noRanges struct{ http.ResponseWriter }

func (w noRanges) WriteHeader(code int) {
	w.Header().Set("Accept-Ranges", "none")
	w.ResponseWriter.WriteHeader(code)
}

// open opens a site file of web/ by its slash-separated name (siteFile).
func (s *Server) open(name string) (*os.File, fs.FileInfo, bool) {
	return openSiteFile(s.web, name)
}

// NewHTTPServer wraps h in an http.Server with the server's limits.
func NewHTTPServer(h http.Handler, errorLog io.Writer) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          log.New(errorLog, "headroom serve: ", 0),
		// "OPTIONS *" reaches the server's handler (405, with the
		// security headers) instead of net/http's own 200. The 400 and 431
		// answers to a malformed request or an oversized header are
		// net/http's, written before any handler runs: they carry no
		// security headers, and need none (a fixed text/plain body).
		DisableGeneralOptionsHandler: true,
	}
}

// ServeUntil serves on ln until ctx is done, then shuts down: it stops
// accepting, lets requests in flight finish (up to shutdownTimeout), and
// returns nil after a clean shutdown.
func ServeUntil(ctx context.Context, srv *http.Server, ln net.Listener) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err // Serve failed on its own
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if err != nil {
		srv.Close()
	}
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	return err
}
