//go:build wasm

package browser

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// NowMs is performance.now(): WebAssembly's time.Now ticks too coarsely to
// time a render.
func NowMs() float64 {
	return app.Window().Get("performance").Call("now").Float()
}

// ReplaceQuery puts the query into the address bar without a history entry.
func ReplaceQuery(query string) { setQuery("replaceState", query) }

// PushQuery puts the query into the address bar as a new history entry.
func PushQuery(query string) { setQuery("pushState", query) }

// setQuery puts the query into the address bar with the history's method
// (replaceState or pushState), keeping the path.
func setQuery(method, query string) {
	u := app.Window().Get("location").Get("pathname").String()
	if query != "" {
		u += "?" + query
	}
	app.Window().Get("history").Call(method, nil, "", u)
}

// Mark notes a named moment on the page's timeline (performance.mark), so
// make bench can split a cold load's long task into its parts (Go's
// start, the first compute, go-app's mount). A mark is a few
// microseconds; the browser keeps the buffer.
func Mark(name string) {
	app.Window().Get("performance").Call("mark", name)
}
