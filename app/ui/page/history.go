package page

// History decides when the address bar gets a new history entry, so Back
// undoes one gesture and Forward redoes it: the first edit of a gesture
// pushes an entry (history.pushState) and the gesture's further edits
// replace it (a drag or typing does not fill the history with every
// step). A gesture on a control ends when it settles (the range input's
// or field's change event) or when another control is edited; a menu
// pick, a switch or an import is a gesture of one edit. Going Back or
// Forward (popstate) restores the state from the address (Restored).
//
// The address bar is written after the frame that shows an edit is
// painted, not in the edit's task (history.pushState costs a few ms in
// Chromium): History queues the writes due, in order (Queue), and the
// explorer takes them when the frame is painted (TakeOps). It knows no
// browser.
type History struct {
	openKey string // the control whose gesture is under way; "" when none
	push    bool   // the next write of the address bar pushes an entry
	pushes  int    // entries pushed, for tests
	ops     []AddrOp
}

// AddrOp is one write of the address bar: a new entry or a replacement.
type AddrOp struct {
	Push  bool
	Query string
}

// Note records an edit of key: settle says the gesture ends with it.
func (h *History) Note(key string, settle bool) {
	if key == "" || h.openKey != key {
		h.push = true
	}
	h.openKey = key
	if settle {
		h.openKey = ""
	}
}

// Settle ends the gesture on key, if it is the one under way.
func (h *History) Settle(key string) {
	if h.openKey == key {
		h.openKey = ""
	}
}

// Restored forgets the gesture, and the writes still due: the state came
// from the address, and the browser went elsewhere, so those writes are
// for the page it left.
func (h *History) Restored() {
	h.openKey, h.push = "", false
	h.ops = nil
}

// TakePush reports whether the next write of the address bar pushes an
// entry (a gesture started since the last one), and counts it as taken.
func (h *History) TakePush() bool {
	p := h.push
	h.push = false
	return p
}

// Queue adds a write of the address bar. A replacement after a
// replacement takes its place: only the last one would show.
func (h *History) Queue(push bool, query string) {
	if push {
		h.pushes++
	}
	if n := len(h.ops); !push && n > 0 && !h.ops[n-1].Push {
		h.ops[n-1].Query = query
		return
	}
	h.ops = append(h.ops, AddrOp{push, query})
}

// TakeOps returns the writes due, in order, and forgets them.
func (h *History) TakeOps() []AddrOp {
	ops := h.ops
	h.ops = nil
	return ops
}

// Due reports whether a write of the address bar waits.
func (h *History) Due() bool { return len(h.ops) > 0 }

// Pushes is the number of entries pushed (Queue with push), for tests.
func (h *History) Pushes() int { return h.pushes }
