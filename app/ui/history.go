package ui

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/browser"
	"headroom/app/ui/page"
)

// history is the page model's History (page/history.go: when a gesture
// pushes an entry, the address bar's writes due) with the browser's
// callbacks that listen to popstate and write after the paint
// (history_wasm.go).
type history struct {
	page.History
	popFn   app.Func // the popstate listener (browser builds)
	armed   bool     // a write after the paint is asked for
	frameFn app.Func // the animation-frame callback that arms flushFn
	flushFn app.Func // writes the due writes (browser builds)
}

// writeHistory puts the state's query into the address bar: a new entry
// when a gesture starts, else a throttled replace (see replaceURL).
func (c *explorer) writeHistory(query string) {
	if !c.hist.TakePush() {
		c.replaceURL(query)
		return
	}
	now := browser.NowMs()
	// The current entry first gets the last state written to it, held
	// back by the throttle, so Back returns to the end of the gesture
	// before.
	if q, ok := c.url.Take(now); ok {
		c.queueAddress(false, q)
	}
	if query == c.url.Last {
		return
	}
	c.url.Set(query, now)
	if q, ok := c.url.Take(now); ok {
		c.queueAddress(true, q)
	}
}

// queueAddress asks for a write of the address bar once the frame is
// painted (page.History.Queue).
func (c *explorer) queueAddress(push bool, query string) {
	c.hist.Queue(push, query)
	c.scheduleAddress()
}

// flushAddress writes the address bar's due writes, in order.
func (c *explorer) flushAddress() {
	for _, op := range c.hist.TakeOps() {
		if op.Push {
			browser.PushQuery(op.Query)
		} else {
			browser.ReplaceQuery(op.Query)
		}
	}
}

// restoreFrom opens the state of an address query (Back, Forward): the
// fields, the decisions and the chart follow it, and the address bar
// already shows it.
func (c *explorer) restoreFrom(query string) {
	defer c.catch("going back or forward")
	if !c.state.Restore(query, c.list) {
		return
	}
	c.hist.Restored() // and the writes still due, which are for the page left
	c.menusDirty = true
	c.markBusy()
	c.url.Pending, c.url.Last = query, query
	c.requestRender()
	c.Update()
}

// replaceURL puts the state into the address bar (replace, not push: every
// slider step is not a page to go back to): at once when the last write is
// old enough, otherwise when it is, with the latest state.
func (c *explorer) replaceURL(query string) {
	if now, wait := c.url.Set(query, browser.NowMs()); now {
		c.writeURL()
	} else if wait > 0 {
		c.scheduleURL(wait)
	}
}

// writeURL writes the pending query, if it is not written yet.
func (c *explorer) writeURL() {
	if query, ok := c.url.Take(browser.NowMs()); ok {
		c.queueAddress(false, query)
	}
}
