package estimator

import "headroom/estimator/internal/termexpr"

// Pricing the terms of docs/model.md §8: each term is one tensor of a piece,
// evaluated with the piece's variables and those of the resolved config
// it belongs to, and rounded to the allocator block like any other.

// setPiece fills the variables of the piece sz: n, p, t, r = n x routed,
// D = min(p, C) x V x 2 and Dt = min(t, C) x V x 2, unrounded as docs/model.md
// §8 defines them. Within the field ranges none of these can overflow (D
// < 2^31 x 2^27).
func (v *termVars) setPiece(r *Resolved, k *perRow, sz *sizes) {
	v[varN], v[varP], v[varT] = sz.n, sz.p, sz.t
	v[varR] = sz.n * k.routed
	v[varD] = min(sz.p, r.C) * r.V * 2
	v[varDt] = min(sz.t, r.C) * r.V * 2
}

// evalTerms evaluates, for the piece sz, the terms of held (those a
// variant holds) not evaluated yet, rounded, and keeps them in sz: a term
// is evaluated the first time a variant holding it prices the piece (the
// memo of sizes serves every variant). A term that fails is kept as -1;
// the failure is an error only for a variant that holds the term, so a
// term the baseline alone holds cannot make the candidate fail, and the
// lower bound evaluates only the terms both hold.
func (r *Resolved) evalTerms(k *perRow, sz *sizes, held []termRef) {
	k.vars.setPiece(r, k, sz)
	st := k.stack
	if st == nil {
		st = new([maxTermStack]int64)
	}
	for _, h := range held {
		if sz.evaluated&(1<<h.i) == 0 {
			sz.term[h.i] = r.termValue(k, st, h.i)
			sz.evaluated |= 1 << h.i
		}
	}
}

// termValue evaluates term i with the variables in k, rounded; -1 when it
// fails.
func (r *Resolved) termValue(k *perRow, st *[maxTermStack]int64, i uint8) int64 {
	t := &r.terms.terms[i]
	var v int64
	var ok bool
	if t.chain { // in line, without a stack: calls are dear in WebAssembly
		prog := t.prog
		v, ok = prog[0].Arg, true
		if prog[0].Src == termexpr.SrcVar {
			v = k.vars[v]
		}
		for _, in := range prog[1:] {
			b := in.Arg
			if in.Src == termexpr.SrcVar {
				b = k.vars[b]
			}
			switch {
			case in.Op == termexpr.OpAdd:
				s := v + b
				ok = ok && (s^v)&(s^b) >= 0
				v = s
			case uint64(v+1<<31) < 1<<32 && uint64(b+1<<31) < 1<<32:
				v *= b
			default:
				var fits bool
				v, fits = termexpr.MulChecked(v, b)
				ok = ok && fits
			}
		}
		ok = ok && v >= 0
	} else {
		v, ok = termexpr.RunFast(t.prog, k.vars[:], st)
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
		var f termexpr.Fault
		if v, f = roundTerm(v, k.round); f.Kind != termexpr.FaultNone {
			v = -1
		}
	}
	return v
}

// roundTerm rounds a term's value up to the allocator block; 0 stays 0.
func roundTerm(v, unit int64) (int64, termexpr.Fault) {
	var c calc
	v = c.roundUp(v, unit, "")
	if c.err != nil {
		return 0, termexpr.Fault{Kind: termexpr.FaultOverflow}
	}
	return v, termexpr.Fault{}
}

// termFault re-runs term i for the piece sz to say why it failed: the
// error path, so it may allocate.
func (r *Resolved) termFault(i int, sz *sizes) *Error {
	k := r.perRow()
	k.vars.setPiece(r, &k, sz)
	ct := &r.terms.terms[i]
	v, f := termexpr.Run(ct.prog, k.vars[:], new([maxTermStack]int64))
	if f.Kind == termexpr.FaultNone {
		_, f = roundTerm(v, k.round)
	}
	return &Error{Field: ct.field, Message: f.Message(sz.n)}
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
