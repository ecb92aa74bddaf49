package ui

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// Handler describes the page to go-app's server: its names, its local
// icons and style sheet. Every resource is under /web on this host: go-app's
// default icons live on another host, and the page must make no request
// to one. main hands it to the server, which wraps it.
func Handler() *app.Handler {
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
		// What the service worker caches beyond go-app's own list, so that
		// after one visit the page works offline: the manifest's SVG icon
		// (go-app caches the PNG ones) and the seed texts the changes link.
		CacheableResources: cacheable(),
		// app.wasm's download starts while the page's HTML is parsed (the
		// prerendered page is long, and app.js, which fetches app.wasm,
		// is deferred to its end). Mode and credentials are fetch()'s
		// defaults, so app.js's fetch takes this response: one download.
		RawHeaders: []string{`<link rel="preload" href="/web/app.wasm" as="fetch" type="application/wasm" crossorigin="anonymous">`},
	}
}

// cacheable lists the files of web/ the page uses that go-app's service
// worker would not cache on its own.
func cacheable() []string {
	res := []string{"/web/icons/icon.svg"}
	for _, s := range changeSwitches {
		res = append(res, "/web/seeds/"+s.key+".txt")
	}
	return res
}
