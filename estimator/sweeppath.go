package estimator

// Along capacity_bytes or in_use_bytes nothing but the available bytes
// changes: every piece, rung and bound costs the same at every point, and
// only the available bytes they are compared with move. So a sweep
// remembers the last few points it priced, each with the range of
// available bytes over which the ladder would take the same path
// (evaluator.fits), and a point whose available bytes fall in a remembered
// range has that point's result, overflow included, without pricing
// anything: a sweep prices once per path through the ladder, not once per
// point, and a map along the budget costs little more than its grid.
//
// Without a baseline of its own both revisions share one config, one
// available bytes and one evaluator: a remembered Point holds both, over
// the range where neither revision's ladder changes path. With a baseline
// of its own each revision has its own capacity, in-use and reserve, so
// its own available bytes: each remembers its own PointRevisions, by its
// own available bytes (Sweeper.pointRev, Mapper.acrossColumns).

// pathEntry is a priced result v and the available bytes lo..hi at which
// every comparison of its ladder comes out the same (lo > hi: empty).
type pathEntry[T any] struct {
	lo, hi int64
	v      T
}

// emptyPath is an entry that holds no available bytes.
func emptyPath[T any]() pathEntry[T] { return pathEntry[T]{lo: 1, hi: 0} }

// pathCache holds four entries: a grid meets the ranges in order, and a
// bisection goes back and forth between two or three.
type pathCache[T any] struct {
	n    int // entries used
	next int // the entry to replace
	seen [4]pathEntry[T]
}

// reset forgets every entry.
func (p *pathCache[T]) reset() { p.n, p.next = 0, 0 }

// find is the remembered result whose range holds avail, or nil.
func (p *pathCache[T]) find(avail int64) *T {
	for i := 0; i < p.n; i++ {
		if e := &p.seen[i]; avail >= e.lo && avail <= e.hi {
			return &e.v
		}
	}
	return nil
}

// keep remembers *v over the available bytes lo..hi, in place of the
// oldest entry when all four are used.
func (p *pathCache[T]) keep(lo, hi int64, v *T) {
	e := &p.seen[p.next]
	e.lo, e.hi, e.v = lo, hi, *v
	p.next = (p.next + 1) % len(p.seen)
	p.n = min(p.n+1, len(p.seen))
}
