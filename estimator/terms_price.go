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

// sizeTerms evaluates every term for the piece sz, whatever revision holds
// it: the memo of sizes serves all variants. A term that fails here is
// marked -1; the failure is an error only when a variant holding the term
// prices the piece (assembleTerms), so a term the baseline alone holds
// cannot make the candidate fail.
func (r *Resolved) sizeTerms(k *perRow, sz *sizes) {
	k.vars.setPiece(r, k, sz)
	st := k.stack
	if st == nil {
		st = new([maxTermStack]int64)
	}
	for i := range r.terms.terms {
		v, f := run(r.terms.terms[i].prog, &k.vars, st)
		if f.kind == faultNone {
			v, f = roundTerm(v, k.round)
		}
		if f.kind != faultNone {
			v = -1
		}
		sz.term[i] = v
	}
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
func (r *Resolved) assembleTerms(c *calc, sz *sizes, v variant, pc *piece) {
	ts := r.terms
	pc.nterms = len(ts.terms)
	for i := range ts.terms {
		t := &ts.terms[i]
		pc.tstage[i], pc.tpresent[i] = 0, false
		if t.holds&v.rev == 0 {
			continue
		}
		b := sz.term[i]
		if b < 0 {
			if c.err == nil {
				c.err = r.termFault(i, sz)
			}
			continue
		}
		switch t.place {
		case placeRetained:
			pc.retained = c.add(pc.retained, b, whatRetained)
			if pc.detail {
				pc.ret[pc.nret] = tensor{t.name, b}
				pc.nret++
			}
		case placeStage:
			pc.tstage[i], pc.tpresent[i] = b, true
		default:
			s := Stage(t.place)
			pc.stage[s] = c.add(pc.stage[s], b, stageWhat[s])
			pc.present[s] = true
			if pc.detail {
				pc.list(s, t.name, b)
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
