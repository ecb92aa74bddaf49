package page

import (
	"sync/atomic"

	"headroom/estimator"
)

// Steps counts the page model's costly steps since the program started:
// what an edit costs, in calls, for the tests and benchmarks that hold
// an edit to one normalization (Settled). Reading them costs nothing
// the page pays for otherwise: each is an atomic add.
type Steps struct {
	Decode   int64 // Decode: a state read from an address
	Validate int64 // State.Validate
	Repair   int64 // estimator.Repair, of the page's own calls
	Estimate int64 // estimator.Estimate, of the page's own calls
	FitSweep int64 // the sweeps FitRange ran (not found in its memo)
	FitAsk   int64 // the flips FitRange looked up, found in its memo or swept
	Resolve  int64 // estimator.Config.Resolve, of the page's own calls (not those inside Estimate, Repair or a sweep)
	FitE     int64 // the expert parallelisms State.FitExpertParallel looked up, found in its memo or priced
}

var steps struct {
	decode, validate, repair, estimate, fitSweep, fitAsk, resolve, fitE atomic.Int64
}

// CountedSteps is the page's count of its steps so far; the difference of
// two is what happened between them.
func CountedSteps() Steps {
	return Steps{Decode: steps.decode.Load(), Validate: steps.validate.Load(), Repair: steps.repair.Load(),
		Estimate: steps.estimate.Load(), FitSweep: steps.fitSweep.Load(), FitAsk: steps.fitAsk.Load(),
		Resolve: steps.resolve.Load(), FitE: steps.fitE.Load()}
}

// Sub is s minus an earlier count.
func (s Steps) Sub(earlier Steps) Steps {
	return Steps{Decode: s.Decode - earlier.Decode, Validate: s.Validate - earlier.Validate,
		Repair: s.Repair - earlier.Repair, Estimate: s.Estimate - earlier.Estimate, FitSweep: s.FitSweep - earlier.FitSweep,
		FitAsk: s.FitAsk - earlier.FitAsk, Resolve: s.Resolve - earlier.Resolve, FitE: s.FitE - earlier.FitE}
}

// estimate is estimator.Estimate, counted.
func estimate(c estimator.Config) (estimator.Result, error) {
	steps.estimate.Add(1)
	return estimator.Estimate(c)
}

// repair is estimator.Repair, counted.
func repair(c estimator.Config) (estimator.Config, estimator.ErrorList) {
	steps.repair.Add(1)
	return estimator.Repair(c)
}

// resolve is Config.Resolve, counted.
func resolve(c estimator.Config) (estimator.Resolved, error) {
	steps.resolve.Add(1)
	return c.Resolve()
}
