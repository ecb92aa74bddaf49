package estimator

// sweepPaths remembers the last few points a sweep of capacity_bytes or
// in_use_bytes priced, each with the range of available bytes over which
// the ladder would take the same path (evaluator.fits). Along the budget
// nothing else changes: every piece, rung and bound costs the same at
// every point, and only the available bytes they are compared with move.
// So a point whose available bytes fall in a remembered range has that
// point's result, overflow included, without pricing anything: a sweep
// prices once per path through the ladder, not once per point, and a map
// along the budget costs little more than its grid.
type sweepPaths struct {
	on   bool
	n    int // entries used
	next int // the entry to replace
	seen [4]pathPoint
}

// pathPoint is a priced point and the available bytes lo..hi at which
// every comparison of its ladder comes out the same.
type pathPoint struct {
	lo, hi int64
	pt     Point
}

// point is Point at x once s.cur is the config there: a remembered
// point's result when the available bytes fall in its range, else a
// point priced and remembered. Four entries: a grid meets the ranges in
// order, and a bisection goes back and forth between two or three.
func (p *sweepPaths) point(s *Sweeper, x int64) Point {
	avail := s.cur.available()
	for i := 0; i < p.n; i++ {
		if e := &p.seen[i]; avail >= e.lo && avail <= e.hi {
			pt := e.pt
			pt.X = x
			if pt.Error == "" {
				pt.AvailableBytes = avail
			}
			return pt
		}
	}
	pt := s.price(x)
	p.seen[p.next] = pathPoint{lo: s.eval.availLo, hi: s.eval.availHi, pt: pt}
	p.next = (p.next + 1) % len(p.seen)
	p.n = min(p.n+1, len(p.seen))
	return pt
}
