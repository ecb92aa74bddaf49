//go:build wasm

package ui

import (
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// listenHistory restores the state when Back or Forward changes the
// address (popstate). go-app listens too, but it navigates only when the
// address differs from the last one it routed, which the page's own
// pushState writes never are; so the explorer listens itself, on the UI
// goroutine.
func (c *explorer) listenHistory() {
	if c.hist.popFn != nil {
		return
	}
	c.hist.popFn = app.FuncOf(func(this app.Value, args []app.Value) any {
		query := strings.TrimPrefix(app.Window().Get("location").Get("search").String(), "?")
		c.ctx.Dispatcher().Dispatch(app.Dispatch{Mode: app.Update, Source: c, Function: func(app.Context) {
			c.restoreFrom(query)
		}})
		return nil
	})
	app.Window().Call("addEventListener", "popstate", c.hist.popFn)
}

// release stops listening.
func (h *history) release() {
	if h.popFn != nil {
		app.Window().Call("removeEventListener", "popstate", h.popFn)
		h.popFn.Release()
		h.popFn = nil
	}
	for _, f := range []*app.Func{&h.frameFn, &h.flushFn} {
		if *f != nil {
			(*f).Release()
			*f = nil
		}
	}
	h.armed = false
}

// scheduleAddress writes the address bar once the next frame is painted:
// a timeout set from the frame's animation callback runs after that
// frame's paint. A hidden tab has no frames: there the timeout alone.
func (c *explorer) scheduleAddress() {
	h := &c.hist
	if h.armed || c.ctx == nil {
		if c.ctx == nil { // not mounted: nothing to wait for
			c.flushAddress()
		}
		return
	}
	if h.flushFn == nil {
		h.flushFn = c.uiFunc("updating the address bar", func() {
			c.hist.armed = false
			c.flushAddress()
			c.markBusy()
		})
		h.frameFn = app.FuncOf(func(app.Value, []app.Value) any {
			app.Window().Call("setTimeout", c.hist.flushFn, 0)
			return nil
		})
	}
	h.armed = true
	c.markBusy()
	if app.Window().Get("document").Get("visibilityState").String() == "hidden" {
		app.Window().Call("setTimeout", h.flushFn, 0)
		return
	}
	app.Window().Call("requestAnimationFrame", h.frameFn)
}
