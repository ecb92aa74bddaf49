//go:build wasm

package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// main is the browser's: the route and go-app's start, and nothing of the
// server (main.go), as app.wasm carries none of Headroom's server.
func main() {
	route()
	app.RunWhenOnBrowser()
}
