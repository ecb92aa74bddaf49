//go:build wasm

package ui

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/chart"
)

// darkQuery is the media query of the dark theme (web/headroom.css).
const darkQuery = "(prefers-color-scheme: dark)"

// chartPalette is the chart's palette for the page's colour scheme.
func (c *explorer) chartPalette() *chart.Palette {
	mq := app.Window().Call("matchMedia", darkQuery)
	if c.themeChange == nil {
		// A change of scheme draws the chart again.
		c.themeChange = app.FuncOf(func(app.Value, []app.Value) any {
			c.ctx.Dispatcher().Dispatch(app.Dispatch{Mode: app.Next, Source: c, Function: func(app.Context) {
				c.requestRender()
			}})
			return nil
		})
		mq.Call("addEventListener", "change", c.themeChange)
	}
	if mq.Get("matches").Bool() {
		return &chart.Dark
	}
	return &chart.Light
}
