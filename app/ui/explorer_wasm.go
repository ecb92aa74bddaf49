//go:build wasm

package ui

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// setupFrames makes the render callbacks. frame hands the render to
// go-app's UI goroutine, then writes the DOM at once (see flushUpdates);
// tick runs at the start of each animation frame while renders come:
// it renders what was coalesced into that frame, or notes that the frame
// has had no render yet, so the next input renders in its own task.
func (c *explorer) setupFrames() {
	if c.frame != nil {
		return
	}
	c.frame = app.FuncOf(func(this app.Value, args []app.Value) any {
		c.ctx.Dispatcher().Dispatch(app.Dispatch{Mode: app.Next, Source: c, Function: func(ctx app.Context) {
			c.framePending = false
			c.renderFrame(ctx)
			c.pointer.LayoutOverlay() // a hidden tab: no frame to wait for
		}})
		return nil
	})
	c.tick = app.FuncOf(func(this app.Value, args []app.Value) any {
		c.ctx.Dispatcher().Dispatch(app.Dispatch{Mode: app.Next, Source: c, Function: func(ctx app.Context) {
			if !c.framePending {
				c.frameUsed = false
				c.pointer.LayoutOverlay() // of the render in the input's task, if any
				return
			}
			c.framePending = false
			c.renderFrame(ctx)
			c.pointer.LayoutOverlay()
			app.Window().Call("requestAnimationFrame", c.tick)
		}})
		return nil
	})
}

// renderFrame computes the render and writes it to the DOM now. The
// chart's overlay, which reads the layout, is laid out at the start of the
// next animation frame (layoutOverlay): reading it here would make the
// browser lay the page out inside the input's task, and again for the
// frame.
func (c *explorer) renderFrame(ctx app.Context) {
	defer c.catch("drawing the page")
	c.renderNow()
	c.Update()
	flushUpdates(ctx)
	if c.menusDirty {
		c.menusDirty = false
		syncMenus()
	}
	c.pointer.AfterRender()
	c.markBusy()
}

// syncMenus puts each menu's choice back where the page's state says
// (data-selected, see menu.Render). go-app writes an option's selected
// property only when the rendered choice changes: when the user picks an
// entry and the state then settles back on the choice it had (the address
// it opens says so, or Back lands in the same frame), nothing changed in
// the render, and the select would keep showing the user's pick. The
// monkey found this (TestE2EMonkeyFound).
func syncMenus() {
	list := app.Window().Get("document").Call("querySelectorAll", "select[data-selected]")
	for i, n := 0, list.Get("length").Int(); i < n; i++ {
		sel := list.Index(i)
		want := sel.Get("dataset").Get("selected").String()
		if sel.Get("value").String() == want {
			continue
		}
		opts := sel.Get("options")
		for j, m := 0, opts.Get("length").Int(); j < m; j++ {
			if opts.Index(j).Get("value").String() == want {
				sel.Set("value", want)
				break
			}
		}
	}
}

// flushUpdates runs go-app's pending component updates now. go-app writes
// the DOM on its own frame ticker (120 Hz, slowing down when idle), which
// would add up to a tick of latency after the animation frame; the
// render's DOM writes belong in this frame, before the browser paints.
// Consume is the ClientDispatcher method that does exactly this; it runs
// here on the UI goroutine, inside a dispatch of mode Next, which marks
// nothing for a second update. Should the dispatcher not offer it, the
// ticker writes the DOM as usual.
func flushUpdates(ctx app.Context) {
	if d, ok := ctx.Dispatcher().(interface{ Consume() }); ok {
		d.Consume()
	}
}

func (c *explorer) releaseFrames() {
	for _, f := range []*app.Func{&c.frame, &c.tick, &c.urlTimer} {
		if *f != nil {
			(*f).Release()
			*f = nil
		}
	}
}

// uiFunc makes a JavaScript callback that runs fn on go-app's UI
// goroutine (in the callback's own task), a panic in it caught and shown
// as a failure while doing what where says. The browser's timers,
// animation frames and observers call the explorer through it.
func (c *explorer) uiFunc(where string, fn func()) app.Func {
	return app.FuncOf(func(app.Value, []app.Value) any {
		c.ctx.Dispatcher().Dispatch(app.Dispatch{Mode: app.Next, Source: c, Function: func(app.Context) {
			defer c.catch(where)
			fn()
		}})
		return nil
	})
}

// scheduleURL writes the address bar after ms milliseconds, on the UI
// goroutine (a JavaScript timer rather than ctx.After, whose goroutine
// flushUpdates would wait for).
func (c *explorer) scheduleURL(ms float64) {
	if c.urlArmed {
		return
	}
	if c.urlTimer == nil {
		c.urlTimer = c.uiFunc("updating the address bar", func() {
			c.urlArmed = false
			c.writeURL()
			c.flushAddress() // a timer's task of its own: no frame to wait for
			c.markBusy()
		})
	}
	c.urlArmed = true
	app.Window().Call("setTimeout", c.urlTimer, ms)
}

// firstFrame asks the next animation frame to lay out the overlay of the
// first drawing. Should #chart's width differ from the one OnInit drew at,
// the chart's ResizeObserver (pointer_wasm.go) redraws it.
func (c *explorer) firstFrame() {
	c.frameUsed = true
	app.Window().Call("requestAnimationFrame", c.tick)
}

// requestRender asks for a render. When the current animation frame has
// had none, it runs in this task, right after the edit's own handler
// (an input is on screen in the frame it arrived in, with no wait for the
// next one); when one has, the render waits for the next frame, once
// however many edits came before it: renders never outpace frames. A
// hidden tab gets no animation frames, so there a timeout stands in.
func (c *explorer) requestRender() {
	if c.frame == nil {
		c.renderWanted = true // OnMount asks again
		return
	}
	if c.framePending {
		return
	}
	if app.Window().Get("document").Get("visibilityState").String() == "hidden" {
		c.framePending = true
		c.markBusy()
		app.Window().Call("setTimeout", c.frame, 0)
		return
	}
	if c.frameUsed {
		// tick is requested: it renders at the next frame's start.
		c.framePending = true
		c.markBusy()
		return
	}
	c.frameUsed = true
	app.Window().Call("requestAnimationFrame", c.tick)
	c.ctx.Dispatcher().Dispatch(app.Dispatch{Mode: app.Next, Source: c, Function: c.renderFrame})
}

// markBusy sets #explorer's data-busy to "1" while the page owes work
// for an edit it has taken: a render waiting for the next frame, or
// writes of the address bar waiting for the paint (page.History.Due), and
// removes it once there is none. A test that reads the address after an
// edit waits for it to go (the browser tests' settledExpr): until then
// data-query and the address bar may both still be the edit before.
// It is written directly, not by go-app: it changes between renders.
func (c *explorer) markBusy() {
	busy := c.framePending || c.hist.armed || c.hist.Due()
	if busy == c.busyShown {
		return
	}
	el := app.Window().GetElementByID("explorer")
	if !el.Truthy() {
		return
	}
	c.busyShown = busy
	if busy {
		el.Call("setAttribute", "data-busy", "1")
	} else {
		el.Call("removeAttribute", "data-busy")
	}
}

// measureChart is the chart container's width in CSS pixels (the map's,
// #map, in the "Two inputs" view: the same column of the page).
func measureChart() int {
	el := app.Window().GetElementByID("chart")
	if !el.Truthy() {
		el = app.Window().GetElementByID("map")
	}
	if !el.Truthy() {
		return 0
	}
	return el.Get("clientWidth").Int()
}

// copyText puts text on the clipboard. Where the Clipboard API is missing
// or refuses (no permission, no focus), it selects the details for the
// user to copy instead; the refusal is handled, so it is no uncaught
// rejection in the console.
func copyText(text string) {
	cb := app.Window().Get("navigator").Get("clipboard")
	if !cb.Truthy() {
		selectDetails()
		return
	}
	if selectOnFailure == nil {
		selectOnFailure = app.FuncOf(func(app.Value, []app.Value) any {
			selectDetails()
			return nil
		})
	}
	cb.Call("writeText", text).Call("catch", selectOnFailure)
}

// selectOnFailure is the rejection handler of writeText; made once and
// kept, as a pending promise may call it at any time.
var selectOnFailure app.Func

// selectDetails selects the banner's details text.
func selectDetails() {
	el := app.Window().GetElementByID("error-details")
	if !el.Truthy() {
		return
	}
	details := el.Get("parentElement")
	if details.Truthy() {
		details.Set("open", true)
	}
	sel := app.Window().Call("getSelection")
	rng := app.Window().Get("document").Call("createRange")
	rng.Call("selectNodeContents", el)
	sel.Call("removeAllRanges")
	sel.Call("addRange", rng)
}
