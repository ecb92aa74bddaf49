// Package server serves the explorer and writes it as a static site.
//
// Server serves the files of web/ itself (through os.Root, so nothing
// outside web/ is ever read, with app.wasm's precompressed copies when the
// client accepts them) and everything else through the go-app handler it
// is given, under a strict Content-Security-Policy; NewHTTPServer and
// ServeUntil add the timeouts and the graceful shutdown. WriteStaticSite
// writes the same page as files that run under any path prefix. Both send
// only the site's files (siteFile) and name the service worker's cache
// after their content (siteVersion); the page handler prerenders from a
// cleaned copy of the request (prerenderRequest), as go-app writes
// attributes unsafely, whose query is cut to its keys when it is over the
// prerender's budget; servePage bounds how many prerenders run at once.
//
// It knows nothing of what the page draws: main hands it go-app's handler.
// It may import go-app and the standard library; never gonum/plot, the
// chart (app/chart), the page (app/ui) or the command line (app/cli).
package server
