package page

// URLInterval is the least time between two writes of the address bar,
// in ms. Browsers throttle history.replaceState (Chromium ignores calls
// beyond about 200 in 10 s, with a warning) and each call costs a
// millisecond or more; a slider drag renders 60 times a second.
const URLInterval = 300

// Throttle holds the address bar's state: the query it should show
// (Pending), the one it shows (Last) and when that was written, so that a
// slider drag writes it at most every URLInterval, and always ends with
// the latest state. It knows no browser: the explorer writes what Take
// returns, and arms a timer to write a query held back.
type Throttle struct {
	Pending string  // the query the address bar should show
	Last    string  // the query it shows
	lastAt  float64 // when Last was written, in ms
}

// Set makes query the one to show at time now (ms). It reports whether to
// write it now, or else how long to wait before writing (0: it is shown).
func (u *Throttle) Set(query string, now float64) (writeNow bool, wait float64) {
	u.Pending = query
	if query == u.Last {
		return false, 0
	}
	if wait := u.lastAt + URLInterval - now; wait > 0 {
		return false, wait
	}
	return true, 0
}

// Take returns the query to write at time now and counts it as written;
// false when the address bar shows it already.
func (u *Throttle) Take(now float64) (string, bool) {
	if u.Pending == u.Last {
		return "", false
	}
	u.Last, u.lastAt = u.Pending, now
	return u.Last, true
}
