package estimator

// The GPU placement path's ladder (docs/model.md §15.1): ART's
// _find_admissible_forward when _graph_memory_policy_enabled, which every
// CUDA device is. The rungs are the estimator path's (the whole request,
// then 2, 4, ..., m children cut alike, the same refusals for a single
// sequence and under expert parallelism), but each plan is admitted by
// _admit_graph_memory, and no rung is pruned by a lower bound
// (_admit_split_rung skips _split_chunk_lower_cost when managed).

// gpuReplayFixedBytes is the fixed part of a trained unit's replay
// snapshot: 64 KiB (quoted, _graph_memory_units).
const gpuReplayFixedBytes = 64 * 1024

// gpuPlan is one plan admitted by the ladder: its distinct units, the
// once-only charges, the candidates tried and the one chosen (-1: none).
type gpuPlan struct {
	gpuPlacementIn
	rows                 []int64 // the rows of each unit's children
	cands                [6]gpuCandidate
	tried, chosen        int
	gpuRequired, hostReq int64 // the chosen candidate's, else the last tried
	wholeFirst           int64 // the whole request's first candidate (a chart's whole line)
}

// gpuSlotBytes is the trained slot's adapter weights (§15.6): the field,
// else the resident group's adapter weights, else 0.
func (e *evaluator) gpuSlotBytes() int64 {
	g := &e.r.art.gpu
	if g.slotBytes >= 0 {
		return g.slotBytes
	}
	if !e.art.gpuSlotOK {
		e.art.gpuSlot, e.art.gpuSlotOK = 0, true
		if e.r.res != nil {
			if rb, err := e.r.res.compute(e.r); err == nil {
				e.art.gpuSlot = int64(rb.lora.WeightsBytes)
			}
		}
	}
	return e.art.gpuSlot
}

// gpuReplayBytes is a trained child's replay snapshot of n rows (§15.2,
// modelled as in the section): 56 bytes a row of int64 index tensors, 16
// more for the labels when logprobs are asked for, 64 KiB, and the
// correction's state.
func (r *Resolved) gpuReplayBytes(c *calc, n int64) int64 {
	perRow, labels := int64(56), int64(0)
	if r.Outputs.Logprobs {
		perRow, labels = 72, n
	}
	b := c.add(c.mul(n, perRow, whatArtOutputs), gpuReplayFixedBytes, whatArtOutputs)
	return c.add(b, gpuCorrectionBytes(c, n, r.Outputs.TopK, labels, r.art.gpu.correction), whatArtOutputs)
}

// gpuCorrectionBytes is the stale-gradient correction's state for a
// trained group of n rows, top-k k and the given label elements (quoted,
// _correction_state_bytes): 8 bytes per top-k index and 4 per logprob
// (top-k and labels), the logprobs twice under "always".
func gpuCorrectionBytes(c *calc, n, k, labels, policy int64) int64 {
	if policy == gpuCorrectionNone {
		return 0
	}
	topk := c.mul(n, k, whatArtOutputs)
	logprobs := c.mul(4, c.add(topk, labels, whatArtOutputs), whatArtOutputs)
	if policy == gpuCorrectionAlways {
		logprobs = c.mul(logprobs, 2, whatArtOutputs)
	}
	return c.add(c.mul(topk, 8, whatArtOutputs), logprobs, whatArtOutputs)
}

// gpuStagingBytes is the gradient staging reserve of a slot of S bytes of
// adapter weights, P of whose gradients do not exist yet (quoted,
// _gradient_staging_bytes: each parameter's bytes x (3 - has_grad)):
// 2S + P.
func gpuStagingBytes(c *calc, slot, pending int64) int64 {
	return c.add(c.mul(slot, 2, whatArtAdapter), pending, whatArtAdapter)
}

// gpuUnitOf is a child's unit (quoted, _graph_memory_units): its price Q,
// retained max(outputs, rho), the transient above it, the replay bytes and
// the staged-gradient credit min(AD, the slot's pending gradients).
func (e *evaluator) gpuUnitOf(ac *artCost, count int64) gpuUnit {
	r, c := e.r, &e.c
	g := &r.art.gpu
	u := gpuUnit{Count: count, Output: ac.out, Retained: max(ac.out, ac.rho), Backward: r.Grad,
		Opt: gpuOptions{state: g.state, out: g.out, allowCPU: g.allowCPU, allowReplay: g.allowReplay}}
	transient := max(0, ac.q-u.Retained)
	u.Peak = max(ac.q, c.add(u.Retained, transient, whatArtTotal))
	if g.correction == gpuCorrectionAlways {
		u.CorrectionWS = ac.q
	}
	if r.Grad {
		u.Replay = r.gpuReplayBytes(c, ac.n)
		if ac.kad > 0 {
			pending := c.add(c.mul(r.L, r.art.gamma, whatArtAdapter), r.art.omicron, whatArtAdapter)
			u.Staged = min(ac.kad, pending)
		}
	}
	return u
}

// gpuRung prices the rung with k children (k = 1: the whole request) on
// the GPU path: its plan (as artRung's, for the result's child fields) and
// its placement.
func (e *evaluator) gpuRung(k int64, v variant, gp *gpuPlan) plan {
	r, c := e.r, &e.c
	g := &r.art.gpu
	gs, ng, kk := r.artCuts(k)
	pl := plan{k: kk}
	gp.units, gp.rows = gp.units[:0], gp.rows[:0]
	for _, grp := range gs[:ng] {
		ac := e.artCost(grp.p, v, false)
		gp.units = append(gp.units, e.gpuUnitOf(ac, grp.count))
		gp.rows = append(gp.rows, grp.p.rows())
		if n := grp.p.rows(); n > pl.largest {
			pl.largest, pl.artLargest = n, grp.p
			pl.retained, pl.maxEphem = ac.rho, ac.q-ac.rho
		}
	}
	// Capture and staging: once per plan, on its first trained child
	// (every child trains the one slot, with one staleness).
	gp.persistent, gp.staging = 0, 0
	if r.Grad {
		// The slot holds at least its pending gradients' parameters.
		pending := c.add(c.mul(r.L, r.art.gamma, whatArtAdapter), r.art.omicron, whatArtAdapter)
		slot := max(e.gpuSlotBytes(), pending)
		gp.persistent, gp.staging = slot, gpuStagingBytes(c, slot, pending)
	}
	gp.floor = 0
	if kk >= 2 {
		if phi, ok := r.artSplitFloor(kk); ok {
			gp.floor = r.withSafety(c, phi)
		}
	}
	gp.hostAvail = g.hostBudget()
	avail := r.available()
	gp.tried, gp.chosen = placeUnits(c, &gp.gpuPlacementIn, func(need int64) bool { return e.fits(need, avail) }, &gp.cands)
	last := gp.tried - 1
	if gp.chosen >= 0 {
		last = gp.chosen
	}
	gp.gpuRequired, gp.hostReq = gp.cands[last].gpu, gp.cands[last].host
	pl.required = gp.gpuRequired
	return pl
}

// gpuDecide is §15.1's decision: the whole request, the two refusals, the
// rungs 2, 4, ..., m in order, the refusal. gp holds the plan decided (the
// last rung tried when refused).
func (e *evaluator) gpuDecide(v variant, gp *gpuPlan) plan {
	r, c := e.r, &e.c
	whole := e.gpuRung(1, v, gp)
	gp.wholeFirst = gp.cands[0].gpu
	if c.err != nil || gp.chosen >= 0 {
		whole.decision = Admit
		whole.gpuPlace = gp.placement()
		return whole
	}
	m := r.sequences()
	if r.refuseUnsplit(m, &whole) {
		return whole
	}
	var pl plan
	for k := int64(2); ; k = min(m, 2*k) {
		pl = e.gpuRung(k, v, gp)
		if c.err != nil || gp.chosen >= 0 {
			pl.decision = Split
			pl.gpuPlace = gp.placement()
			return pl
		}
		if k >= m {
			break
		}
	}
	pl.decision, pl.artWhy = Refuse, artLadder
	return pl
}

// placement is the chosen candidate's taken placement, PlacementNone when
// none fits.
func (gp *gpuPlan) placement() Placement {
	if gp.chosen < 0 {
		return PlacementNone
	}
	cd := &gp.cands[gp.chosen]
	return newPlacement(cd.selState, cd.selOut)
}
