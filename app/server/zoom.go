package server

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
)

// go-app writes a viewport tag that forbids zooming (maximum-scale=1,
// user-scalable=0), which fails WCAG 1.4.4 (resize text) and axe-core's
// meta-viewport rule. The server's pages and the static site's index.html
// get the same tag without those two limits.
var (
	lockedViewport   = []byte(`content="width=device-width, initial-scale=1, maximum-scale=1, user-scalable=0, viewport-fit=cover"`)
	zoomableViewport = []byte(`content="width=device-width, initial-scale=1, viewport-fit=cover"`)
)

// allowZoom rewrites go-app's viewport tag in a page.
func allowZoom(page []byte) []byte {
	return bytes.Replace(page, lockedViewport, zoomableViewport, 1)
}

// zoomWriter holds a response of go-app's handler, so that an HTML page
// can be rewritten before it is sent (go-app's pages are a few KB).
type zoomWriter struct {
	http.ResponseWriter
	buf  bytes.Buffer
	code int
}

func (z *zoomWriter) WriteHeader(code int)        { z.code = code }
func (z *zoomWriter) Write(b []byte) (int, error) { return z.buf.Write(b) }

// serveZoomable serves h's response with the page's viewport rewritten
// (allowZoom) and without go-app's og:url tag; any other response goes
// out as h wrote it.
//
// og:url is left out as the static site leaves it out without -url: go-app
// builds it from the request's Host header, which names whatever host the
// client says (made inert, so it injects nothing, but a preview URL no one
// chose), and a server on loopback has no public URL to give.
func serveZoomable(h http.Handler, w http.ResponseWriter, r *http.Request) {
	z := &zoomWriter{ResponseWriter: w, code: http.StatusOK}
	h.ServeHTTP(z, r)
	body := z.buf.Bytes()
	if strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		body = ogURL.ReplaceAll(allowZoom(body), nil)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(z.code)
	w.Write(body)
}
