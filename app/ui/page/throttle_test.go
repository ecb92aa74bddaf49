package page

import "testing"

// TestThrottle: the first query is written at once, a drag's queries
// within URLInterval wait for it to pass, the latest one wins, and a
// query already shown is not written again.
func TestThrottle(t *testing.T) {
	t.Parallel()
	type step struct {
		at    float64 // ms
		set   string  // set this query, and take it if set says now ("" = the timer fires: take)
		now   bool    // set says: write now
		wait  float64 // set says: wait this long
		wrote string  // take returns this ("" = nothing to write)
	}
	for _, c := range []struct {
		name  string
		steps []step
	}{
		{"first write at once", []step{
			{at: 1000, set: "rows=1", now: true, wrote: "rows=1"},
		}},
		{"a drag waits, the latest wins", []step{
			{at: 1000, set: "rows=1", now: true, wrote: "rows=1"},
			{at: 1016, set: "rows=2", wait: 284},
			{at: 1032, set: "rows=3", wait: 268},
			{at: 1300, wrote: "rows=3"}, // the timer fires
			{at: 1301, wrote: ""},       // nothing left
		}},
		{"the shown query is not written again", []step{
			{at: 1000, set: "rows=1", now: true, wrote: "rows=1"},
			{at: 2000, set: "rows=1"},
			{at: 2001, wrote: ""},
		}},
		{"back to the shown query cancels the held one", []step{
			{at: 1000, set: "rows=1", now: true, wrote: "rows=1"},
			{at: 1100, set: "rows=2", wait: 200},
			{at: 1200, set: "rows=1"},
			{at: 1300, wrote: ""},
		}},
		{"after the interval, at once", []step{
			{at: 1000, set: "rows=1", now: true, wrote: "rows=1"},
			{at: 1300, set: "rows=2", now: true, wrote: "rows=2"},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var u Throttle
			for i, s := range c.steps {
				if s.set != "" {
					now, wait := u.Set(s.set, s.at)
					if now != s.now || wait != s.wait {
						t.Fatalf("step %d: set(%q) at %g = %v, %g; want %v, %g", i, s.set, s.at, now, wait, s.now, s.wait)
					}
					if !now {
						continue // the explorer writes nothing now (a timer may, later)
					}
				}
				got, ok := u.Take(s.at)
				if got != s.wrote || ok != (s.wrote != "") {
					t.Fatalf("step %d: take at %g = %q, %v; want %q", i, s.at, got, ok, s.wrote)
				}
			}
		})
	}
}
