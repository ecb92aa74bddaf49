package main

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui"
)

// registerRoutes declares the explorer's one page, in both builds: the
// browser mounts it, the native server prerenders it. RouteFunc rather
// than Route: Route mounts a zero value of the component, and the explorer
// needs its constructor (its edit sink, its default state). Routing again
// replaces the route, so tests may call it as often as they like.
func registerRoutes() {
	app.RouteFunc("/", ui.NewExplorer)
}
