package estimator

// The forms in this file price one piece or plan with a calc of the
// caller's. Only the tests use them, so they live in a test file and do
// not ship in the package.

// price fills pc with the memory of a piece of n rows priced as v, with
// its tensors listed.
func (r *Resolved) price(c *calc, n int64, v variant, pc *piece) {
	k := r.perRow()
	var sz sizes
	r.size(c, &k, n, &sz)
	pc.detail = true
	r.assemble(c, &k, &sz, v, pc)
}

// requiredOf prices the rung with k children as v.
func (r *Resolved) requiredOf(c *calc, k int64, v variant, pc *piece) plan {
	e := newEvaluator(r)
	e.c = *c
	pl := e.rungPlan(k, v)
	*c, *pc = e.c, e.pc
	return pl
}

// decide runs the admission ladder for v.
func (r *Resolved) decide(c *calc, v variant, pc *piece) plan {
	e := newEvaluator(r)
	e.c = *c
	pl := e.decide(v)
	*c, *pc = e.c, e.pc
	return pl
}

// lowerBound is the required bytes of the finest rung with the lower-bound
// variants.
func (r *Resolved) lowerBound(c *calc, pc *piece) int64 {
	e := newEvaluator(r)
	e.c = *c
	lb := e.lowerBound(lowerBoundVariant())
	*c, *pc = e.c, e.pc
	return lb
}

// For the external tests (package estimator_test) that run the model's
// random configs through estimator/urlquery and estimator/hfconfig, which
// import estimator and so cannot be called from inside its own tests.
var (
	NewRand            = newRand
	RandomConfig       = randomConfig
	RandomBaseline     = randomBaseline
	ArtRoundTripConfig = artRoundTripConfig
)
