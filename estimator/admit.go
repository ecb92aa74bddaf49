package estimator

import (
	"fmt"
	"math/bits"
)

// Decision is what the trainer does with a request.
type Decision int

// The decisions. Invalid is not a decision the trainer makes: a sweep marks
// with it the points where the config is invalid.
const (
	Admit Decision = iota
	Split
	Refuse
	Invalid
)

var decisionNames = [...]string{"admit", "split", "refuse", "invalid"}

func (d Decision) String() string {
	if d < 0 || int(d) >= len(decisionNames) {
		return "unknown"
	}
	return decisionNames[d]
}

// MarshalText writes the decision's name, as the JSON of docs/model.md §6 does.
func (d Decision) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a decision's name.
func (d *Decision) UnmarshalText(b []byte) error {
	for i, n := range decisionNames {
		if string(b) == n {
			*d = Decision(i)
			return nil
		}
	}
	return fmt.Errorf("unknown decision %q", b)
}

// plan is a way to run the request: k children over the m sequences.
type plan struct {
	k        int64 // children; 1 = the whole request
	required int64
	largest  int64 // rows of the largest child
	retained int64 // sum over children
	maxEphem int64
	decision Decision
	// Under the art profile (art_admit.go): the largest child and why a
	// refusal refused.
	artLargest artPiece
	artWhy     artRefusal
	// gpuPlace is the GPU placement path's chosen placement (art_gpu_admit.go).
	gpuPlace Placement
}

// outcome is the part of an Outcome that p alone sets, for both profiles'
// Outcome: a refusal runs no children. avail is the available bytes;
// childRetained is the largest child's retained bytes, which each profile
// prices its own way (seeds from the child's piece, art as the plan's).
func (p *plan) outcome(avail, childRetained int64) Outcome {
	o := Outcome{
		Decision:           p.decision,
		Children:           p.k,
		ChildRows:          p.largest,
		RequiredBytes:      Bytes(p.required),
		MarginBytes:        Bytes(avail - p.required),
		RetainedBytes:      Bytes(p.retained),
		EphemeralBytes:     Bytes(p.maxEphem),
		ChildRetainedBytes: Bytes(childRetained),
	}
	if p.decision == Refuse {
		o.Children = 0
	}
	return o
}

// available is capacity - in_use - floor(capacity x reserve / 1000), >= 0.
func (r *Resolved) available() int64 {
	a := r.Capacity - r.InUse - r.Capacity*r.ReservePermille/1000
	return max(a, 0)
}

// sequences is m = ceil(N / s), the number of sequences in the request.
func (r *Resolved) sequences() int64 { return ceilDiv(r.N, r.S) }

// childShapes lists the distinct children of the rung with k children:
// rows and how many children have them. Child i takes sequences
// floor(i x m / k) up to floor((i+1) x m / k); only the last child holds
// the last (possibly shorter) sequence, so there are at most three shapes.
func (r *Resolved) childShapes(k int64) (rows, count [3]int64, n int) {
	if k <= 1 {
		rows[0], count[0] = r.N, 1
		return rows, count, 1
	}
	m := r.sequences()
	last := r.N - (m-1)*r.S // rows of the last sequence
	q, rem := m/k, m%k
	lastSeqs := q // sequences of the last child: ceil(m / k)
	if rem > 0 {
		lastSeqs++
	}
	big := int64(0) // children other than the last with q+1 sequences
	if rem > 0 {
		big = rem - 1
	}
	small := k - 1 - big
	if big > 0 {
		rows[n], count[n] = (q+1)*r.S, big
		n++
	}
	if small > 0 {
		rows[n], count[n] = q*r.S, small
		n++
	}
	rows[n], count[n] = (lastSeqs-1)*r.S+last, 1
	n++
	return rows, count, n
}

// evaluator prices the plans of one resolved config. It remembers the
// last few pieces it sized, by rows: the baseline, the candidate and the
// lower bound price the same pieces (the whole request, one sequence, the
// last sequence), and sizing a piece costs far more than pricing a variant
// of it.
type evaluator struct {
	r    *Resolved
	k    perRow
	c    calc
	pc   piece
	memo [8]sizes // n = 0: empty
	next int
	key  Resolved // the fields that size a piece, of the config memo holds

	stack [maxTermStack]int64 // scratch for the terms' programs
	art   artEval             // the art profile's state (art_admit.go)

	// availLo..availHi are the available bytes for which every comparison
	// with the budget since they were last reset came out as it did (see
	// fits).
	availLo, availHi int64
}

func newEvaluator(r *Resolved) *evaluator {
	e := &evaluator{}
	e.reset(r)
	return e
}

// reset points e at r. It keeps the pieces it sized when r sizes pieces
// as the previous config did: along a sweep of rows, capacity or in-use
// bytes, the one-sequence piece is the same at every point.
func (e *evaluator) reset(r *Resolved) {
	e.r, e.k, e.c = r, r.perRow(), calc{}
	e.k.stack = &e.stack
	e.art.reset()
	if key := sizingKey(r); key != e.key {
		e.key = key
		for i := range e.memo {
			e.memo[i].n = 0
		}
	}
}

// sizingKey is r less the fields that do not change the size of a piece
// of n rows: the budget, the sequence length, the changes (sizes hold every
// variant's tensors), and rows themselves when every row is projected and
// targeted (p = t = n whatever N is). The terms are compared by their
// compiled program; a term that uses s, N, P or T keeps those fields.
func sizingKey(r *Resolved) Resolved {
	k := *r
	k.Capacity, k.InUse, k.ReservePermille, k.SafetyPercent = 0, 0, 0, 0
	if !r.terms.usesAny(varS) {
		k.S = 0
	}
	k.Changes = Changes{}
	if r.EveryRowTargeted() && !r.terms.usesAny(varReqN, varReqP, varReqT) {
		k.N, k.P, k.T = 0, 0, 0
	}
	return k
}

// price fills e.pc with a piece of n rows priced as v. The memo is
// searched from the piece sized last, which a plan asks for most.
func (e *evaluator) price(n int64, v variant) *piece {
	var sz *sizes
	for i, j := 0, e.next; i < len(e.memo); i++ {
		if j--; j < 0 {
			j = len(e.memo) - 1
		}
		if e.memo[j].n == n {
			sz = &e.memo[j]
			break
		}
	}
	if sz == nil {
		sz = &e.memo[e.next]
		e.next = (e.next + 1) % len(e.memo)
		e.r.size(&e.c, &e.k, n, sz)
	}
	e.r.assemble(&e.c, &e.k, sz, v, &e.pc)
	if e.c.err != nil {
		// Sizes met with an overflow are not kept: the next point (a
		// sweep of the budget keeps the memo) must meet the overflow too.
		sz.n = 0
	}
	return &e.pc
}

// rungPlan prices the rung with k children as v:
// floor((sum of retained + max of ephemeral) x safety_percent / 100).
func (e *evaluator) rungPlan(k int64, v variant) plan {
	r, c := e.r, &e.c
	if r.Art {
		return e.artRung(k, v, false)
	}
	rows, count, n := r.childShapes(k)
	pl := plan{k: k}
	for i := 0; i < n; i++ {
		pc := e.price(rows[i], v)
		retained := pc.retained
		if count[i] > 1 {
			retained = c.mul(retained, count[i], whatRetained)
		}
		pl.retained = c.add(pl.retained, retained, whatRetained)
		pl.maxEphem = max(pl.maxEphem, pc.ephemeral)
		pl.largest = max(pl.largest, rows[i])
	}
	total := c.add(pl.retained, pl.maxEphem, whatTotal)
	pl.required = r.withSafety(c, total)
	return pl
}

// withSafety is floor(x x safety_percent / 100), computed in 128 bits so
// that only a result beyond int64 is an overflow.
func (r *Resolved) withSafety(c *calc, x int64) int64 {
	if c.err != nil {
		return 0
	}
	if x < 1<<53 { // x x 1000 < 2^63: no 128-bit arithmetic needed
		return x * r.SafetyPercent / 100
	}
	hi, lo := bits.Mul64(uint64(x), uint64(r.SafetyPercent))
	if hi >= 100 {
		return c.overflow("required bytes x budget.safety_percent")
	}
	q, _ := bits.Div64(hi, lo, 100)
	if q > 1<<63-1 {
		return c.overflow("required bytes x budget.safety_percent")
	}
	return int64(q)
}

// finestRung is the last rung of the ladder: one sequence per child, or the
// whole request when it is a single sequence.
func (r *Resolved) finestRung() int64 { return r.sequences() }

// decide runs the admission ladder of docs/model.md §4 for v: admit the whole
// request if it fits, else split on the first rung of k = 2, 4, 8, ...
// (while k < m), then k = m, that fits, else refuse with the last rung
// tried (one sequence per child, or the whole request when m = 1).
func (e *evaluator) decide(v variant) plan {
	return e.decideFrom(v, e.rungPlan(1, v))
}

// decideFrom is decide given the whole request's plan, already priced.
//
// It returns what the ladder in its order returns, but prices the finest
// rung (k = m) first, because that rung also proves most refusals at once:
// every rung k < m has a child of at least s rows (child 0 holds only full
// sequences), so its peak is at least the finest rung's (ephemeral bytes
// grow with rows), and its children's retained bytes add up to at least
// the whole request's (each child rounds its own tensors up, and its
// projected rows ceil(n P / N) add up to at least P). So when
// floor((whole retained + finest peak) x safety / 100) exceeds the budget,
// no rung k < m fits either, and a sweep need not price them.
//
// A term can break both facts (max(0, 10_000_000 - n x 100) shrinks as
// rows grow; n / 2 rounds the children's shares down), so when v holds a
// term that the compiler could not prove safe (termSet.unsafe) every rung
// is priced, in the ladder's order: the decision, and any failure of a
// term, are then exactly the ladder's.
func (e *evaluator) decideFrom(v variant, whole plan) plan {
	r, c := e.r, &e.c
	if r.Art {
		return e.artDecide(v, whole)
	}
	avail := r.available()
	if c.err != nil || e.fits(whole.required, avail) {
		whole.decision = Admit
		return whole
	}
	m := r.sequences()
	if m == 1 {
		whole.decision = Refuse
		return whole
	}
	if r.terms != nil && r.terms.unsafe&v.rev != 0 {
		return e.ladder(v, m, avail)
	}
	finest := e.rungPlan(m, v)
	if c.err != nil {
		return finest
	}
	finestFits := e.fits(finest.required, avail)
	if !finestFits && !e.fits(r.withSafety(c, c.add(whole.retained, finest.maxEphem, whatTotal)), avail) {
		finest.decision = Refuse
		return finest
	}
	for k := int64(2); k < m; k *= 2 {
		// The same bound, rung by rung: child 0 holds m/k full sequences,
		// so the rung's peak is at least that piece's. Pricing the one
		// piece often shows the rung cannot fit.
		first := e.price((m/k)*r.S, v).ephemeral
		if !e.fits(r.withSafety(c, c.add(whole.retained, first, whatTotal)), avail) && c.err == nil {
			continue
		}
		pl := e.rungPlan(k, v)
		if c.err != nil || e.fits(pl.required, avail) {
			pl.decision = Split
			return pl
		}
	}
	finest.decision = Refuse
	if finestFits {
		finest.decision = Split
	}
	return finest
}

// ladder prices the rungs k = 2, 4, ... (k < m), then m, in order, and
// returns the first that fits (split), else the last (refuse). Its
// comparisons with the budget go through fits, as decideFrom's do, so a
// sweep of the budget reuses its results by path (sweeppath.go).
func (e *evaluator) ladder(v variant, m, avail int64) plan {
	c := &e.c
	for k := int64(2); k < m; k *= 2 {
		pl := e.rungPlan(k, v)
		if c.err != nil || e.fits(pl.required, avail) {
			pl.decision = Split
			return pl
		}
	}
	pl := e.rungPlan(m, v)
	pl.decision = Refuse
	if e.fits(pl.required, avail) {
		pl.decision = Split
	}
	return pl
}

// fits reports need <= avail, the one comparison the ladder makes with the
// budget, and narrows availLo..availHi to the available bytes for which
// it comes out the same. Every other number the ladder computes is
// independent of the budget, so at any available bytes in that range the
// ladder takes the same path to the same plan: a sweep of capacity_bytes
// or in_use_bytes reuses a point's result across the range (sweeppath.go).
func (e *evaluator) fits(need, avail int64) bool {
	if need <= avail {
		e.availLo = max(e.availLo, need)
		return true
	}
	e.availHi = min(e.availHi, need-1)
	return false
}

// lowerBound is the required bytes of the finest rung with the lower-bound
// variants: nothing the trainer could do would need less. Under the seeds
// profile it is the same for every revision of a config; under art it is
// revision v's rejection bound (artLowerBound).
func (e *evaluator) lowerBound(v variant) int64 {
	if e.r.Art {
		return e.artLowerBound(v)
	}
	return e.rungPlan(e.r.finestRung(), lowerBoundVariant()).required
}
