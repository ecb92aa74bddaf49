//go:build wasm

package main

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// setupFrames makes the animation-frame callback: it hands the render to
// go-app's UI goroutine with Dispatch, which also redraws the explorer.
func (c *explorer) setupFrames() {
	if c.frame != nil {
		return
	}
	c.frame = app.FuncOf(func(this app.Value, args []app.Value) any {
		c.ctx.Dispatch(func(app.Context) {
			c.framePending = false
			c.renderNow()
		})
		return nil
	})
}

func (c *explorer) releaseFrames() {
	if c.frame != nil {
		c.frame.Release()
		c.frame = nil
	}
}

// requestRender marks the page dirty; the render runs in the next
// animation frame, once however many edits came before it. A hidden tab
// gets no animation frames, so there a timeout stands in.
func (c *explorer) requestRender() {
	if c.framePending || c.frame == nil {
		return
	}
	c.framePending = true
	if app.Window().Get("document").Get("visibilityState").String() == "hidden" {
		app.Window().Call("setTimeout", c.frame, 0)
		return
	}
	app.Window().Call("requestAnimationFrame", c.frame)
}

// nowMs is performance.now(): WebAssembly's time.Now ticks too coarsely to
// time a render.
func nowMs() float64 {
	return app.Window().Get("performance").Call("now").Float()
}

// measureChart is the chart container's width in CSS pixels.
func measureChart() int {
	el := app.Window().GetElementByID("chart")
	if !el.Truthy() {
		return 0
	}
	return el.Get("clientWidth").Int()
}

// replaceQuery puts the query into the address bar without a history entry.
func replaceQuery(query string) {
	loc := app.Window().Get("location")
	u := loc.Get("pathname").String()
	if query != "" {
		u += "?" + query
	}
	app.Window().Get("history").Call("replaceState", nil, "", u)
}

// copyText puts text on the clipboard, or, where the Clipboard API is
// missing, selects the details for the user to copy.
func copyText(text string) {
	nav := app.Window().Get("navigator")
	if cb := nav.Get("clipboard"); cb.Truthy() {
		cb.Call("writeText", text)
		return
	}
	if el := app.Window().GetElementByID("error-details"); el.Truthy() {
		sel := app.Window().Call("getSelection")
		rng := app.Window().Get("document").Call("createRange")
		rng.Call("selectNodeContents", el)
		sel.Call("removeAllRanges")
		sel.Call("addRange", rng)
	}
}
