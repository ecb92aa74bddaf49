package ui

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/chartview"
	"headroom/estimator"
)

// mapConfig is the config the map is computed for: the state's when it can
// be priced, else the last valid one on screen.
func (c *explorer) mapConfig() (estimator.Config, bool) {
	return c.state.MapConfig(c.shown.config, c.shown.ready)
}

// stepMap advances the map view's computation by one frame's share
// (mapview.Runner.Step); the frame callback runs it after the one-input
// render (renderNow defers it). While the map is not complete it asks
// for another frame.
func (c *explorer) stepMap() {
	defer c.catch("computing the map")
	if !c.state.Map.On {
		return
	}
	cfg, ok := c.mapConfig()
	if !ok {
		return
	}
	w, h := c.chartSize()
	if c.prerendering { // the server's: the browser computes the columns (Runner.Start)
		c.maps.Start(cfg, &c.state.Map, w, h)
		return
	}
	if !c.maps.Step(cfg, &c.state.Map, w, h, c.renders, c.renderMs) {
		c.requestRender()
	}
}

// newChartHost is the chart pointer's way into c: its edits through the
// page's sink, its callbacks on go-app's UI goroutine, and #chart's width.
func (c *explorer) newChartHost() *chartview.Host {
	return &chartview.Host{
		Sink: c.sink,
		Dispatch: func(fn func(app.Context)) {
			c.ctx.Dispatcher().Dispatch(app.Dispatch{Mode: app.Next, Source: c, Function: fn})
		},
		Resized: func() {
			if w := measureChart(); w != c.chartW && w > 0 {
				c.chartW = w
				c.requestRender()
			}
		},
		Width: func() int { return c.chartW },
	}
}
