package ui

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/chart"
)

// chartPalette is the chart's palette for the page's colour scheme
// (Light outside the browser); a change of scheme draws the chart again.
func (c *explorer) chartPalette() *chart.Palette {
	dark := c.theme.Dark(func() {
		c.ctx.Dispatcher().Dispatch(app.Dispatch{Mode: app.Next, Source: c, Function: func(app.Context) {
			c.requestRender()
		}})
	})
	if dark {
		return &chart.Dark
	}
	return &chart.Light
}
