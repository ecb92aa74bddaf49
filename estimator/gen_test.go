package estimator

import (
	"math/rand/v2"
)

// Random valid configs for the property tests. Dimensions stay moderate so
// that required bytes fit far below capacity_bytes' limit of 2^50, and the
// budget is then placed near one of the request's own plans (the whole
// request, a rung of the ladder, the lower bound), a little above or below
// it or exactly on it, so that admit, split and refuse all occur.

const seed1, seed2 = 0x4865616472, 0x6f6f6d // "Headroom"

func newRand() *rand.Rand { return rand.New(rand.NewPCG(seed1, seed2)) }

// between returns an int64 in [lo, hi].
func between(rng *rand.Rand, lo, hi int64) int64 { return lo + rng.Int64N(hi-lo+1) }

func oneOf(rng *rand.Rand, vs ...int64) int64 { return vs[rng.IntN(len(vs))] }

// randomShape returns a valid config with a random model and request and a
// generous budget; randomConfig then places the budget.
func randomShape(rng *rand.Rand) Config {
	c := Default()
	m := &c.Model
	switch rng.IntN(4) {
	case 0:
		m.VocabSize = oneOf(rng, 1, 7, 1000, 32000, 128256, 151936, 201088, 248320)
	default:
		m.VocabSize = between(rng, 1, 300_000)
	}
	m.HiddenSize = oneOf(rng, 1, 3, 64, 512, 2048, 2880, 4096, 7168, between(rng, 1, 8192))
	m.NumHiddenLayers = oneOf(rng, 1, 2, 3, 4, 11, 12, 15, 16, 36, 47, 48, 61, 94, 100, between(rng, 1, 200))
	m.NumExpertsPerTok = oneOf(rng, 0, 0, 1, 2, 3, 4, 8, 10, between(rng, 0, 40))
	m.MoEIntermediateSize = oneOf(rng, 1, 512, 768, 1536, 2048, 2880, 14336, between(rng, 1, 16384))
	m.LinearNumKeyHeads = oneOf(rng, 0, 0, 16, between(rng, 0, 64))
	m.LinearKeyHeadDim = oneOf(rng, 128, between(rng, 1, 512))
	m.LinearNumValueHeads = oneOf(rng, 32, between(rng, 1, 128))
	m.LinearValueHeadDim = oneOf(rng, 128, between(rng, 1, 512))

	q := &c.Request
	q.Rows = oneOf(rng, 1, 2, 100, 4096, 64902, between(rng, 1, 200_000), between(rng, 1, 2_000))
	// Keep m = ceil(N / s) small enough for the reference to list every
	// child, and sometimes 1.
	seqs := oneOf(rng, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, between(rng, 1, 300))
	seqs = min(seqs, q.Rows)
	q.SequenceRows = (q.Rows + seqs - 1) / seqs
	if rng.IntN(4) == 0 {
		q.SequenceRows += between(rng, 0, q.SequenceRows/3)
	}
	if rng.IntN(2) == 0 {
		q.ProjectedRows = Int64(between(rng, 1, q.Rows))
	}
	p := q.Rows
	if q.ProjectedRows != nil {
		p = *q.ProjectedRows
	}
	switch rng.IntN(4) {
	case 0:
		q.TargetRows = Int64(0)
	case 1:
		q.TargetRows = Int64(between(rng, 0, p))
	case 2:
		q.TargetRows = Int64(between(rng, 0, min(p, 600))) // small t: 3 Dt < D
	}
	q.Grad = rng.IntN(3) != 0
	q.Outputs = Outputs{
		Logprobs:     rng.IntN(2) == 0,
		TopK:         oneOf(rng, 0, 0, 0, 1, 5, 20),
		Logits:       rng.IntN(3) == 0,
		HiddenStates: rng.IntN(4) == 0,
	}
	c.Head.ChunkRows = oneOf(rng, 1, 64, 512, 1024, between(rng, 1, 4096))
	if rng.IntN(3) == 0 {
		c.FC2.InputWidth = Int64(between(rng, 1, 20000))
	}
	if rng.IntN(3) == 0 {
		c.FC2.OutputWidth = Int64(between(rng, 1, 8192))
	}
	c.FC2.DtypeBytes = oneOf(rng, 1, 2, 2, 4, 8)
	c.FC2.LoRAMetadataKnown = rng.IntN(4) != 0
	c.FC2.ExpertParallel = oneOf(rng, 1, 1, 2, 8, between(rng, 1, 1024))
	c.Budget = BudgetConfig{
		CapacityBytes:   1 << 50,
		ReservePermille: oneOf(rng, 0, 30, between(rng, 0, 999)),
		SafetyPercent:   oneOf(rng, 100, 110, between(rng, 100, 1000)),
	}
	switch rng.IntN(3) {
	case 0:
		c.Budget.RetainedPerRowBytes = Int64(0)
	case 1:
		c.Budget.RetainedPerRowBytes = Int64(between(rng, 0, 400_000))
	}
	c.AllocatorRoundBytes = oneOf(rng, 1, 512, 512, 4096, 1<<21, between(rng, 1, 5000))
	c.Changes = Changes{rng.IntN(3) != 0, rng.IntN(3) != 0, rng.IntN(3) != 0}
	return c
}

// randomConfig is randomShape with the budget placed near one of the
// request's plans.
func randomConfig(rng *rand.Rand) Config {
	c := randomShape(rng)
	placeBudget(rng, &c)
	return c
}

// placeBudget sets capacity, in-use and reserve so that the available
// bytes land near (or exactly on) a plan's required bytes.
func placeBudget(rng *rand.Rand, c *Config) {
	m := refFrom(*c)
	rp := newRefPricer(&m)
	targets := []int64{rp.rung(m.sequences(), refLowerBound).required}
	for _, v := range []refVariant{refBaseline, m.candidate()} {
		targets = append(targets, rp.rung(1, v).required)
		if ks := m.ladder(); len(ks) > 0 {
			targets = append(targets, rp.rung(ks[rng.IntN(len(ks))], v).required)
			targets = append(targets, rp.rung(ks[len(ks)-1], v).required)
		}
	}
	if rp.a.overflow {
		return
	}
	target := targets[rng.IntN(len(targets))]
	switch rng.IntN(4) {
	case 0: // exactly on the plan, or one byte either side
		target += between(rng, -1, 1)
	case 1:
		target = target / 1000 * between(rng, 900, 1100)
	case 2:
		target = target / 100 * between(rng, 50, 150)
	}
	target = max(target, 0)
	const limit = 1 << 50
	b := &c.Budget
	if target >= limit {
		b.CapacityBytes, b.InUseBytes = limit, 0
		return
	}
	if rng.IntN(2) == 0 {
		// No reserve: available = capacity - in_use exactly.
		b.ReservePermille = 0
		b.InUseBytes = between(rng, 0, limit/4)
		b.CapacityBytes = min(max(target+b.InUseBytes, 1), limit)
		b.InUseBytes = min(b.InUseBytes, b.CapacityBytes)
		return
	}
	b.InUseBytes = oneOf(rng, 0, between(rng, 0, limit/8))
	capacity := (target + b.InUseBytes) / (1000 - b.ReservePermille) * 1000
	b.CapacityBytes = min(max(capacity+between(rng, -2000, 2000), 1), limit)
	b.InUseBytes = min(b.InUseBytes, b.CapacityBytes)
}
