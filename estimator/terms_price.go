package estimator

// Pricing the terms of section 8: each term is one tensor of a piece,
// evaluated with the piece's variables and those of the resolved config
// it belongs to, and rounded to the allocator block like any other.

// setPiece fills the variables of the piece sz: n, p, t, r = n x routed,
// D = min(p, C) x V x 2 and Dt = min(t, C) x V x 2, unrounded as section
// 8 defines them. Within the field ranges none of these can overflow (D
// < 2^31 x 2^27).
func (v *termVars) setPiece(r *Resolved, k *perRow, sz *sizes) {
	v[varN], v[varP], v[varT] = sz.n, sz.p, sz.t
	v[varR] = sz.n * k.routed
	v[varD] = min(sz.p, r.C) * r.V * 2
	v[varDt] = min(sz.t, r.C) * r.V * 2
}

// termBytes is term i's tensor for the piece sz, rounded: evaluated the
// first time a variant holding the term prices the piece, then kept in sz
// (the memo of sizes serves every variant). A term that fails is kept as
// -1; the failure is an error only for a variant that holds the term, so
// a term the baseline alone holds cannot make the candidate fail, and the
// lower bound evaluates only the terms both hold.
func (r *Resolved) termBytes(k *perRow, sz *sizes, i uint8) int64 {
	if sz.evaluated&(1<<i) != 0 {
		return sz.term[i]
	}
	k.vars.setPiece(r, k, sz)
	st := k.stack
	if st == nil {
		st = new([maxTermStack]int64)
	}
	t := &r.terms.terms[i]
	var v int64
	var ok bool
	if t.chain {
		v, ok = runChain(t.prog, &k.vars)
	} else {
		v, ok = runFast(t.prog, &k.vars, st)
	}
	switch {
	case !ok:
		v = -1
	case v < bigTensor: // rounding up by less than 2^30 cannot overflow
		if k.roundMask >= 0 {
			v = (v + k.roundMask) &^ k.roundMask
		} else {
			v = (v + k.round - 1) / k.round * k.round
		}
	default:
		var f termFault
		if v, f = roundTerm(v, k.round); f.kind != faultNone {
			v = -1
		}
	}
	sz.term[i] = v
	sz.evaluated |= 1 << i
	return v
}

// roundTerm rounds a term's value up to the allocator block; 0 stays 0.
func roundTerm(v, unit int64) (int64, termFault) {
	var c calc
	v = c.roundUp(v, unit, "")
	if c.err != nil {
		return 0, termFault{kind: faultOverflow}
	}
	return v, termFault{}
}

// termFault re-runs term i for the piece sz to say why it failed: the
// error path, so it may allocate.
func (r *Resolved) termFault(i int, sz *sizes) *Error {
	k := r.perRow()
	k.vars.setPiece(r, &k, sz)
	ct := &r.terms.terms[i]
	v, f := run(ct.prog, &k.vars, new([maxTermStack]int64))
	if f.kind == faultNone {
		_, f = roundTerm(v, k.round)
	}
	return &Error{Field: ct.field, Message: f.message(sz.n)}
}

// assembleTerms adds to pc the terms that v holds: a retained term to the
// retained bytes, a stage term to its stage (which then exists even when
// the model lacks it), a term of place stage as a stage of its own. Every
// sum is checked.
func (r *Resolved) assembleTerms(c *calc, k *perRow, sz *sizes, v variant, pc *piece) {
	ts := r.terms
	pc.nterms = len(ts.terms)
	for _, i := range ts.own {
		pc.tstage[i], pc.tpresent[i] = 0, false
	}
	for _, h := range ts.holding(v.rev) {
		b := r.termBytes(k, sz, h.i)
		if b < 0 {
			if c.err == nil {
				c.err = r.termFault(int(h.i), sz)
			}
			continue
		}
		switch h.place {
		case placeRetained:
			pc.retained = c.add(pc.retained, b, whatRetained)
			if pc.detail {
				pc.ret[pc.nret] = tensor{ts.terms[h.i].name, b}
				pc.nret++
			}
		case placeStage:
			pc.tstage[h.i], pc.tpresent[h.i] = b, true
			pc.ephemeral = max(pc.ephemeral, b)
		default:
			s := Stage(h.place)
			pc.stage[s] = c.add(pc.stage[s], b, stageWhat[s])
			pc.present[s] = true
			if pc.detail {
				pc.list(s, ts.terms[h.i].name, b)
			}
		}
	}
}

// stageCount is the number of stages a piece may report: the built-in
// ones, then one per term (those of place stage that the variant holds).
func (pc *piece) stageCount() int { return int(NumStages) + pc.nterms }

// stageOf returns stage i of stageCount: its name, bytes and whether the
// piece has it.
func (pc *piece) stageOf(i int) (name string, bytes int64, present bool) {
	if i < int(NumStages) {
		return stageNames[i], pc.stage[i], pc.present[i]
	}
	j := i - int(NumStages)
	return pc.terms.terms[j].name, pc.tstage[j], pc.tpresent[j]
}
