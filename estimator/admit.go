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

// MarshalText writes the decision's name, as the JSON of section 6 does.
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

// requiredOf prices the rung with k children as v:
// floor((sum of retained + max of ephemeral) x safety_percent / 100).
func (r *Resolved) requiredOf(c *calc, k int64, v variant, pc *piece) plan {
	rows, count, n := r.childShapes(k)
	pl := plan{k: k}
	for i := 0; i < n; i++ {
		r.price(c, rows[i], v, pc)
		pl.retained = c.add(pl.retained, c.mul(pc.retained, count[i], whatRetained), whatRetained)
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

// decide runs the admission ladder of section 4 for v: admit the whole
// request if it fits, else the first rung of k = 2, 4, 8, ... (while
// k < m), then k = m that fits, else refuse with the last rung tried.
func (r *Resolved) decide(c *calc, v variant, pc *piece) plan {
	return r.decideFrom(c, v, pc, r.requiredOf(c, 1, v, pc))
}

// decideFrom is decide given the whole request's plan, already priced.
func (r *Resolved) decideFrom(c *calc, v variant, pc *piece, pl plan) plan {
	avail := r.available()
	if c.err != nil || pl.required <= avail {
		pl.decision = Admit
		return pl
	}
	m := r.sequences()
	for k := int64(2); k < m; k *= 2 {
		pl = r.requiredOf(c, k, v, pc)
		if c.err != nil || pl.required <= avail {
			pl.decision = Split
			return pl
		}
	}
	if m > 1 {
		pl = r.requiredOf(c, m, v, pc)
		if c.err != nil || pl.required <= avail {
			pl.decision = Split
			return pl
		}
	}
	pl.decision = Refuse
	return pl
}

// lowerBound is the required bytes of the finest rung with the lower-bound
// variants: nothing the trainer could do would need less.
func (r *Resolved) lowerBound(c *calc, pc *piece) int64 {
	return r.requiredOf(c, r.finestRung(), lowerBoundVariant(), pc).required
}
