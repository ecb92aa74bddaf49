package estimator

// ART's token-balanced cuts (docs/model.md §13.5, quoted, _split_chunks):
// walk the sequences in order with a running sum c of their rows; after
// sequence j, with d chunks closed, close one when d < k' - 1 and either
// c k' >= W (d + 1) or the sequences left are no more than the chunks still
// owed. Modelled as: the sequences in input order (ART orders them by its
// prefix tree's depth-first leaves, which depend on token contents).
//
// Every sequence has s rows but the last, so after j < m sequences c = j s,
// and chunk d closes after sequence
//
//	j_d = max(j_{d-1} + 1, min(ceil(W (d + 1) / (k' s)), m - (k' - 1 - d))).
//
// For 1 < k' < m the slope a = W / (k' s) exceeds 1 (W > (m - 1) s >= k' s),
// so the first term never binds, the chunks before the first forced close
// hold floor(a) or floor(a) + 1 sequences, and after it one each: at most
// five shapes, found without walking m sequences (m may be 2^31).

// artGroup is count children of one shape.
type artGroup struct {
	p     artPiece
	count int64
}

// artCutBound is ceil(W (d + 1) / (k' s)), the natural close of chunk d.
func (r *Resolved) artCutBound(d, kk int64) int64 {
	return ceilDiv(r.N*(d+1), kk*r.S) // N, d + 1 < 2^31; k' s < 2^62
}

// artCuts returns the children of the rung with k children (k' = min(k,
// m) chunks) as groups of one shape, the last group holding the request's
// last sequence, and k'.
func (r *Resolved) artCuts(k int64) (gs [5]artGroup, ng int, kk int64) {
	m := r.sequences()
	last := r.N - (m-1)*r.S
	kk = max(1, min(k, m))
	add := func(q, count int64, withLast bool) {
		if count <= 0 {
			return
		}
		p := artPiece{q: q, s: r.S, last: r.S}
		if withLast {
			p.last = last
		}
		gs[ng] = artGroup{p, count}
		ng++
	}
	switch {
	case kk == 1:
		add(m, 1, true)
	case kk == m:
		add(1, m-1, false)
		add(1, 1, true)
	default:
		forced := func(d int64) int64 { return m - (kk - 1 - d) }
		// The first chunk closed by the count rather than the balance:
		// bound(d) - forced(d) does not decrease in d (a >= 1).
		lo, hi := int64(0), kk-1
		for lo < hi {
			mid := lo + (hi-lo)/2
			if r.artCutBound(mid, kk) > forced(mid) {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		ds := lo
		var closed int64 // sequences in the chunks before ds
		if ds > 0 {
			closed = r.artCutBound(ds-1, kk)
			f := r.N / (kk * r.S)
			wide := closed - ds*f // chunks of f + 1 sequences
			add(f+1, wide, false)
			add(f, ds-wide, false)
		}
		if ds <= kk-2 {
			add(forced(ds)-closed, 1, false)
			add(1, kk-2-ds, false)
			closed = m - 1
		}
		add(m-closed, 1, true)
	}
	return gs, ng, kk
}

// artCutRows lists the rows of the children of the rung with k children in
// cut order, for k' <= len(dst); ok is false when there are more.
func (r *Resolved) artCutRows(k int64, dst []int64) (rows []int64, ok bool) {
	m := r.sequences()
	kk := max(1, min(k, m))
	if kk > int64(len(dst)) {
		return nil, false
	}
	rows = dst[:0]
	prev := int64(0)
	for d := int64(0); d < kk-1; d++ {
		j := max(prev+1, min(r.artCutBound(d, kk), m-(kk-1-d)))
		rows = append(rows, (j-prev)*r.S)
		prev = j
	}
	rows = append(rows, r.N-prev*r.S)
	return rows, true
}
