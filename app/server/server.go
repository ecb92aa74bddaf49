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

// wasmLengthHeader carries app.wasm's uncompressed size on every app.wasm
// response. go-app's loader (app.js) counts decompressed bytes against the
// header that Handler.WasmContentLengthHeader names, falling back to
// Content-Length, which for a compressed response is the smaller wire size
// and would push the progress far past 100%.
const wasmLengthHeader = "X-Wasm-Content-Length"

// The server's limits: a header that takes longer than readHeaderTimeout
// or exceeds maxHeaderBytes is refused; writeTimeout bounds a whole
// response, app.wasm included, on a slow link.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 15 * time.Second
	writeTimeout      = 60 * time.Second
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
	web *os.Root
	app http.Handler
}

// New returns a server of the files in webDir and of appH. Close it
// to release webDir.
func New(webDir string, appH *app.Handler) (*Server, error) {
	root, err := os.OpenRoot(webDir)
	if err != nil {
		return nil, fmt.Errorf("web directory: %v", err)
	}
	appH.WasmContentLengthHeader = wasmLengthHeader
	if appH.ServiceWorkerTemplate == "" {
		// The page's state is in its query string: offline, the service
		// worker must answer "/?rows=100000" with the cached "/", as the
		// static site's worker does (see patchWorker).
		appH.ServiceWorkerTemplate = string(patchWorker([]byte(app.DefaultAppWorkerJS)))
	}
	return &Server{web: root, app: appH}, nil
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
	p := r.URL.Path
	switch {
	case p == "/web/app.wasm", p == "/app.wasm", p == "/goapp.wasm":
		// The last two are go-app's aliases of the first.
		s.serveWasm(w, r)
	case strings.HasPrefix(p, "/web/"):
		s.serveFile(w, r, strings.TrimPrefix(p, "/web/"))
	case p == "/robots.txt", p == "/sitemap.xml", p == "/ads.txt":
		// go-app would fetch these from http://<request Host>/web/...,
		// a request to wherever the client's Host header points.
		s.serveFile(w, r, strings.TrimPrefix(p, "/"))
	default:
		serveZoomable(s.app, w, r)
	}
}

// serveFile serves the regular file name (slash-separated, relative to
// web/). It refuses names with "..", ".", empty or hidden elements, and
// directories; os.Root refuses anything that resolves outside web/,
// symlinks included.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, name string) {
	f, fi, ok := s.open(name)
	if !ok {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, fi.Name(), fi.ModTime(), f)
}

// serveWasm serves app.wasm in the best encoding the client accepts that
// `make wasm` wrote: br, then gzip, then the file itself. A compressed copy
// older than app.wasm is stale (app.wasm was rebuilt without make) and is
// skipped.
func (s *Server) serveWasm(w http.ResponseWriter, r *http.Request) {
	f, fi, ok := s.open("app.wasm")
	if !ok {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	h := w.Header()
	h.Add("Vary", "Accept-Encoding")
	h.Set("Content-Type", "application/wasm")
	h.Set("Cache-Control", "no-cache")
	h.Set(wasmLengthHeader, strconv.FormatInt(fi.Size(), 10))
	body := f
	accepted := acceptedCodings(r.Header.Get("Accept-Encoding"))
	for _, c := range precompressed {
		if !accepted(c.coding) {
			continue
		}
		cf, cfi, ok := s.open("app.wasm" + c.suffix)
		if !ok {
			continue
		}
		if cfi.ModTime().Unix() < fi.ModTime().Unix() {
			// Whole seconds: brotli and gzip give their output the
			// input's time, brotli truncated to the second.
			cf.Close()
			continue
		}
		defer cf.Close()
		body = cf
		h.Set("Content-Encoding", c.coding)
		// ServeContent leaves Content-Length out once Content-Encoding is
		// set; the file is the exact encoded body, so say its size.
		h.Set("Content-Length", strconv.FormatInt(cfi.Size(), 10))
		break
	}
	http.ServeContent(w, r, "app.wasm", fi.ModTime(), body)
}

// open opens a regular file of web/ by its slash-separated name.
func (s *Server) open(name string) (*os.File, fs.FileInfo, bool) {
	if !fs.ValidPath(name) || name == "." || strings.ContainsAny(name, "\\\x00") {
		return nil, nil, false
	}
	for _, elem := range strings.Split(name, "/") {
		if strings.HasPrefix(elem, ".") {
			return nil, nil, false
		}
	}
	f, err := s.web.Open(name)
	if err != nil {
		return nil, nil, false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, false
	}
	return f, fi, true
}

// acceptedCodings parses an Accept-Encoding header and reports whether a
// content coding is acceptable: listed (or matched by "*") with a q-value
// above zero.
func acceptedCodings(header string) func(coding string) bool {
	q := map[string]float64{}
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding == "" {
			continue
		}
		weight := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					weight = f
				}
			}
		}
		q[coding] = weight
	}
	return func(coding string) bool {
		if w, ok := q[coding]; ok {
			return w > 0
		}
		w, ok := q["*"]
		return ok && w > 0
	}
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
