package server

import (
	"bytes"
	"compress/gzip"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// The page's small files (the prerendered page, its scripts and styles,
// the manifest, the worker, the seeds) are text a browser takes gzipped:
// a first visit moved 150 KB of them uncompressed, about 35 KB gzipped.
// app.wasm is not among them: serveWasm sends its precompressed copies.
//
// A gzipped response is its own representation: its ETag is the plain
// one with gzipETagSuffix inside the quotes, so no cache takes one
// encoding's bytes for the other's, and a revalidation (If-None-Match)
// has the suffix taken off before the handler compares it, so the
// worker's revalidation of what the page loaded is still a 304.

// gzipETagSuffix marks the ETag of a gzipped response.
const gzipETagSuffix = "-gzip"

// maxGzipBody is the largest body compressed (buffered whole); a larger
// one is sent as the handler writes it.
const maxGzipBody = 1 << 20

// minGzipBody is the smallest body worth compressing: below it, gzip's
// header and trailer take back most of what it saves.
const minGzipBody = 512

var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression)
	return w
}}

// compressible reports whether a response of this Content-Type is text
// that gzip shrinks (images other than SVG are compressed already).
func compressible(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	switch mt {
	case "application/javascript", "text/javascript", "application/json", "application/manifest+json", "image/svg+xml":
		return true
	}
	return strings.HasPrefix(mt, "text/")
}

// serveGzipped runs h for r, gzipping a compressible response of status
// 200 when the client accepts gzip (and prefers it to identity). Every
// response says Vary: Accept-Encoding. A range request is answered
// whole: a range of the plain body gzipped is no range at all.
func serveGzipped(h func(http.ResponseWriter, *http.Request), w http.ResponseWriter, r *http.Request) {
	w.Header().Add("Vary", "Accept-Encoding")
	coding, _ := parseAcceptEncoding(r.Header.Get("Accept-Encoding")).choose([]string{"gzip", "identity"})
	if r.Method != http.MethodGet || coding != "gzip" {
		h(w, r)
		return
	}
	r = r.Clone(r.Context())
	r.Header.Del("Range")
	r.Header.Del("If-Range")
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		r.Header.Set("If-None-Match", strings.ReplaceAll(inm, gzipETagSuffix+`"`, `"`))
	}
	g := &gzipResponse{w: w, code: http.StatusOK}
	h(g, r)
	g.finish()
}

// gzipResponse holds a handler's response until it is complete (or past
// maxGzipBody), then sends it gzipped or as it was.
type gzipResponse struct {
	w           http.ResponseWriter
	code        int
	wroteHeader bool
	buf         bytes.Buffer
	passThrough bool // sending the handler's bytes as they come
}

func (g *gzipResponse) Header() http.Header { return g.w.Header() }

// Unwrap lets http.ResponseController reach the connection (bodyDeadline).
func (g *gzipResponse) Unwrap() http.ResponseWriter { return g.w }

func (g *gzipResponse) WriteHeader(code int) {
	if g.wroteHeader {
		return
	}
	g.wroteHeader, g.code = true, code
	if code != http.StatusOK || !compressible(g.w.Header().Get("Content-Type")) {
		g.passThrough = true
		if code == http.StatusNotModified {
			g.suffixETag()
		}
		g.w.WriteHeader(code)
	}
}

func (g *gzipResponse) Write(p []byte) (int, error) {
	if !g.wroteHeader {
		if g.w.Header().Get("Content-Type") == "" {
			g.w.Header().Set("Content-Type", http.DetectContentType(p))
		}
		g.WriteHeader(http.StatusOK)
	}
	if g.passThrough {
		return g.w.Write(p)
	}
	if g.buf.Len()+len(p) > maxGzipBody {
		g.passThrough = true
		g.w.WriteHeader(g.code)
		if _, err := g.w.Write(g.buf.Bytes()); err != nil {
			return 0, err
		}
		g.buf.Reset()
		return g.w.Write(p)
	}
	return g.buf.Write(p)
}

// suffixETag marks the response's ETag as the gzipped representation's.
func (g *gzipResponse) suffixETag() {
	h := g.w.Header()
	if etag := h.Get("ETag"); strings.HasSuffix(etag, `"`) && !strings.HasSuffix(etag, gzipETagSuffix+`"`) {
		h.Set("ETag", strings.TrimSuffix(etag, `"`)+gzipETagSuffix+`"`)
	}
}

// finish sends what is held: gzipped when it is worth it.
func (g *gzipResponse) finish() {
	if !g.wroteHeader {
		g.WriteHeader(http.StatusOK)
	}
	if g.passThrough {
		return
	}
	h := g.w.Header()
	body := g.buf.Bytes()
	if len(body) < minGzipBody || h.Get("Content-Encoding") != "" {
		g.w.WriteHeader(g.code)
		g.w.Write(body)
		return
	}
	var out bytes.Buffer
	zw := gzipWriters.Get().(*gzip.Writer)
	zw.Reset(&out)
	zw.Write(body)
	zw.Close()
	gzipWriters.Put(zw)
	g.suffixETag()
	h.Set("Content-Encoding", "gzip")
	h.Set("Content-Length", strconv.Itoa(out.Len()))
	h.Del("Accept-Ranges")
	g.w.WriteHeader(g.code)
	g.w.Write(out.Bytes())
}
