package estimator

import "errors"

// ExpertParallelFit is FitExpertParallel's answer.
type ExpertParallelFit struct {
	EP      int64 // the smallest expert parallelism above the config's at which the weights fit
	Weights Bytes // the weights per GPU at EP (0 when the config prices no resident group there)
	OK      bool  // there is such an EP
	Priced  int   // the configs resolved to find it: what the answer cost
}

// FitExpertParallel is the smallest expert parallelism above c's that
// divides the routed experts and at which the weights fit on the GPU
// (docs/model.md §14.4), for a config with a resident group; the page
// offers it when c is refused because its weights do not fit
// (ErrWeightsDoNotFit).
//
// The answer is the first e above c's, up to the field's maximum (and
// 65,536), at which c resolves, or fails for a reason other than its
// weights (not fitting, or e not dividing the routed experts): then what
// is left to fix is another field. It prices few e, whatever c holds (a
// link is untrusted): the first, which is the answer when anything but
// the weights is at fault; when they are, no other check fails at any e
// (none depends on e but the weights'), so every e that does not divide
// the routed experts is refused for that, and only the divisors above
// the first need pricing (at most 120 for a count up to 65,536). A model
// without routed experts has weights that do not depend on e: the first
// e answers for all.
func FitExpertParallel(c Config) ExpertParallelFit {
	var fit ExpertParallelFit
	f, ok := FieldByKey("expert_parallel")
	if !ok || c.Resident == nil {
		return fit
	}
	c.Baseline, c.Terms, c.Observed = nil, nil, nil
	hi := min(f.Max, 1<<16)
	e := c.FC2.ExpertParallel + 1
	if e > hi {
		return fit
	}
	try := func(e int64) bool {
		fit.Priced++
		w, done := fitsAt(c, e)
		if done {
			fit.EP, fit.Weights, fit.OK = e, w, true
		}
		return done
	}
	if try(e) {
		return fit
	}
	x, moe := c.RoutedExperts()
	if !moe {
		return fit
	}
	for _, d := range divisors(x) {
		if d > e && d <= hi && try(d) {
			return fit
		}
	}
	return fit
}

// fitsAt prices c at expert parallelism e: done says e is the answer
// (c resolves, or fails for something other than its weights), with
// the weights per GPU when it resolves.
func fitsAt(c Config, e int64) (Bytes, bool) {
	c.FC2.ExpertParallel = e
	r, err := c.Resolve()
	if err == nil {
		if rr := r.Resident(); rr != nil {
			return rr.WeightsBytes, true
		}
		return 0, true
	}
	if errors.Is(err, ErrWeightsDoNotFit) || errors.Is(err, ErrExpertParallelDoesNotDivide) {
		return 0, false
	}
	return 0, true // the weights fit; what is left is another error
}

// divisors are n's divisors in increasing order (n >= 1).
func divisors(n int64) []int64 {
	var lo, hi []int64
	for i := int64(1); i*i <= n; i++ {
		if n%i == 0 {
			lo = append(lo, i)
			if i != n/i {
				hi = append(hi, n/i)
			}
		}
	}
	for i := len(hi) - 1; i >= 0; i-- {
		lo = append(lo, hi[i])
	}
	return lo
}
