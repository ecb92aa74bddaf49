package estimator

import "fmt"

// Result is the estimate of docs/model.md §6: the budget and, for the baseline and
// the candidate, the decision and the bytes behind it. AvailableBytes is
// the candidate's; with a baseline of its own each Outcome carries its
// revision's too.
type Result struct {
	AvailableBytes Bytes   `json:"available_bytes"`
	Baseline       Outcome `json:"baseline"`
	Candidate      Outcome `json:"candidate"`
	// Observed and Fit are set when the config has observed points
	// (docs/model.md §12), and left out of the JSON otherwise.
	Observed []ObservedResult `json:"observed,omitempty"`
	Fit      *Fit             `json:"fit,omitempty"`
	// Resident is the candidate's resident memory (docs/model.md §14.4)
	// when its config has a resident group, as AvailableBytes is the
	// candidate's; each Outcome carries its own revision's.
	Resident *ResidentResult `json:"resident,omitempty"`
}

// Outcome is one revision's decision. Children is 1 when admitted, k when
// split and 0 when refused. ChildRows, RequiredBytes, the stages and the
// per-child bytes are those of the chosen plan or, when refused, of the last
// rung tried (one sequence per child, or the whole request when it is a
// single sequence).
type Outcome struct {
	Decision        Decision `json:"decision"`
	Children        int64    `json:"children"`
	ChildRows       int64    `json:"child_rows"`
	RequiredBytes   Bytes    `json:"required_bytes"`
	LowerBoundBytes Bytes    `json:"lower_bound_bytes"`
	MarginBytes     Bytes    `json:"margin_bytes"`
	DominantStage   string   `json:"dominant_stage"`
	Reason          string   `json:"reason"`

	// AvailableBytes is the revision's own available bytes, set only when
	// the config has a baseline of its own (docs/model.md §11): the two
	// revisions' capacity or memory in use may then differ. Without one
	// it is nil and left out of the JSON, which stays as it was before
	// docs/model.md §11, and Result.AvailableBytes is both revisions'.
	AvailableBytes *Bytes `json:"available_bytes,omitempty"`

	// RetainedBytes adds the retained bytes of every child of the plan and
	// EphemeralBytes is the largest child's peak, so that RequiredBytes =
	// floor((RetainedBytes + EphemeralBytes) x safety_percent / 100).
	RetainedBytes  Bytes `json:"retained_bytes"`
	EphemeralBytes Bytes `json:"ephemeral_bytes"`
	// Stages, Retained and ChildRetainedBytes are the largest child's.
	ChildRetainedBytes Bytes        `json:"child_retained_bytes"`
	Stages             []StageBytes `json:"stages"`
	Retained           StageBytes   `json:"retained"`
	// Resident is the revision's resident memory when its config has a
	// resident group (§14.4).
	Resident *ResidentResult `json:"resident,omitempty"`
	// Placement is the GPU placement path's block (docs/model.md §15.7),
	// nil on the estimator path.
	Placement *PlacementResult `json:"placement,omitempty"`
}

// StageBytes is a stage (or the retained part) of the largest child, with
// its tensors.
type StageBytes struct {
	Name    string        `json:"name"`
	Bytes   Bytes         `json:"bytes"`
	Tensors []TensorBytes `json:"tensors"`
}

// TensorBytes is one tensor, rounded to the allocator block.
type TensorBytes struct {
	Name  string `json:"name"`
	Bytes Bytes  `json:"bytes"`
}

// Stage returns the named stage, or a zero StageBytes when the model has
// no such stage.
func (o *Outcome) Stage(name string) StageBytes {
	for _, s := range o.Stages {
		if s.Name == name {
			return s
		}
	}
	return StageBytes{Name: name}
}

// Estimate validates c and prices it for the baseline and the candidate.
// The error is an ErrorList of field errors, or an *Error naming the fields
// whose product overflows.
func Estimate(c Config) (Result, error) {
	rv, err := c.ResolveRevisions()
	if err != nil {
		return Result{}, err
	}
	res, err := rv.Estimate()
	if err != nil || len(c.Observed) == 0 {
		return res, err
	}
	if res.Observed, res.Fit, err = rv.observe(c.Observed); err != nil {
		return Result{}, err
	}
	return res, nil
}

// Estimate prices both revisions, each with its own resolved config: its
// decision, its lower bound, its available bytes and its reason. Fields
// moved with Set are checked first (Check). Without a baseline of its own
// it is Resolved.Estimate of the candidate. An overflow in the baseline's
// own config is an *Error named "baseline", its message naming the
// product; the candidate's is named as Resolved.Estimate names it.
func (rv *Revisions) Estimate() (Result, error) {
	if err := rv.Check(); err != nil {
		return Result{}, err
	}
	if !rv.Own {
		return rv.Rev[1].Estimate()
	}
	var res Result
	outs := [2]*Outcome{&res.Baseline, &res.Candidate}
	var errs [2]*Error
	for rev := BaselineRev; rev <= CandidateRev; rev++ {
		r := &rv.Rev[rev]
		e := newEvaluator(r)
		*outs[rev] = e.outcome(rv.variant(rev))
		outs[rev].LowerBoundBytes = Bytes(e.lowerBound(rv.variant(rev)))
		avail := Bytes(r.available())
		outs[rev].AvailableBytes = &avail
		errs[rev] = revisionError(e.c.err, rev, true)
		outs[rev].Resident = r.Resident()
	}
	for _, e := range []*Error{errs[1], errs[0]} {
		if e != nil {
			return Result{}, e
		}
	}
	res.AvailableBytes = *res.Candidate.AvailableBytes
	res.Resident = res.Candidate.Resident
	return res, nil
}

// Estimate prices a resolved config; see the package function Estimate.
func (r *Resolved) Estimate() (Result, error) {
	e := newEvaluator(r)
	res := Result{AvailableBytes: Bytes(r.available())}
	// The whole request is priced first, so an overflow names the product
	// of the whole request rather than of some rung's children.
	res.Baseline = e.outcome(baselineVariant())
	res.Candidate = e.outcome(r.candidateVariant())
	lower := Bytes(e.lowerBound(r.candidateVariant()))
	res.Baseline.LowerBoundBytes, res.Candidate.LowerBoundBytes = lower, lower
	if r.Art { // art's bound is each revision's own
		res.Baseline.LowerBoundBytes = Bytes(e.lowerBound(baselineVariant()))
	}
	if e.c.err != nil {
		return Result{}, e.c.err
	}
	if rr := r.Resident(); rr != nil {
		res.Resident, res.Baseline.Resident, res.Candidate.Resident = rr, rr, rr
	}
	return res, nil
}

func (e *evaluator) outcome(v variant) Outcome {
	r := e.r
	if r.Art {
		return e.artOutcome(v)
	}
	pl := e.decide(v)
	e.pc.detail = true
	pc := e.price(pl.largest, v)
	e.pc.detail = false
	avail := r.available()
	o := pl.outcome(avail, pc.retained)
	o.DominantStage, _, _ = pc.stageOf(pc.dominant())
	for i := 0; i < pc.stageCount(); i++ {
		name, bytes, present := pc.stageOf(i)
		if !present {
			continue
		}
		sb := StageBytes{Name: name, Bytes: Bytes(bytes)}
		if i < int(NumStages) {
			for _, t := range pc.tensors[i][:pc.ntens[i]] {
				sb.Tensors = append(sb.Tensors, TensorBytes{t.name, Bytes(t.bytes)})
			}
		} else { // a term's own stage holds its one tensor
			sb.Tensors = []TensorBytes{{name, Bytes(bytes)}}
		}
		o.Stages = append(o.Stages, sb)
	}
	o.Retained = StageBytes{Name: "retained", Bytes: Bytes(pc.retained), Tensors: []TensorBytes{}}
	for _, t := range pc.ret[:pc.nret] {
		o.Retained.Tensors = append(o.Retained.Tensors, TensorBytes{t.name, Bytes(t.bytes)})
	}
	o.Reason = r.reason(pl, pc, avail)
	return o
}

// dominant is the stage that sets the piece's ephemeral peak, the first in
// stage order on a tie: an index of stageOf, so that a term's own stage
// (after the built-in ones, in the order of the terms) can dominate.
func (pc *piece) dominant() int {
	best, bestBytes := 0, pc.stage[0]
	for i := 1; i < pc.stageCount(); i++ {
		if _, b, _ := pc.stageOf(i); b > bestBytes {
			best, bestBytes = i, b
		}
	}
	return best
}

func (r *Resolved) reason(pl plan, pc *piece, avail int64) string {
	need, have := Bytes(pl.required), Bytes(avail)
	dom, domBytes, _ := pc.stageOf(pc.dominant())
	switch pl.decision {
	case Admit:
		return fmt.Sprintf("admitted whole: %s rows need %s of the %s available; the peak stage is %s",
			Group(r.N), need, have, dom)
	case Split:
		return fmt.Sprintf("split into %s children of at most %s rows: the whole request does not fit in the %s available, the split needs %s; the peak stage is %s",
			Group(pl.k), Group(pl.largest), have, need, dom)
	}
	plan := "the whole request (a single sequence)"
	if pl.k > 1 {
		plan = fmt.Sprintf("one sequence per child (%s children of at most %s rows)", Group(pl.k), Group(pl.largest))
	}
	return fmt.Sprintf("refused: even %s needs %s, %s more than the %s available; the dominant stage is %s (%s)",
		plan, need, Bytes(pl.required-avail), have, dom, Bytes(domBytes))
}
