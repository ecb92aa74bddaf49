package estimator

import "fmt"

// The art profile's admission (docs/model.md §13.5, quoted from ART's
// _find_admissible_forward): admit the whole request if its price fits;
// else refuse a single sequence, refuse under expert parallelism, or walk
// the ladder k = 2, 4, ..., m, each rung cut by ART's token-balanced cuts
// and priced by _split_required_memory. Every rung is priced in the
// ladder's order: unlike docs/model.md §4's, ART's prices need not grow with a
// child's rows in the ways decideFrom's early outs assume (a warm child's
// retained part is capped by the 8x trust window, a split floor lifts one
// rung alone), so no rung is skipped.

// artRefusal says why the art ladder refused.
type artRefusal int8

const (
	artNotRefused     artRefusal = iota
	artSingle                    // m = 1
	artExpertParallel            // E > 1
	artLadder                    // every rung too large
)

// artRefusalPrefix and the reasons are ART's refusal texts, verbatim.
const artRefusalPrefix = "forward is predicted to exceed available memory"

var artReasons = [...]string{
	artSingle:         artRefusalPrefix + "; a single request cannot be split",
	artExpertParallel: artRefusalPrefix + "; unable to find a feasible split: internal splitting is disabled under expert parallelism in this release",
	artLadder:         artRefusalPrefix + "; unable to find a feasible split: every rung of the bounded ladder (2, 4, ..., one request per subforward) is predicted to exceed available memory once all returned graphs are live together",
}

// artEval is an evaluator's state under art: each variant's coefficients
// and the pieces priced last. reset clears both; along a sweep that keeps
// the evaluator (the budget, rows or sequence_rows with sameSizes) the
// coefficients do not move and the memo's keys carry N, T and s.
type artEval struct {
	koef [4]artKoef
	have [4]bool
	memo [8]artMemo
	next int
	// gpuSlot is the GPU path's slot bytes from the resident group, once
	// computed (art_gpu_admit.go).
	gpuSlot   int64
	gpuSlotOK bool
	gp        gpuPlan // the GPU path's plan decided last
	gpLower   gpuPlan // scratch for the GPU path's lower bound
}

type artMemo struct {
	key  artMemoKey
	cost artCost
}

type artMemoKey struct {
	p     artPiece
	n, t  int64 // the request's N and T, when T != N (artTargets reads them) or a term reads them
	v     uint8 // koef index + 4 when lower, + 8 for the baseline's terms
	valid bool
}

// reset forgets the coefficients and the pieces priced.
func (a *artEval) reset() {
	a.have = [4]bool{}
	a.gpuSlotOK = false
	for i := range a.memo {
		a.memo[i].key.valid = false
	}
}

// artVariantIndex is the slot of v's switches in artEval.koef.
func artVariantIndex(v variant) uint8 {
	i := uint8(0)
	if v.eagerHead {
		i |= 1
	}
	if v.fc2Known {
		i |= 2
	}
	return i
}

// artCost prices piece p as v (lower: as the rejection bound does).
func (e *evaluator) artCost(p artPiece, v variant, lower bool) *artCost {
	vi := artVariantIndex(v)
	if !e.art.have[vi] {
		e.art.koef[vi] = e.r.artKoef(&e.c, v)
		e.art.have[vi] = e.c.err == nil
	}
	key := artMemoKey{p: p, v: vi, valid: true}
	held := e.r.artHeld(v)
	if e.r.T != e.r.N || len(held) > 0 && e.r.terms.artRequest {
		// Else every row is a target whatever N is: a piece's price does
		// not depend on N (nor does a term that reads no N, P, T or m).
		key.n, key.t = e.r.N, e.r.T
	}
	if lower {
		key.v += 4
	}
	if v.rev == holdBaseline {
		key.v += 8 // the revisions hold different terms
	}
	for i := range e.art.memo {
		if k := &e.art.memo[i].key; k.p == key.p && k.n == key.n && k.t == key.t && k.v == key.v && k.valid {
			return &e.art.memo[i].cost
		}
	}
	m := &e.art.memo[e.art.next]
	e.art.next = (e.art.next + 1) % len(e.art.memo)
	e.r.artPrice(&e.c, &e.art.koef[vi], p, lower, held, &m.cost)
	m.key = key
	if e.c.err != nil {
		m.key.valid = false
	}
	return &m.cost
}

// artRung prices the rung with k children (quoted, _split_required_memory
// then _split_plan_memory_check):
//
//	P = sum of rho_i + max of (Q_i - rho_i)
//	P = max(P, safe(sum of (Kret_i + Kig_i) + max Kws_i + max Kad_i)) when some Kig_i > 0
//	Req = max(P, safe(Phi)) for a recorded split floor of exactly these children
//
// k = 1 is the whole request, whose Req is its price R (13.4 (1)). lower
// prices the rejection bound: each child as _split_chunk_lower_cost does,
// no split floor. The plan's retained and maxEphem are the largest child's
// rho and Q - rho.
func (e *evaluator) artRung(k int64, v variant, lower bool) plan {
	r, c := e.r, &e.c
	gs, ng, kk := r.artCuts(k)
	pl := plan{k: kk}
	var sumRho, maxExtra, sumKeep, maxKws, maxKad int64
	anyIG := false
	for _, g := range gs[:ng] {
		ac := e.artCost(g.p, v, lower)
		sumRho = c.add(sumRho, c.mul(ac.rho, g.count, whatArtTotal), whatArtTotal)
		maxExtra = max(maxExtra, ac.q-ac.rho)
		sumKeep = c.add(sumKeep, c.mul(c.add(ac.kret, ac.kig, whatArtTotal), g.count, whatArtTotal), whatArtTotal)
		maxKws, maxKad = max(maxKws, ac.kws), max(maxKad, ac.kad)
		anyIG = anyIG || ac.kig > 0
		if n := g.p.rows(); n > pl.largest {
			pl.largest, pl.artLargest = n, g.p
			pl.retained, pl.maxEphem = ac.rho, ac.q-ac.rho
		}
	}
	pl.required = c.add(sumRho, maxExtra, whatArtTotal)
	if anyIG {
		pl.required = max(pl.required, r.withSafety(c, c.add(sumKeep, c.add(maxKws, maxKad, whatArtTotal), whatArtTotal)))
	}
	if !lower && kk >= 2 {
		if phi, ok := r.artSplitFloor(kk); ok {
			pl.required = max(pl.required, r.withSafety(c, phi))
		}
	}
	return pl
}

// artSplitFloor is the largest recorded split floor whose child rows, in
// cut order, are the rung's (§13.7 rule 3). ART keys one floor per split;
// a config that lists the same rows twice gets the larger (a choice).
func (r *Resolved) artSplitFloor(kk int64) (int64, bool) {
	pm := r.art.mem
	if pm == nil || len(pm.SplitFloors) == 0 || kk > maxFloorChildren {
		return 0, false
	}
	var buf [maxFloorChildren]int64
	rows, ok := r.artCutRows(kk, buf[:])
	if !ok {
		return 0, false
	}
	best, found := int64(0), false
	for _, f := range pm.SplitFloors {
		if len(f.ChildRows) != len(rows) {
			continue
		}
		same := true
		for i, x := range f.ChildRows {
			if x != rows[i] {
				same = false
				break
			}
		}
		if same {
			best, found = max(best, f.ObservedBytes), true
		}
	}
	return best, found
}

// refuseUnsplit is the refusal both ART decisions (§13.5, §15.1) reach
// before any rung, written once so the two cannot drift: a request of
// m = 1 sequence cannot be split, and under expert parallelism ART does not
// split. It marks whole refused and reports whether it did.
func (r *Resolved) refuseUnsplit(m int64, whole *plan) bool {
	if m != 1 && r.EP <= 1 {
		return false
	}
	whole.decision, whole.artWhy = Refuse, artSingle
	if m > 1 {
		whole.artWhy = artExpertParallel
	}
	return true
}

// artDecide is §13.5's decision, given the whole request's plan. Its
// comparisons with the budget go through fits, so a sweep of the budget
// reuses its results by path, as decideFrom's.
func (e *evaluator) artDecide(v variant, whole plan) plan {
	if e.r.art.gpu.on {
		return e.gpuDecide(v, &e.art.gp)
	}
	r, c := e.r, &e.c
	avail := r.available()
	if c.err != nil || e.fits(whole.required, avail) {
		whole.decision = Admit
		return whole
	}
	m := r.sequences()
	if r.refuseUnsplit(m, &whole) {
		return whole
	}
	var pl plan
	// The bound assumes every part grows linearly with rows; a term need
	// not, so with terms every rung is priced.
	if len(r.artHeld(v)) == 0 && !e.fits(e.artLadderBound(v, whole), avail) && c.err == nil {
		// No rung can fit: price the last one, which the refusal reports.
		pl = e.artRung(m, v, false)
		pl.decision, pl.artWhy = Refuse, artLadder
		return pl
	}
	for k := int64(2); ; k = min(m, 2*k) {
		pl = e.artRung(k, v, false)
		if c.err != nil || e.fits(pl.required, avail) {
			pl.decision = Split
			return pl
		}
		if k >= m {
			break
		}
	}
	pl.decision, pl.artWhy = Refuse, artLadder
	return pl
}

// artLadderBound is a price no rung of the ladder can be below, from the
// whole request's terms that are linear in rows (so that the children's
// add up to them exactly): Out, A, M, Z, B and W. Every rung has some
// child with IG = B > 0 when the whole has, so its checkpoint-sum term is
// at least safe(Out(N) + 2 B(N) + k0); and cold, each child's rho is its
// Fo >= safe(Out + max(A, M, Z, B + W)) of its own rows, whose sum over at
// most m children loses less than m bytes to the floors. (Warm, rho may be
// smaller, and only the first part holds.) It lets artDecide refuse
// without pricing the rungs between; the rung it reports is priced exactly.
func (e *evaluator) artLadderBound(v variant, whole plan) int64 {
	r, c := e.r, &e.c
	ac := e.artCost(whole.artLargest, v, false)
	var bound int64
	if ac.b > 0 {
		bound = r.withSafety(c, c.add(ac.out, c.add(c.add(ac.b, ac.b, whatArtTotal), ac.k0, whatArtTotal), whatArtTotal))
	}
	if r.art.mem == nil {
		cold := r.withSafety(c, c.add(ac.out, max(ac.a, ac.m, ac.z, c.add(ac.b, ac.w, whatArtTotal)), whatArtTotal)) - r.sequences()
		bound = max(bound, cold)
	}
	return bound
}

// artLowerBound is ART's rejection bound of the finest rung (§13.5): m
// children of one sequence (the whole request when m = 1), each priced as
// _split_chunk_lower_cost does, with the revision's own switches (a
// choice: each revision's bound is that revision's code's, so it never
// exceeds that revision's finest rung).
func (e *evaluator) artLowerBound(v variant) int64 {
	if e.r.art.gpu.on {
		return e.gpuLowerBound(v)
	}
	return e.artRung(e.r.sequences(), v, true).required
}

// artPriceRevision fills pr with revision v's decision under art, as
// priceRevision does under seeds. docs/model.md §3's stages have no exact
// counterpart under art: WholeStages carries the whole request's nearest
// terms in their slots (activation floor A, head workspace HC, MoE
// workspace M, GDN pending floor G), so a chart's stage lines stay
// meaningful; WholeRetained is its outputs, Out(N).
func artPriceRevision(e *evaluator, v variant, pr *PointRevision) {
	whole := e.artRung(1, v, false)
	ac := e.artCost(whole.artLargest, v, false)
	pr.WholeRetained = ac.out
	pr.WholeStages = [NumStages]int64{StageActivations: ac.a, StageHead: ac.hc, StageFC2: ac.m, StageGDN: ac.g}
	if ac.terms { // a stage of its own is a chart line of its own, as under the seeds
		for _, h := range e.r.artHeld(v) {
			if e.r.terms.terms[h.i].place == artPlaceStage {
				pr.WholeTermStages[h.i] = ac.tp.value[h.i]
			}
		}
	}
	pr.WholeRequired = whole.required
	pl := e.artDecide(v, whole)
	pr.Decision, pr.ChildRows, pr.RequiredBytes = pl.decision, pl.largest, pl.required
	if pl.decision != Refuse {
		pr.Children = pl.k
	}
	if e.r.art.gpu.on {
		pr.WholeRequired, pr.Placement = e.art.gp.wholeFirst, pl.gpuPlace
	}
}

// artPredict is §13.8's prediction for one forward of a piece of n rows:
// in_use + Out(n) + max(S, Pi), q = ceil(n / s) sequences of this config.
func (e *evaluator) artPredict(n int64, v variant) int64 {
	r, c := e.r, &e.c
	q := ceilDiv(n, r.S)
	ac := e.artCost(artPiece{q: q, s: r.S, last: n - (q-1)*r.S}, v, false)
	s := max(ac.a, ac.m, ac.z, ac.xb, ac.pi, ac.own)
	return c.add(r.InUse, c.add(ac.out, s, whatPredicted), whatPredicted)
}

// The art profile's alternatives, in the order of §13.5 (ties go to the
// first).
var artStageNames = [...]string{"activations", "moe", "dense_no_grad", "checkpoint", "profile"}

// artOutcome is Outcome under art: the plan of artDecide, and the largest
// child's alternatives with the one that sets its price.
func (e *evaluator) artOutcome(v variant) Outcome {
	r := e.r
	whole := e.artRung(1, v, false)
	pl := e.artDecide(v, whole)
	avail := r.available()
	ac := *e.artCost(pl.artLargest, v, false)
	o := pl.outcome(avail, pl.retained)
	var held []termRef
	if ac.terms {
		held = r.artHeld(v)
	}
	// termsAt lists the held terms that joined place pl, after ART's own
	// tensor there (left out when a term replaces it).
	termsAt := func(ts []TensorBytes, pl int8, name string, bytes int64) []TensorBytes {
		if ac.tp.replaced&(1<<pl) == 0 {
			ts = append(ts, TensorBytes{name, Bytes(bytes - ac.tp.add[pl])})
		}
		for _, h := range held {
			if ct := &r.terms.terms[h.i]; ct.place == pl {
				ts = append(ts, TensorBytes{ct.name, Bytes(ac.tp.value[h.i])})
			}
		}
		return ts
	}
	onlyTerms := func(ts []TensorBytes, pl int8) []TensorBytes {
		for _, h := range held {
			if ct := &r.terms.terms[h.i]; ct.place == pl {
				ts = append(ts, TensorBytes{ct.name, Bytes(ac.tp.value[h.i])})
			}
		}
		return ts
	}
	alt := [...]int64{ac.a, ac.m, ac.z, ac.xb, ac.pi}
	present := [...]bool{true, r.K > 0 || ac.m > 0, ac.z > 0 || (r.K == 0 && r.F > 0 && !r.Grad), true, r.art.mem != nil}
	dom, domBytes := artStageNames[0], alt[0]
	for i := range alt {
		if alt[i] > domBytes {
			dom, domBytes = artStageNames[i], alt[i]
		}
		if !present[i] {
			continue
		}
		sb := StageBytes{Name: artStageNames[i], Bytes: Bytes(alt[i])}
		switch i {
		case 0:
			sb.Tensors = termsAt(nil, artPlaceActivations, "activations", ac.a)
		case 1:
			sb.Tensors = termsAt(nil, artPlaceMoE, "moe_workspace", ac.m)
		case 2:
			sb.Tensors = termsAt(nil, artPlaceDense, "dense_fc1", ac.z)
		case 3:
			ts := termsAt(nil, artPlaceRetained, "boundaries", ac.b)
			ts = onlyTerms(ts, artPlaceRetainedFloor) // ART has no bytes of its own there
			ts = termsAt(ts, artPlaceWorkspace, "workspace", ac.w)
			ts = termsAt(ts, artPlaceHead, "head", ac.hc)
			ts = termsAt(ts, artPlaceGDN, "gdn_floor", ac.g)
			ts = termsAt(ts, artPlaceInputGradient, "input_gradient", ac.ig)
			ts = termsAt(ts, artPlaceAdapterGradients, "adapter_gradients", ac.ad)
			ts = termsAt(ts, artPlaceColdTransients, "cold_transients", ac.k0)
			ts = onlyTerms(ts, artPlaceBackward)
			sb.Tensors = ts
		case 4:
			sb.Tensors = []TensorBytes{{"learned_floor", Bytes(ac.pi)}}
		}
		o.Stages = append(o.Stages, sb)
	}
	for _, h := range held { // each stage of its own, after ART's
		if ct := &r.terms.terms[h.i]; ct.place == artPlaceStage {
			b := ac.tp.value[h.i]
			o.Stages = append(o.Stages, StageBytes{Name: ct.name, Bytes: Bytes(b), Tensors: []TensorBytes{{ct.name, Bytes(b)}}})
			if b > domBytes {
				dom, domBytes = ct.name, b
			}
		}
	}
	o.DominantStage = dom
	outs := r.artOutputTensors(&e.c, pl.artLargest.rows())
	if ac.terms {
		if ac.tp.replaced&(1<<artPlaceOutputs) != 0 {
			outs = outs[:0]
		}
		for _, h := range held {
			if ct := &r.terms.terms[h.i]; ct.place == artPlaceOutputs {
				outs = append(outs, TensorBytes{ct.name, Bytes(ac.tp.value[h.i])})
			}
		}
	}
	o.Stages = append(o.Stages, StageBytes{Name: "outputs", Bytes: Bytes(ac.out), Tensors: outs})
	ret := termsAt(nil, artPlaceRetained, "boundaries", ac.b)
	o.Retained = StageBytes{Name: "retained", Bytes: Bytes(ac.kret), Tensors: append(outs[:len(outs):len(outs)], ret...)}
	o.Reason = r.artReason(pl, avail, o.DominantStage)
	if r.art.gpu.on {
		e.gpuDecorate(&o, pl, avail)
	}
	return o
}

// artOutputTensors lists Out(n)'s tensors (§13.4): logprobs [n x 4],
// top-k values and indices [n x k x 4, n x k x 8], logits [n x Vp x 2],
// hidden states [n x H x 2].
func (r *Resolved) artOutputTensors(c *calc, n int64) []TensorBytes {
	o := r.Outputs
	out := []TensorBytes{}
	if o.Logprobs {
		out = append(out, TensorBytes{"logprobs", Bytes(4 * n)})
	}
	if o.TopK > 0 {
		out = append(out, TensorBytes{"topk_values", Bytes(c.mul(4*n, o.TopK, whatArtOutputs))}, TensorBytes{"topk_indices", Bytes(c.mul(8*n, o.TopK, whatArtOutputs))})
	}
	if o.Logits {
		vp := ceilDiv(r.V, r.art.vocabMultiple) * r.art.vocabMultiple
		out = append(out, TensorBytes{"logits", Bytes(c.mul(n, 2*vp, whatArtOutputs))})
	}
	if o.HiddenStates {
		out = append(out, TensorBytes{"hidden_states", Bytes(c.mul(n, 2*r.H, whatArtOutputs))})
	}
	return out
}

// artReason says what ART decides and why: its own refusal text when it
// refuses, a sentence of ours otherwise.
func (r *Resolved) artReason(pl plan, avail int64, dom string) string {
	need, have := Bytes(pl.required), Bytes(avail)
	switch pl.decision {
	case Admit:
		return fmt.Sprintf("admitted whole: ART prices %s rows at %s of the %s available; the alternative that sets the price is %s",
			Group(r.N), need, have, dom)
	case Split:
		return fmt.Sprintf("split into %s children of at most %s rows: ART prices the whole request above the %s available and the split at %s; the largest child's price is set by %s",
			Group(pl.k), Group(pl.largest), have, need, dom)
	}
	return artReasons[pl.artWhy]
}
