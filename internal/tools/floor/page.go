package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// greeting is the page: a heading and nothing else.
type greeting struct {
	app.Compo
}

func (g *greeting) Render() app.UI {
	return app.H1().Text("Hello, world")
}

// route registers the page for both builds: the browser's mounts it, the
// server's prerenders it.
func route() {
	app.Route("/", &greeting{})
}
