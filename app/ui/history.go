package ui

import (
	"net/url"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
)

// history decides when the address bar gets a new history entry, so Back
// undoes one gesture and Forward redoes it: the first edit of a gesture
// pushes an entry (history.pushState) and the gesture's further edits
// replace it (a drag or typing does not fill the history with every
// step). A gesture on a control ends when it settles (the range input's
// or field's change event) or when another control is edited; a menu pick,
// a switch or an import is a gesture of one edit. Going Back or Forward
// (popstate) restores the state from the address.
type history struct {
	openKey string   // the control whose gesture is under way; "" when none
	push    bool     // the next write of the address bar pushes an entry
	pushes  int      // entries pushed, for tests
	popFn   app.Func // the popstate listener (browser builds)

	// The address bar is written after the frame that shows an edit is
	// painted, not in the edit's task: history.pushState costs a few ms
	// in Chromium. ops are the writes due, in order.
	ops     []addrOp
	armed   bool     // a write after the paint is asked for
	frameFn app.Func // the animation-frame callback that arms flushFn
	flushFn app.Func // writes ops (browser builds)
}

// addrOp is one write of the address bar: a new entry or a replacement.
type addrOp struct {
	push  bool
	query string
}

// note records an edit of key: settle says the gesture ends with it.
func (h *history) note(key string, settle bool) {
	if key == "" || h.openKey != key {
		h.push = true
	}
	h.openKey = key
	if settle {
		h.openKey = ""
	}
}

// settle ends the gesture on key, if it is the one under way.
func (h *history) settle(key string) {
	if h.openKey == key {
		h.openKey = ""
	}
}

// restored forgets the gesture: the state came from the address.
func (h *history) restored() {
	h.openKey, h.push = "", false
}

// writeHistory puts the state's query into the address bar: a new entry
// when a gesture starts, else a throttled replace (see replaceURL).
func (c *explorer) writeHistory(query string) {
	if !c.hist.push {
		c.replaceURL(query)
		return
	}
	c.hist.push = false
	now := nowMs()
	// The current entry first gets the last state written to it, held
	// back by the throttle, so Back returns to the end of the gesture
	// before.
	if q, ok := c.url.take(now); ok {
		c.queueAddress(false, q)
	}
	if query == c.url.last {
		return
	}
	c.url.set(query, now)
	if q, ok := c.url.take(now); ok {
		c.hist.pushes++
		c.queueAddress(true, q)
	}
}

// queueAddress asks for a write of the address bar once the frame is
// painted (see history.ops). A replacement after a replacement takes its
// place: only the last one would show.
func (c *explorer) queueAddress(push bool, query string) {
	h := &c.hist
	if n := len(h.ops); !push && n > 0 && !h.ops[n-1].push {
		h.ops[n-1].query = query
	} else {
		h.ops = append(h.ops, addrOp{push, query})
	}
	c.scheduleAddress()
}

// flushAddress writes the address bar's due writes, in order.
func (c *explorer) flushAddress() {
	ops := c.hist.ops
	c.hist.ops = nil
	for _, op := range ops {
		if op.push {
			pushQuery(op.query)
		} else {
			replaceQuery(op.query)
		}
	}
}

// restoreFrom opens the state of an address query (Back, Forward): the
// fields, the decisions and the chart follow it, and the address bar
// already shows it.
func (c *explorer) restoreFrom(query string) {
	defer c.catch("going back or forward")
	q, err := url.ParseQuery(query)
	if err != nil {
		return
	}
	c.hist.restored()
	c.hist.ops = nil // the browser went elsewhere: writes still due are for the page left
	c.menusDirty = true
	c.markBusy()
	c.state = page.Decode(q, c.list)
	c.url.pending, c.url.last = query, query
	c.requestRender()
	c.Update()
}
