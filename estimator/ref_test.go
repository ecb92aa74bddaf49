package estimator

import (
	"math"
	"math/bits"
)

// This file is the test suite's own reading of docs/model.md:
// a small reference model written from its text, not from
// piece.go or admit.go. It favours being obviously right over being fast:
// every child of a rung is listed and priced (pieces are cached by rows,
// which only saves time), and the ladder is the list §4 writes.

// refModel is a resolved config as the reference reads docs/model.md §2.
type refModel struct {
	V, H, L, K, I, O, B      int64
	Hk, Dk, Hv, Dv           int64
	N, S, P, T               int64
	Grad                     bool
	Logprobs, Logits, Hidden bool
	TopK                     int64
	C                        int64
	Known                    bool
	EP                       int64
	Cap, InUse, Reserve      int64
	Safety, RPR, Round       int64
	Eager, FC2Known, Release bool  // the candidate's changes
	M                        int64 // moe_intermediate_size
	X                        int64 // routed experts: num_experts or an alias, else the resident count, else 0
	Terms                    []refTerm
	termsBad                 bool // a term does not compile: the config is invalid
}

// refFrom fills the defaults of docs/model.md §2: P = N, T = P, I =
// moe_intermediate_size, O = hidden_size, retained_per_row_bytes = grad ?
// L x H x b : 0.
func refFrom(c Config) refModel {
	m := refModel{
		V: c.Model.VocabSize, H: c.Model.HiddenSize, L: c.Model.NumHiddenLayers,
		K: c.Model.NumExpertsPerTok, Hk: c.Model.LinearNumKeyHeads, Dk: c.Model.LinearKeyHeadDim,
		Hv: c.Model.LinearNumValueHeads, Dv: c.Model.LinearValueHeadDim,
		N: c.Request.Rows, S: c.Request.SequenceRows, Grad: c.Request.Grad,
		Logprobs: c.Request.Outputs.Logprobs, Logits: c.Request.Outputs.Logits,
		Hidden: c.Request.Outputs.HiddenStates, TopK: c.Request.Outputs.TopK,
		C: c.Head.ChunkRows, B: c.FC2.DtypeBytes, Known: c.FC2.LoRAMetadataKnown, EP: c.FC2.ExpertParallel,
		Cap: c.Budget.CapacityBytes, InUse: c.Budget.InUseBytes, Reserve: c.Budget.ReservePermille,
		Safety: c.Budget.SafetyPercent, Round: c.AllocatorRoundBytes,
		Eager: c.Changes.HeadEagerWorkspace, FC2Known: c.Changes.FC2KnownStorage, Release: c.Changes.GDNEarlyRelease,
	}
	m.P = m.N
	if c.Request.ProjectedRows != nil {
		m.P = *c.Request.ProjectedRows
	}
	m.T = m.P
	if c.Request.TargetRows != nil {
		m.T = *c.Request.TargetRows
	}
	m.I = c.Model.MoEIntermediateSize
	if c.FC2.InputWidth != nil {
		m.I = *c.FC2.InputWidth
	}
	m.O = m.H
	if c.FC2.OutputWidth != nil {
		m.O = *c.FC2.OutputWidth
	}
	if c.Budget.RetainedPerRowBytes != nil {
		m.RPR = *c.Budget.RetainedPerRowBytes
	} else if m.Grad {
		m.RPR = m.L * m.H * m.B
	}
	m.M = c.Model.MoEIntermediateSize
	// §8: the first expert count the config names; else, with a resident
	// group, its count of a MoE model (its own reference checks the
	// count); else 0.
	if a := c.Model.ArchFields; a != nil && a.NumExperts != nil {
		m.X = *a.NumExperts
	} else if a != nil && a.NumLocalExperts != nil {
		m.X = *a.NumLocalExperts
	} else if a != nil && a.NRoutedExperts != nil {
		m.X = *a.NRoutedExperts
	} else if x, ok := c.RoutedExperts(); ok && c.Resident != nil {
		m.X = x
	}
	m.Terms, m.termsBad = refTerms(c.Terms)
	return m
}

// refArith is int64 arithmetic that notes any result beyond int64 (and then
// saturates, so that a broken plan never looks small).
type refArith struct{ overflow bool }

func (a *refArith) mul(x, y int64) int64 {
	hi, lo := bits.Mul64(uint64(x), uint64(y))
	if hi != 0 || lo > math.MaxInt64 {
		a.overflow = true
		return math.MaxInt64
	}
	return int64(lo)
}

func (a *refArith) add(x, y int64) int64 {
	s, carry := bits.Add64(uint64(x), uint64(y), 0)
	if carry != 0 || s > math.MaxInt64 {
		a.overflow = true
		return math.MaxInt64
	}
	return int64(s)
}

// tensor is the bytes of one tensor: the product of its factors, rounded
// up to a multiple of allocator_round_bytes.
func (m *refModel) tensor(a *refArith, factors ...int64) int64 {
	v := int64(1)
	for _, f := range factors {
		v = a.mul(v, f)
	}
	blocks := v / m.Round
	if v%m.Round != 0 {
		blocks++
	}
	return a.mul(blocks, m.Round)
}

// refVariant is how a piece is priced; who says which terms it holds:
// "baseline", "candidate" or "lower" (the lower bound: the terms both
// revisions hold).
type refVariant struct {
	eager, fc2Known, release bool
	who                      string
}

func (m *refModel) candidate() refVariant {
	return refVariant{m.Eager, m.FC2Known, m.Release, "candidate"}
}

var (
	refBaseline   = refVariant{who: "baseline"}
	refLowerBound = refVariant{release: true, who: "lower"} // baseline head and fc2, released GDN
)

type refTensor struct {
	name  string
	bytes int64
}

// refPiece is one piece of n rows, as docs/model.md §3 prices it.
type refPiece struct {
	n, p, t   int64
	retained  []refTensor
	stages    [NumStages][]refTensor // activations, head, fc2, gdn
	present   [NumStages]bool
	own       []refTensor // the stages of terms of place stage, in config order
	ret       int64
	stage     [NumStages]int64
	ephemeral int64
}

func ceilRef(a, b int64) int64 { return (a + b - 1) / b }

func (m *refModel) piece(a *refArith, n int64, v refVariant) refPiece {
	pc := refPiece{n: n}
	pc.p = ceilRef(a.mul(n, m.P), m.N)
	pc.t = ceilRef(a.mul(n, m.T), m.N)
	p, t := pc.p, pc.t
	keep := func(name string, b int64) {
		pc.retained = append(pc.retained, refTensor{name, b})
		pc.ret = a.add(pc.ret, b)
	}
	put := func(s Stage, name string, b int64) {
		pc.stages[s] = append(pc.stages[s], refTensor{name, b})
		pc.present[s] = true
		pc.stage[s] = a.add(pc.stage[s], b)
	}

	// retained(n): the requested outputs, each its own tensor, and the
	// checkpoints.
	if m.Logprobs {
		keep("logprobs", m.tensor(a, p, 4))
	}
	if m.TopK > 0 {
		keep("topk_values", m.tensor(a, p, m.TopK, 4))
		keep("topk_indices", m.tensor(a, p, m.TopK, 8))
	}
	if m.Logits {
		keep("logits", m.tensor(a, p, m.V, 2))
	}
	if m.Hidden {
		keep("hidden_states", m.tensor(a, n, m.H, 2))
	}
	if m.RPR > 0 {
		keep("checkpoints", m.tensor(a, n, m.RPR))
	}

	// activations: n x H x b x clamp(L/4 + 4, 4, 16).
	f := m.L/4 + 4
	if f < 4 {
		f = 4
	}
	if f > 16 {
		f = 16
	}
	put(StageActivations, "activations", m.tensor(a, n, m.H, m.B, f))

	// head: the table of docs/model.md §3.
	cp, ct := p, t
	if cp > m.C {
		cp = m.C
	}
	if ct > m.C {
		ct = m.C
	}
	d := m.tensor(a, cp, m.V, 2)
	stats := m.Logprobs || m.TopK > 0
	switch {
	case stats && v.eager: // 7D
		put(StageHead, "logits_bf16", d)
		put(StageHead, "logits_fp32", m.tensor(a, cp, m.V, 4))
		put(StageHead, "shifted_fp32", m.tensor(a, cp, m.V, 4))
		put(StageHead, "exp_fp32", m.tensor(a, cp, m.V, 4))
	case stats && m.Grad && m.T > 0: // max(D, 3 Dt)
		dt := m.tensor(a, ct, m.V, 2)
		if 3*dt > d {
			put(StageHead, "target_buffer_0", dt)
			put(StageHead, "target_buffer_1", dt)
			put(StageHead, "target_buffer_2", dt)
		} else {
			put(StageHead, "logits", d)
		}
	case !stats && m.Logits && !m.Grad && v.eager: // 3D
		put(StageHead, "local_logits", d)
		put(StageHead, "indexed_copy_0", d)
		put(StageHead, "indexed_copy_1", d)
	default: // D
		put(StageHead, "logits", d)
	}

	// fc2: one MoE layer.
	if m.K > 0 {
		perTok := m.K
		if m.EP > 1 {
			perTok = m.K + (m.K+1)/2 // ceil(1.5 K)
		}
		r := a.mul(n, perTok)
		put(StageFC2, "base_out", m.tensor(a, r, m.O, m.B))
		put(StageFC2, "adapter_out", m.tensor(a, r, m.O, m.B))
		if v.fc2Known && m.Known {
			put(StageFC2, "input", m.tensor(a, r, m.I, m.B))
			put(StageFC2, "combined_out", m.tensor(a, r, m.O, m.B))
		}
	}

	// gdn: one GDN LoRA projection, BF16.
	if m.Hk > 0 {
		qkv := 2*m.Hk*m.Dk + m.Hv*m.Dv
		z := m.Hv * m.Dv
		w := qkv + z + m.Hv + m.Hv
		put(StageGDN, "base_out", m.tensor(a, n, w, 2))
		put(StageGDN, "lora_cat", m.tensor(a, n, w, 2))
		put(StageGDN, "sum_out", m.tensor(a, n, w, 2))
		if !v.release {
			put(StageGDN, "qkv", m.tensor(a, n, qkv, 2))
			put(StageGDN, "z", m.tensor(a, n, z, 2))
			put(StageGDN, "beta", m.tensor(a, n, m.Hv, 2))
			put(StageGDN, "alpha", m.tensor(a, n, m.Hv, 2))
		}
	}

	// The terms the variant holds (docs/model.md §8), after the built-in tensors.
	m.addTerms(a, &pc, v, keep, put)

	for s := range pc.stage {
		pc.ephemeral = max(pc.ephemeral, pc.stage[s])
	}
	for _, t := range pc.own {
		pc.ephemeral = max(pc.ephemeral, t.bytes)
	}
	return pc
}

// dominant is the largest stage, the first in stage order on a tie (the
// package's documented choice), the terms' own stages after the others.
func (pc *refPiece) dominant() string {
	best, bytes := Stage(0).String(), pc.stage[0]
	for s := Stage(1); s < NumStages; s++ {
		if pc.stage[s] > bytes {
			best, bytes = s.String(), pc.stage[s]
		}
	}
	for _, t := range pc.own {
		if t.bytes > bytes {
			best, bytes = t.name, t.bytes
		}
	}
	return best
}

// sequences is m = ceil(N / s).
func (m *refModel) sequences() int64 { return ceilRef(m.N, m.S) }

// childRows lists the rows of the k children of a rung: child i takes
// sequences floor(i m / k) up to floor((i+1) m / k); every sequence has s
// rows but the last, which has what is left of N.
func (m *refModel) childRows(k int64) []int64 {
	seqs := m.sequences()
	out := make([]int64, k)
	for i := int64(0); i < k; i++ {
		lo, hi := i*seqs/k, (i+1)*seqs/k
		out[i] = min(hi*m.S, m.N) - lo*m.S
	}
	return out
}

// ladder is the rungs after the whole request: 2, 4, 8, ... while k < m,
// then m; none when the request is a single sequence.
func (m *refModel) ladder() []int64 {
	seqs := m.sequences()
	var ks []int64
	for k := int64(2); k < seqs; k *= 2 {
		ks = append(ks, k)
	}
	if seqs > 1 {
		ks = append(ks, seqs)
	}
	return ks
}

// refRung is one plan: k children.
type refRung struct {
	k        int64
	largest  int64 // rows of the largest child
	ret      int64 // sum over children
	eph      int64 // max over children
	required int64
	piece    refPiece // the largest child
}

type refPricer struct {
	m     *refModel
	a     refArith
	cache map[refVariant]map[int64]refPiece
}

func newRefPricer(m *refModel) *refPricer {
	return &refPricer{m: m, cache: map[refVariant]map[int64]refPiece{}}
}

func (rp *refPricer) piece(n int64, v refVariant) refPiece {
	if rp.cache[v] == nil {
		rp.cache[v] = map[int64]refPiece{}
	}
	if pc, ok := rp.cache[v][n]; ok {
		return pc
	}
	pc := rp.m.piece(&rp.a, n, v)
	rp.cache[v][n] = pc
	return pc
}

// rung prices k children: floor((sum retained + max ephemeral) x safety /
// 100).
func (rp *refPricer) rung(k int64, v refVariant) refRung {
	r := refRung{k: k}
	for _, n := range rp.m.childRows(k) {
		pc := rp.piece(n, v)
		r.ret = rp.a.add(r.ret, pc.ret)
		r.eph = max(r.eph, pc.ephemeral)
		if n > r.largest {
			r.largest, r.piece = n, pc
		}
	}
	total := rp.a.add(r.ret, r.eph)
	// floor(total x safety / 100) without an intermediate beyond the result.
	r.required = rp.a.add(rp.a.mul(total/100, rp.m.Safety), (total%100)*rp.m.Safety/100)
	return r
}

func (m *refModel) available() int64 {
	return max(0, m.Cap-m.InUse-m.Cap*m.Reserve/1000)
}

// refOutcome is one revision's decision.
type refOutcome struct {
	decision Decision
	children int64
	rung     refRung // chosen, or the last tried when refused
}

func (rp *refPricer) decide(v refVariant) refOutcome {
	avail := rp.m.available()
	whole := rp.rung(1, v)
	if whole.required <= avail {
		return refOutcome{Admit, 1, whole}
	}
	last := whole
	for _, k := range rp.m.ladder() {
		last = rp.rung(k, v)
		if last.required <= avail {
			return refOutcome{Split, k, last}
		}
	}
	return refOutcome{Refuse, 0, last}
}

// refResult is the reference's estimate. overflow means the package must
// return an error: some plan it has to price does not fit in int64.
type refResult struct {
	available  int64
	lower      int64
	base, cand refOutcome
	overflow   bool
}

func refEstimate(c Config) refResult {
	m := refFrom(c)
	rp := newRefPricer(&m)
	res := refResult{available: m.available()}
	res.lower = rp.rung(m.sequences(), refLowerBound).required
	res.base = rp.decide(refBaseline)
	res.cand = rp.decide(m.candidate())
	res.overflow = rp.a.overflow || m.termsBad
	return res
}
