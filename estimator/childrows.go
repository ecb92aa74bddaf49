package estimator

// ChildRowsAt is the rows of child i (0-based) of a plan of k children
// of c's request: child i takes sequences floor(i x m / k) up to
// floor((i+1) x m / k) of the request's m, and only the last child holds
// the last, possibly shorter, sequence (the plan's shapes, §4). With
// k <= 1 it is the whole request. false when c does not resolve or i is
// not a child of the plan. Constant work, whatever k.
func (c Config) ChildRowsAt(k, i int64) (int64, bool) {
	r, err := c.Resolve()
	if err != nil || i < 0 || (k > 1 && i >= k) || (k <= 1 && i > 0) {
		return 0, false
	}
	if k <= 1 {
		return r.N, true
	}
	m := r.sequences()
	if k > m {
		return 0, false
	}
	// i x m and (i+1) x m stay below 2^62: both are at most the rows, 2^31.
	a, b := i*m/k, (i+1)*m/k
	rows := (b - a) * r.S
	if i == k-1 {
		rows -= m*r.S - r.N // the last sequence's missing rows
	}
	return rows, true
}
