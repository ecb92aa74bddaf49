package estimator

// The art profile's price of one piece (docs/model.md §13.4): ART's own
// integer arithmetic, quoted from its estimator, without allocator
// rounding. Every product is checked (calc); an overflow names the fields.

// artResolved holds the fields of §13.3 and §13.7 a resolved art config
// reads.
type artResolved struct {
	vocabMultiple          int64
	fusedFC1, sharedGate   bool
	stockHead, ckptFloor   bool
	gamma, omicron, rankR  int64
	mem                    *ProfileMemory
	warm, retainedObserved bool
	gpu                    gpuResolved // the GPU placement path (art_gpu_config.go)
}

// resolveArt reads §13.3's fields with their defaults. It runs before
// Resolve returns its errors, so it divides nothing.
func (c *Config) resolveArt() artResolved {
	b := func(p *bool) bool { return p == nil || *p }
	a := artResolved{
		vocabMultiple: orDefault(c.Head.PaddedVocabMultiple, defaultPaddedVocabMultiple),
		fusedFC1:      b(c.FC2.FusedFC1), sharedGate: b(c.FC2.SharedExpertGate),
		stockHead: b(c.Head.Stock), ckptFloor: b(c.Art.CheckpointFloor),
		gamma:   orDefault(c.Art.AdapterGradientBytesPerLayer, 0),
		omicron: orDefault(c.Art.AdapterGradientOutsideBytes, 0),
		rankR:   orDefault(c.Art.GDNOutProjLoRARank, 0),
		mem:     c.ProfileMemory,
		gpu:     c.resolveArtGPU(),
	}
	if a.mem != nil {
		a.warm = a.mem.WarmBytesPerToken != nil && a.mem.WarmPackedTokens != nil
		a.retainedObserved = a.mem.RetainedComputeBytesPerToken != nil
	}
	return a
}

// Field names used in the art profile's overflow messages.
const (
	whatArtOutputs = "request.rows x request.outputs (art outputs)"
	whatArtHead    = "head.chunk_rows x model.vocab_size (art head)"
	whatArtMoE     = "request.rows x model.num_experts_per_tok x fc2 widths (art MoE)"
	whatArtFloor   = "request.rows x model.num_hidden_layers x model.hidden_size (art checkpoint floor)"
	whatArtGDN     = "request.rows x model.linear_* (art GDN pending saves)"
	whatArtProfile = "request.rows x profile_memory rates (art learned profile)"
	whatArtTotal   = "request.rows x model widths (art price)"
	whatArtAdapter = "art.adapter_gradient_* (art adapter gradients)"
)

// coldTransientBytes is ART's _COLD_RECOMPUTE_TRANSIENT_BYTES, 64 MiB.
const coldTransientBytes = 64 << 20

// packedRowBytes is ART's _PACKED_PRICED_LOGICAL_ROW_BYTES, 12 x 512.
const packedRowBytes = 6144

// artKoef are the per-row coefficients of one revision's pieces: they
// depend on the config and the switches, not on the piece.
type artKoef struct {
	l, k, lam, eta int64 // logprobs, top-k, logits, hidden states
	g              bool
	stats          bool  // logprobs or top-k
	vp             int64 // padded vocabulary
	eager          bool  // head_eager_workspace: M95's head, else M51's

	outRow, actRow, mf, mg int64
	bRow, wRow, zRow       int64
	gdn                    bool  // the GDN pending floor applies
	pendRow, pendSeq, seg  int64 // Pend's per-row and per-sequence bytes; a segment's
}

// artKoef computes the coefficients of variant v (its head and FC2
// switches; gdn_early_release has no effect under art, §13.6).
func (r *Resolved) artKoef(c *calc, v variant) artKoef {
	a := &r.art
	k := artKoef{g: r.Grad, eager: v.eagerHead}
	o := r.Outputs
	if o.Logprobs {
		k.l = 1
	}
	k.k = o.TopK
	if o.Logits {
		k.lam = 1
	}
	if o.HiddenStates {
		k.eta = 1
	}
	k.stats = k.l == 1 || k.k > 0
	if a.vocabMultiple >= 1 {
		k.vp = ceilDiv(r.V, a.vocabMultiple) * a.vocabMultiple // <= 2^26 + 2^16
	}
	// Out(n) = n x (4l + 12k + 2 Vp lam + 2 H eta): §13.4, quoted.
	k.outRow = 4*k.l + 12*k.k + 2*k.vp*k.lam + 2*r.H*k.eta
	k.actRow = r.H * 2 * min(max(r.L/4+4, 4), 16)
	k.mf, k.mg = r.artMoE(v)
	if a.ckptFloor && k.g {
		k.bRow = c.mul(r.L, 2*r.H, whatArtFloor)
	}
	switch {
	case !a.ckptFloor:
	case k.g:
		k.wRow = k.mg
	default:
		k.wRow = c.add(k.mf, 8*r.H, whatArtFloor)
	}
	if r.K == 0 && r.F > 0 && !k.g {
		// Modelled as: F > 0 means ART's gated FC1 LoRA wraps every layer
		// (_dense_fc1_adapted); ART's 7F with an activation clamp is not.
		k.zRow = 2 * (6*r.F + 4*r.H)
	}
	k.gdn = k.g && a.ckptFloor && r.Hk > 0 && r.Hv%r.Hk == 0 && r.EP == 1 && !(r.K > 0 && k.mf == 0)
	kap := c.add(c.mul(2*r.Hk, r.Dk, whatArtGDN), c.mul(r.Hv, r.Dv, whatArtGDN), whatArtGDN)
	if k.gdn {
		// Pend(n, q), G's Shape.pending for q unshared sequences.
		hvdk, hvdv := c.mul(r.Hv, r.Dk, whatArtGDN), c.mul(r.Hv, r.Dv, whatArtGDN)
		inner := c.add(c.add(2*hvdk, hvdv, whatArtGDN), c.add(65*r.Hv, kap, whatArtGDN), whatArtGDN)
		row := c.add(2*inner, 12*r.Hv, whatArtGDN)
		row = c.add(row, 2*hvdv+4*r.Hv, whatArtGDN)
		if a.rankR > 0 {
			row = c.add(row, 2*hvdv+2*a.rankR, whatArtGDN)
		}
		k.pendRow = row
		k.pendSeq = r.artSequenceState(c, kap)
	}
	if a.mem != nil && r.Hk > 0 && k.g && k.l == 1 && k.k == 0 && k.lam == 0 && k.eta == 0 {
		// Only a packed-priced piece (§13.7: grad, logprobs only) adds q x
		// SEG; others never multiply by it, so its overflow is not theirs.
		k.seg = c.mul(r.artSequenceState(c, kap), 2, whatArtGDN)
	}
	return k
}

// artSequenceState is 4 Hv Dk Dv + 2 kap (w - 1), one sequence's GDN
// state and convolution bytes: Pend charges it per sequence, and a
// segment's SEG (§13.7) is twice it. Computed on its own, so that Pend does
// not overflow through a doubling it never uses.
func (r *Resolved) artSequenceState(c *calc, kap int64) int64 {
	state := c.mul(c.mul(4*r.Hv, r.Dk, whatArtGDN), r.Dv, whatArtGDN)
	conv := c.mul(2*kap, r.ConvKernel-1, whatArtGDN)
	return c.add(state, conv, whatArtGDN)
}

// artMoE is §13.4's MoE coefficients Mf and Mg (quoted,
// _moe_output_bytes_per_token): 0 when K = 0 or O != H, where ART declines
// to price. The fused FC1 term goes with the known-metadata branch (§13.6).
func (r *Resolved) artMoE(v variant) (mf, mg int64) {
	if r.K == 0 || r.O != r.H {
		return 0, 0
	}
	rows := r.K
	if r.EP > 1 {
		rows = (3*r.K + 1) / 2
	}
	phi := 2 * r.O
	if v.fc2Known && r.MetadataKnown {
		phi = r.I + 3*r.O
		if r.art.fusedFC1 {
			phi += 2*r.O + 2*r.I
		}
	}
	var sigma int64
	if r.SharedS > 0 {
		sigma = 2 * r.H
	}
	mf = rows*phi*2 + sigma // <= 1536 x 2^23 x 2
	mg = mf
	if r.art.sharedGate {
		mg += sigma
	}
	return mf, mg
}

// artPiece is a run of q consecutive sequences, each of s rows but the
// last, of last rows: n = (q - 1) s + last.
type artPiece struct {
	q, s, last int64
}

// rows is the piece's n.
func (p artPiece) rows() int64 { return (p.q-1)*p.s + p.last }

// artCost is one piece priced: the terms of §13.4 and the child's price of
// §13.5 (Fo, Q, rho and the four parts ART keeps for the rung).
type artCost struct {
	n, out               int64
	a, m, z, b, w, hc, g int64
	ig, ad, k0, pi       int64
	xf, xb               int64
	fo, q, rho           int64
	kret, kws, kig, kad  int64
	// With terms (docs/model.md §13.13): bOwn is ART's own B, floor0 a
	// floor beside the boundaries, bwd a backward part of its own, own
	// the largest alternative of its own; tp the terms' bytes.
	bOwn, floor0, bwd, own int64
	terms                  bool
	tp                     artTermParts
}

// artTargets is t_j = ceil(s_j x T / N), the labelled rows of a sequence
// of s_j rows (modelled as: one target per row, the labels spread evenly).
func (r *Resolved) artTargets(sj int64) int64 {
	if r.T == r.N {
		return sj
	}
	return ceilDiv(sj*r.T, r.N) // both < 2^31
}

// artPrice prices piece p as koefficients k give, into ac. lower prices
// it as ART's rejection bound does (_split_chunk_lower_cost): HL for HC,
// no GDN floor, no segments in the learned floor.
//
// held are the terms the revision holds (nil: none); each joins its part
// as §13.13 says.
func (r *Resolved) artPrice(c *calc, k *artKoef, p artPiece, lower bool, held []termRef, ac *artCost) {
	a := &r.art
	n := p.rows()
	*ac = artCost{n: n}
	ac.out = c.mul(n, k.outRow, whatArtOutputs)
	ac.a = c.mul(n, k.actRow, whatArtTotal)
	ac.m = c.mul(n, k.mf, whatArtMoE)
	ac.z = c.mul(n, k.zRow, whatArtTotal)
	ac.b = c.mul(n, k.bRow, whatArtFloor)
	ac.w = c.mul(n, k.wRow, whatArtMoE)
	if lower {
		ac.hc = r.artHeadBound(c, k, p)
	} else {
		ac.hc = r.artHead(c, k, p)
		if k.gdn {
			ac.g = c.add(c.mul(n, k.mg, whatArtMoE), c.add(c.mul(n, k.pendRow, whatArtGDN), c.mul(p.q, k.pendSeq, whatArtGDN), whatArtGDN), whatArtGDN)
		}
	}
	ac.ig = ac.b
	if a.gamma+a.omicron > 0 && ac.b > 0 {
		ac.ad = r.artAdapterWalk(c, n)
	}
	if ac.b > 0 && a.mem == nil {
		ac.k0 = coldTransientBytes
	}
	ac.bOwn = ac.b
	if len(held) > 0 {
		r.artJoinTerms(c, k, p, lower, held, ac)
	}
	pp := int64(0)
	if a.mem != nil {
		// Packed pricing: grad, logprobs only, every sequence at least 64
		// rows (the piece's last is its shortest).
		if k.g && k.l == 1 && k.k == 0 && k.lam == 0 && k.eta == 0 && p.last >= 64 {
			pp = 1
		}
		pi := c.mul(a.mem.BytesPerToken, n, whatArtProfile)
		if a.warm {
			pi = min(pi, c.mul(*a.mem.WarmBytesPerToken, max(*a.mem.WarmPackedTokens, n), whatArtProfile))
		}
		if pp == 1 {
			pi = c.add(pi, c.mul(n, packedRowBytes, whatArtProfile), whatArtProfile)
			if !lower {
				pi = c.add(pi, c.mul(p.q, k.seg, whatArtProfile), whatArtProfile)
			}
		}
		ac.pi = pi
	}
	ws := max(ac.w, ac.hc, ac.g)
	ret := max(ac.b, ac.floor0)
	ac.xf = c.add(ret, ws, whatArtTotal)
	ac.xb = c.add(c.add(ac.xf, ac.ig, whatArtTotal), c.add(ac.ad, ac.k0, whatArtTotal), whatArtTotal)
	if ac.bwd > 0 {
		ac.xb = c.add(ac.xb, ac.bwd, whatArtTotal)
	}
	ac.fo = r.withSafety(c, c.add(ac.out, max(ac.a, ac.m, ac.z, ac.xf, ac.pi, ac.own), whatArtTotal))
	ac.q = ac.fo
	if ac.bOwn > 0 { // ART prices a backward where it prices boundaries
		ac.q = max(ac.fo, r.withSafety(c, c.add(ac.out, ac.xb, whatArtTotal)))
	}
	ac.rho = ac.fo
	if a.retainedObserved && n <= 8*a.mem.PackedTokens {
		// The 8x trust window (§13.7 rule 2), on the retained part only.
		rate := c.add(c.mul(*a.mem.RetainedComputeBytesPerToken, n, whatArtProfile), c.mul(pp*packedRowBytes, n, whatArtProfile), whatArtProfile)
		ac.rho = min(ac.fo, r.withSafety(c, c.add(ac.out, max(ret, rate), whatArtTotal)))
	}
	ac.kret = c.add(ac.out, ret, whatArtTotal)
	ac.kws = c.add(c.add(ws, ac.k0, whatArtTotal), ac.bwd, whatArtTotal)
	ac.kig, ac.kad = ac.ig, ac.ad
}

// artJoinTerms evaluates the held terms for the piece and joins each to
// its part (docs/model.md §13.13): a replacing term stands in for ART's
// bytes there, an adding one is added; a stage of its own joins the
// forward's maximum. Lower prices the rejection bound: head_bound terms
// join its head, head and gdn_floor terms are not in it.
func (r *Resolved) artJoinTerms(c *calc, k *artKoef, p artPiece, lower bool, held []termRef, ac *artCost) {
	tp := &ac.tp
	r.artEvalTerms(c, k, p, ac, held, lower, tp)
	ac.terms = true
	ac.out = tp.part(c, artPlaceOutputs, ac.out)
	ac.a = tp.part(c, artPlaceActivations, ac.a)
	ac.m = tp.part(c, artPlaceMoE, ac.m)
	ac.z = tp.part(c, artPlaceDense, ac.z)
	ac.b = tp.part(c, artPlaceRetained, ac.b)
	ac.floor0 = tp.part(c, artPlaceRetainedFloor, 0)
	ac.w = tp.part(c, artPlaceWorkspace, ac.w)
	if lower {
		ac.hc = tp.part(c, artPlaceHeadBound, ac.hc)
	} else {
		ac.hc = tp.part(c, artPlaceHead, ac.hc)
	}
	ac.g = tp.part(c, artPlaceGDN, ac.g)
	ac.ig = tp.part(c, artPlaceInputGradient, ac.ig)
	ac.ad = tp.part(c, artPlaceAdapterGradients, ac.ad)
	ac.k0 = tp.part(c, artPlaceColdTransients, ac.k0)
	ac.bwd = tp.part(c, artPlaceBackward, 0)
	ac.own = tp.own
}

// artAdapterWalk is AD = omicron + max(gamma, L gamma - (L - 1) n H 2):
// ART's _adapter_gradient_walk over one chain of L layers, whose maximum
// lies at the first or the last layer.
func (r *Resolved) artAdapterWalk(c *calc, n int64) int64 {
	a := &r.art
	last := a.gamma
	boundary := n * r.H * 2 // < 2^53
	top := r.L * a.gamma    // < 2^61
	if r.L == 1 || boundary == 0 || (r.L-1) <= top/boundary {
		if lastLayer := top - (r.L-1)*boundary; lastLayer > last {
			last = lastLayer
		}
	}
	return c.add(a.omicron, last, whatArtAdapter)
}

// artHeadCounts are a piece's head counts per sequence, for a full one
// and for the last: c_j and t_j as artHeadRows defines them. artHeadRows
// and the terms' variables (artHeadVars) both start from them.
func (r *Resolved) artHeadCounts(k *artKoef, p artPiece) (cFull, cLast, tFull, tLast int64) {
	tFull, tLast = r.artTargets(p.s), r.artTargets(p.last)
	switch {
	case k.lam == 1 || k.k > 0:
		cFull, cLast = p.s, p.last
	case k.l == 1:
		cFull, cLast = tFull, tLast
	}
	return cFull, cLast, tFull, tLast
}

// artHeadRows are a piece's head rows (quoted, _head_projection_rows):
// c_j = s_j when logits or top-k are asked, else t_j with logprobs, else
// 0; the capacity rows h = min(C, sum c_j), the bound's h_lb = min(C, max
// c_j) and h_t = min(C, max t_j).
func (r *Resolved) artHeadRows(k *artKoef, p artPiece) (h, hlb, ht int64) {
	cFull, cLast, tFull, tLast := r.artHeadCounts(k, p)
	sum, maxC, maxT := cLast, cLast, tLast
	if p.q > 1 {
		sum += (p.q - 1) * cFull // <= n
		maxC, maxT = max(maxC, cFull), max(maxT, tFull)
	}
	return min(r.C, sum), min(r.C, maxC), min(r.C, maxT)
}

// artDense is D(x) = x x Vp x 2.
func artDense(c *calc, k *artKoef, x int64) int64 { return c.mul(x, 2*k.vp, whatArtHead) }

// artHead is the head workspace HC (quoted, M95's
// _group_head_workspace_bytes with head_eager_workspace, M51's without).
func (r *Resolved) artHead(c *calc, k *artKoef, p artPiece) int64 {
	h, _, _ := r.artHeadRows(k, p)
	if h == 0 || !r.art.stockHead {
		return 0
	}
	d := artDense(c, k, h)
	switch {
	case k.stats && k.eager:
		return c.add(c.mul(7, d, whatArtHead), r.artTargetBytes(c, k, p, h), whatArtHead)
	case k.stats && k.g && k.l == 1:
		return c.mul(3, d, whatArtHead)
	case k.stats:
		return d
	case k.eager: // logits only, grad or not
		return c.mul(3, d, whatArtHead)
	}
	return d
}

// artTargetBytes is TB, the statistics' index vectors (quoted,
// _head_target_bytes, one target per row):
// 128 h + 36 min(h q (l + k), n (l + k)) + 32 n l + 4 n k g.
func (r *Resolved) artTargetBytes(c *calc, k *artKoef, p artPiece, h int64) int64 {
	n := p.rows()
	lk := k.l + k.k
	tb := c.add(128*h, c.mul(36*min(h*p.q, n), lk, whatArtHead), whatArtHead)
	tb = c.add(tb, 32*n*k.l, whatArtHead)
	if k.g {
		tb = c.add(tb, c.mul(4*n, k.k, whatArtHead), whatArtHead)
	}
	return tb
}

// artHeadBound is the rejection bound's head HL (quoted: M95's 2x bound
// with head_eager_workspace, M51's 3x without).
func (r *Resolved) artHeadBound(c *calc, k *artKoef, p artPiece) int64 {
	h, hlb, ht := r.artHeadRows(k, p)
	if h == 0 || !r.art.stockHead {
		return 0
	}
	d := artDense(c, k, hlb)
	if !k.stats || !(k.g && k.l == 1) {
		return d
	}
	x := d
	if k.lam == 1 || k.k > 0 {
		x = artDense(c, k, ht)
	}
	mult := int64(3)
	if k.eager {
		mult = 2
	}
	return max(d, c.mul(mult, x, whatArtHead))
}
