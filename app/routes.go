package main

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui"
)

// registerRoutes declares the explorer's one page. RouteFunc rather than
// Route: Route mounts a zero value of the component, and the explorer
// needs its constructor (its edit sink, its default state).
func registerRoutes() {
	app.RouteFunc("/", ui.NewExplorer)
}

// runWhenOnBrowser hands control to go-app in the browser; elsewhere it
// returns at once.
func runWhenOnBrowser() {
	app.RunWhenOnBrowser()
}
