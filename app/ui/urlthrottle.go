package ui

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// urlInterval is the least time between two writes of the address bar.
// Browsers throttle history.replaceState (Chromium ignores calls beyond
// about 200 in 10 s, with a warning) and each call costs a millisecond or
// more; a slider drag renders 60 times a second.
const urlInterval = 300

// urlThrottle holds the address bar's state: the query it should show,
// the one it shows and when that was written, so that a slider drag
// writes it at most every urlInterval, and always ends with the latest
// state. It knows no browser: the explorer writes what take returns, and
// arms timer (browser builds) to write a query held back.
type urlThrottle struct {
	pending string   // the query the address bar should show
	last    string   // the query it shows
	lastAt  float64  // when last was written, in ms (nowMs)
	timer   app.Func // the browser's timer that writes a held-back query
	armed   bool     // timer is set
}

// set makes query the one to show at time now (ms). It reports whether to
// write it now, or else how long to wait before writing (0: it is shown).
func (u *urlThrottle) set(query string, now float64) (writeNow bool, wait float64) {
	u.pending = query
	if query == u.last {
		return false, 0
	}
	if wait := u.lastAt + urlInterval - now; wait > 0 {
		return false, wait
	}
	return true, 0
}

// take returns the query to write at time now and counts it as written;
// false when the address bar shows it already.
func (u *urlThrottle) take(now float64) (string, bool) {
	if u.pending == u.last {
		return "", false
	}
	u.last, u.lastAt = u.pending, now
	return u.last, true
}
