package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// appHandler describes the page to go-app's server: its names, its local
// icons and style sheet. Every resource is under /web on this host: go-app's
// default icons live on another host, and the page must make no request
// to one. The server wraps this handler.
func appHandler() *app.Handler {
	return &app.Handler{
		Name:        "Headroom",
		ShortName:   "Headroom",
		Title:       "Headroom: memory-budget explorer",
		Description: "See where a change to a trainer's memory estimate makes a request split or refuse: the bytes of every stage, the budget line and the flip points, baseline beside candidate.",
		Lang:        "en",
		Icon: app.Icon{
			Default:    "/web/icons/icon-192.png",
			Large:      "/web/icons/icon-512.png",
			SVG:        "/web/icons/icon.svg",
			AppleTouch: "/web/icons/icon-192.png",
		},
		Styles:          []string{"/web/headroom.css"},
		BackgroundColor: "#f7f8fa",
		ThemeColor:      "#1b2a41",
		LoadingLabel:    "Loading Headroom…",
	}
}
