//go:build wasm

package browser

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// serverPage is the server's prerendered page (the body's first element),
// noted by HoldServerPage before go-app replaces it.
var serverPage app.Value

// HoldServerPage notes the server's prerendered page, the element go-app
// replaces with its own drawing at its first mount. Call it before that
// mount (the page's OnInit).
func HoldServerPage() {
	serverPage = app.Window().Get("document").Get("body").Get("firstElementChild")
}

// ReleaseServerPage empties the server's page once go-app has replaced it
// (it does nothing while that page is still in the document), so that the
// garbage collector can free its nodes now. go-app and the page still hold
// JavaScript values of a few of its elements (go-app's root, the #chart
// OnInit measured) until Go's collector finds them unreachable and runs
// their finalizers, which with GOGC at 1000 is many renders away; a node
// keeps its parent, and the parent its children, so each such value kept
// the whole old page, some 2,700 nodes with the user agent's shadow trees
// (BENCHMARKS.md, renderer memory). held are the ids of the elements the
// page took from the server's page: each is cut out and emptied too, so
// that it holds no more than itself.
func ReleaseServerPage(held ...string) {
	p := serverPage
	serverPage = nil
	if p == nil || !p.Truthy() || p.Get("isConnected").Bool() {
		return
	}
	for _, id := range held {
		if el := p.Call("querySelector", "#"+id); el.Truthy() {
			el.Call("remove")
			el.Call("replaceChildren")
		}
	}
	p.Call("replaceChildren")
}
