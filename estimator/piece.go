package estimator

// Stage indexes the ephemeral stages of a piece, in the order they are
// reported.
type Stage int

// The ephemeral stages. They run one after another, so a piece's ephemeral
// peak is their maximum, never their sum.
const (
	StageActivations Stage = iota
	StageHead
	StageFC2
	StageGDN
	NumStages
)

var stageNames = [NumStages]string{"activations", "head", "fc2", "gdn"}

var stageWhat = [NumStages]string{whatActivation, whatHead + " (head stage)", whatFC2Out + " (fc2 stage)", whatGDN + " (gdn stage)"}

func (s Stage) String() string { return stageNames[s] }

// variant selects how a piece is priced: the baseline (all false), the
// candidate (the config's changes) or the lower bound (the baseline's head
// and fc2, the released GDN form).
type variant struct {
	eagerHead, fc2Known, gdnRelease bool
	// rev selects the terms the variant holds: holdBaseline,
	// holdCandidate or holdLower (the terms both revisions hold).
	rev uint8
}

func baselineVariant() variant { return variant{rev: holdBaseline} }

func (r *Resolved) candidateVariant() variant {
	return variant{
		eagerHead:  r.Changes.HeadEagerWorkspace,
		fc2Known:   r.Changes.FC2KnownStorage,
		gdnRelease: r.Changes.GDNEarlyRelease,
		rev:        holdCandidate,
	}
}

func lowerBoundVariant() variant { return variant{gdnRelease: true, rev: holdLower} }

// tensor is one allocation, already rounded to the allocator's block.
type tensor struct {
	name  string
	bytes int64
}

// A piece's tensor lists hold the model's own tensors and one per term:
// every retained output, and the stage with the most tensors (gdn, in the
// baseline: gdnTensors), plus MaxTerms.
const (
	maxRetainedTensors = numRetained + MaxTerms
	maxStageTensors    = len(gdnTensors) + MaxTerms
)

// piece is the memory of one piece of n rows: the whole request or one
// child of a split. It is a value with fixed arrays so that pricing a piece
// allocates nothing; a sweep prices thousands of them. The tensor lists
// are filled only when detail is set: the admission ladder needs totals.
type piece struct {
	n, p, t   int64
	retained  int64
	ephemeral int64
	stage     [NumStages]int64
	present   [NumStages]bool

	detail  bool
	ret     [maxRetainedTensors]tensor
	nret    int
	tensors [NumStages][maxStageTensors]tensor
	ntens   [NumStages]int

	// The stages of the terms placed in a stage of their own, by term
	// index (0 when the variant does not hold the term); see assemble.
	terms    *termSet
	nterms   int
	tstage   [MaxTerms]int64
	tpresent [MaxTerms]bool
}

// addTensor adds a tensor to stage s. It is small enough to inline, and
// adds without a check: assemble proves the stage sums cannot overflow, or
// re-adds them checked (see sizes.big). The listing, needed only for a
// breakdown, is out of line.
func (pc *piece) addTensor(s Stage, name string, bytes int64) {
	if pc.detail {
		pc.list(s, name, bytes)
	}
	pc.stage[s] += bytes
}

//go:noinline
func (pc *piece) list(s Stage, name string, bytes int64) {
	pc.tensors[s][pc.ntens[s]] = tensor{name, bytes}
	pc.ntens[s]++
}

// bigTensor is a size beyond which a sum of eight tensors could overflow.
const bigTensor = 1 << 59

// tensorBytes is rows x perRow bytes rounded up to the allocator block:
// one tensor. what names the fields whose product it is. Factors below
// 2^31 (the usual case) can neither overflow nor overflow when rounded,
// since the block is at most 2^30.
func (k *perRow) tensorBytes(c *calc, what string, rows, perRow int64) int64 {
	if (rows|perRow)>>31 != 0 {
		return c.roundUp(c.mul(rows, perRow, what), k.round, what)
	}
	v := rows * perRow
	if k.roundMask >= 0 {
		return (v + k.roundMask) &^ k.roundMask
	}
	return (v + k.round - 1) / k.round * k.round
}

// perRow holds the bytes per row (or per projected row) of every tensor
// whose size is proportional to a piece's rows. They depend only on the
// config, so a sweep computes them once per point, and pricing a tensor is
// one checked multiplication and a rounding. Within the field ranges none
// of these products can overflow (the largest, the GDN width x 2, stays
// below 2^44), so the only overflows are those of rows x perRow; checked
// step by step or at once, a product of factors >= 1 overflows alike.
type perRow struct {
	activations, hidden, checkpoints int64
	fc2Out, fc2In                    int64
	gdnFull, gdnQKV, gdnZ, gdnScalar int64
	logprobs, topkValues, topkIdx    int64 // per projected row
	logits                           int64 // per projected (or chunk) row: V x 2

	round, roundMask int64 // allocator block; block - 1 when a power of two, else -1

	// For the terms (when the config has any): FC2 routed rows per row,
	// the variables, and scratch space to evaluate them.
	routed int64
	vars   termVars
	stack  *[maxTermStack]int64
}

func (r *Resolved) perRow() perRow {
	var k perRow
	// activations: the trainer's per-token floor, clamp(L/4 + 4, 4, 16).
	factor := min(max(r.L/4+4, 4), 16)
	k.activations = r.H * r.B * factor
	k.hidden = r.H * 2
	k.checkpoints = r.RetainedPerRow
	routed := r.K
	if r.EP > 1 {
		routed = (3*r.K + 1) / 2 // ceil(1.5 x K)
	}
	k.routed = routed
	if r.terms != nil {
		k.vars.setConfig(r)
	}
	k.fc2Out = routed * r.O * r.B
	k.fc2In = routed * r.I * r.B
	qkv := 2*r.Hk*r.Dk + r.Hv*r.Dv
	z := r.Hv * r.Dv
	k.gdnFull = (qkv + z + 2*r.Hv) * 2
	k.gdnQKV, k.gdnZ, k.gdnScalar = qkv*2, z*2, r.Hv*2
	k.logprobs = 4
	k.topkValues, k.topkIdx = r.Outputs.TopK*4, r.Outputs.TopK*8
	k.logits = r.V * 2
	k.round, k.roundMask = r.Round, -1
	if r.Round&(r.Round-1) == 0 {
		k.roundMask = r.Round - 1
	}
	return k
}

// Field names used in overflow messages.
const (
	whatProjected  = "request.rows x request.projected_rows"
	whatLogprobs   = "request.projected_rows x 4"
	whatTopK       = "request.projected_rows x request.outputs.topk"
	whatLogits     = "request.projected_rows x model.vocab_size x 2"
	whatHidden     = "request.rows x model.hidden_size x 2"
	whatCheckpoint = "request.rows x budget.retained_per_row_bytes"
	whatActivation = "request.rows x model.hidden_size x fc2.dtype_bytes x model.num_hidden_layers"
	whatHead       = "head.chunk_rows x model.vocab_size x 2"
	whatFC2Out     = "request.rows x model.num_experts_per_tok x fc2.output_width x fc2.dtype_bytes"
	whatFC2In      = "request.rows x model.num_experts_per_tok x fc2.input_width x fc2.dtype_bytes"
	whatGDN        = "request.rows x GDN widths (model.linear_*) x 2"
	whatRetained   = "request.rows x budget.retained_per_row_bytes and request.outputs (retained bytes)"
	whatTotal      = "request.rows x model and fc2 widths (retained + ephemeral bytes)"
)

// The retained tensors, in the order of sizes.ret and of a breakdown.
const (
	retLogprobs = iota
	retTopKValues
	retTopKIndices
	retLogits
	retHidden
	retCheckpoints
	numRetained
)

// retainedNames name the retained tensors, by their index in sizes.ret.
var retainedNames = [numRetained]string{
	retLogprobs: "logprobs", retTopKValues: "topk_values", retTopKIndices: "topk_indices",
	retLogits: "logits", retHidden: "hidden_states", retCheckpoints: "checkpoints",
}

// gdnTensors are the GDN stage's tensors, as assemble adds them: the full
// width's three, then the four early release frees first. No stage holds
// more of the model's own tensors.
var gdnTensors = [...]string{"base_out", "lora_cat", "sum_out", "qkv", "z", "beta", "alpha"}

// sizes is every tensor a piece of n rows can hold, whatever the variant,
// each rounded to the allocator block. Pricing a variant from it is a few
// additions, so a sweep sizes each piece once for the baseline, the
// candidate and the lower bound.
type sizes struct {
	n, p, t  int64
	ret      [numRetained]int64 // 0: not requested
	retained int64

	activations           int64
	headD, headD2, headDt int64 // one chunk of BF16 logits, of FP32, of target rows
	fc2Out, fc2In         int64
	gdnFull, gdnQKV       int64
	gdnZ, gdnScalar       int64

	big bool // some tensor is at least bigTensor: stage sums need checks

	term      [MaxTerms]int64 // each term's tensor, rounded; -1: it fails here
	evaluated uint16          // bit i: term[i] is evaluated (see evalTerms)
}

// size fills sz for a piece of n rows (1 <= n <= N), with k = r.perRow().
// Overflows are left in c.
//
// p = ceil(n x P / N) and t = ceil(n x T / N): a piece projects and targets
// its share of the request's rows, rounded up.
func (r *Resolved) size(c *calc, k *perRow, n int64, sz *sizes) {
	*sz = sizes{n: n, p: n, t: n}
	if r.P != r.N { // the usual request projects every row: no division
		sz.p = ceilDiv(c.mul(n, r.P, whatProjected), r.N)
	}
	if r.T != r.N {
		sz.t = ceilDiv(c.mul(n, r.T, whatProjected), r.N)
	}
	p := sz.p

	// retained: requested outputs, each its own tensor, and checkpoints.
	out := r.Outputs
	if out.Logprobs {
		sz.ret[retLogprobs] = k.tensorBytes(c, whatLogprobs, p, k.logprobs)
	}
	if out.TopK > 0 {
		sz.ret[retTopKValues] = k.tensorBytes(c, whatTopK, p, k.topkValues)
		sz.ret[retTopKIndices] = k.tensorBytes(c, whatTopK, p, k.topkIdx)
	}
	if out.Logits {
		sz.ret[retLogits] = k.tensorBytes(c, whatLogits, p, k.logits)
	}
	if out.HiddenStates {
		sz.ret[retHidden] = k.tensorBytes(c, whatHidden, n, k.hidden)
	}
	if k.checkpoints > 0 {
		sz.ret[retCheckpoints] = k.tensorBytes(c, whatCheckpoint, n, k.checkpoints)
	}
	for _, b := range sz.ret {
		sz.retained = c.add(sz.retained, b, whatRetained)
	}

	sz.activations = k.tensorBytes(c, whatActivation, n, k.activations)

	chunk := min(p, r.C)
	sz.headD = k.tensorBytes(c, whatHead, chunk, k.logits)
	sz.headD2 = k.tensorBytes(c, whatHead, chunk, 2*k.logits)
	sz.headDt = k.tensorBytes(c, whatHead, min(sz.t, r.C), k.logits)

	if r.K > 0 {
		sz.fc2Out = k.tensorBytes(c, whatFC2Out, n, k.fc2Out)
		sz.fc2In = k.tensorBytes(c, whatFC2In, n, k.fc2In)
	}
	if r.Hk > 0 {
		sz.gdnFull = k.tensorBytes(c, whatGDN, n, k.gdnFull)
		sz.gdnQKV = k.tensorBytes(c, whatGDN, n, k.gdnQKV)
		sz.gdnZ = k.tensorBytes(c, whatGDN, n, k.gdnZ)
		sz.gdnScalar = k.tensorBytes(c, whatGDN, n, k.gdnScalar)
	}
	sz.big = max(sz.activations, sz.headD2, sz.fc2Out, sz.fc2In, sz.gdnFull, sz.gdnQKV) >= bigTensor
}

// assemble fills pc with the piece sz priced as v: its retained tensors and
// its ephemeral stages, the peak being their maximum.
func (r *Resolved) assemble(c *calc, k *perRow, sz *sizes, v variant, pc *piece) {
	// Reset field by field: clearing the tensor lists (most of the struct)
	// would cost more than pricing the variant.
	pc.n, pc.p, pc.t = sz.n, sz.p, sz.t
	pc.retained, pc.ephemeral = sz.retained, 0
	pc.stage = [NumStages]int64{}
	pc.present = [NumStages]bool{true, true, r.K > 0, r.Hk > 0}
	pc.nret, pc.ntens = 0, [NumStages]int{}
	listed := pc.detail
	if sz.big {
		pc.detail = true // the checked sums below read the lists
	}
	if pc.detail {
		for i, b := range sz.ret {
			if b > 0 { // a requested tensor is never empty
				pc.ret[pc.nret] = tensor{retainedNames[i], b}
				pc.nret++
			}
		}
	}

	pc.addTensor(StageActivations, "activations", sz.activations)
	r.assembleHead(c, sz, v, pc)

	// fc2: one MoE layer's routed rows, n x K (n x ceil(1.5 K) with EP).
	if r.K > 0 {
		pc.addTensor(StageFC2, "base_out", sz.fc2Out)
		pc.addTensor(StageFC2, "adapter_out", sz.fc2Out)
		if v.fc2Known && r.MetadataKnown {
			pc.addTensor(StageFC2, "input", sz.fc2In)
			pc.addTensor(StageFC2, "combined_out", sz.fc2Out)
		}
	}

	// gdn: one GDN LoRA projection, BF16, modelled as base_out, lora_cat
	// and sum_out of the full width live at the output addition, plus (in
	// the baseline) qkv, z, beta and alpha, which early release frees first.
	if r.Hk > 0 {
		pc.addTensor(StageGDN, gdnTensors[0], sz.gdnFull) // base_out
		pc.addTensor(StageGDN, gdnTensors[1], sz.gdnFull) // lora_cat
		pc.addTensor(StageGDN, gdnTensors[2], sz.gdnFull) // sum_out
		if !v.gdnRelease {
			pc.addTensor(StageGDN, gdnTensors[3], sz.gdnQKV)    // qkv
			pc.addTensor(StageGDN, gdnTensors[4], sz.gdnZ)      // z
			pc.addTensor(StageGDN, gdnTensors[5], sz.gdnScalar) // beta
			pc.addTensor(StageGDN, gdnTensors[6], sz.gdnScalar) // alpha
		}
	}

	if sz.big {
		pc.detail = listed
		for s := Stage(0); s < NumStages; s++ {
			var sum int64
			for _, t := range pc.tensors[s][:pc.ntens[s]] {
				sum = c.add(sum, t.bytes, stageWhat[s])
			}
			pc.stage[s] = sum
		}
		if !listed {
			pc.nret, pc.ntens = 0, [NumStages]int{}
		}
	}
	// The terms v holds (docs/model.md §8): a retained term adds to the retained
	// bytes, a term in a stage to that stage (which then exists even when
	// the model lacks it), a term of place stage is a stage of its own.
	// Written out here rather than called: calls are dear in WebAssembly.
	pc.terms, pc.nterms = r.terms, 0
	if ts := r.terms; ts != nil {
		pc.nterms = len(ts.terms)
		for _, i := range ts.own {
			pc.tstage[i], pc.tpresent[i] = 0, false
		}
		held, mask := ts.holding(v.rev)
		if sz.evaluated&mask != mask { // the first variant to price the piece with them
			r.evalTerms(k, sz, held)
		}
		for _, h := range held {
			b := sz.term[h.i]
			switch {
			case b < 0:
				if c.err == nil {
					c.err = r.termFault(int(h.i), sz)
				}
			case h.place == placeRetained:
				pc.retained = c.add(pc.retained, b, whatRetained)
				if pc.detail {
					pc.ret[pc.nret] = tensor{ts.terms[h.i].name, b}
					pc.nret++
				}
			case h.place == placeStage:
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
	for s := Stage(0); s < NumStages; s++ {
		pc.ephemeral = max(pc.ephemeral, pc.stage[s])
	}
}

// assembleHead adds the vocabulary-head workspace of docs/model.md §3's table.
// D = min(p, C) x V x 2 is one chunk of BF16 logits, Dt the same for target
// rows. The comparison max(D, 3 x Dt) is made on rounded tensors, since
// each buffer is its own allocation.
func (r *Resolved) assembleHead(c *calc, sz *sizes, v variant, pc *piece) {
	d := sz.headD
	stats := r.Outputs.Logprobs || r.Outputs.TopK > 0
	switch {
	case stats && v.eagerHead:
		pc.addTensor(StageHead, "logits_bf16", d)
		pc.addTensor(StageHead, "logits_fp32", sz.headD2)
		pc.addTensor(StageHead, "shifted_fp32", sz.headD2)
		pc.addTensor(StageHead, "exp_fp32", sz.headD2)
	case stats && r.Grad && r.T > 0:
		dt := sz.headDt
		if d >= c.mul(dt, 3, whatHead) {
			pc.addTensor(StageHead, "logits", d)
		} else {
			pc.addTensor(StageHead, "target_buffer_0", dt)
			pc.addTensor(StageHead, "target_buffer_1", dt)
			pc.addTensor(StageHead, "target_buffer_2", dt)
		}
	case !stats && r.Outputs.Logits && !r.Grad && v.eagerHead:
		pc.addTensor(StageHead, "local_logits", d)
		pc.addTensor(StageHead, "indexed_copy_0", d)
		pc.addTensor(StageHead, "indexed_copy_1", d)
	default:
		pc.addTensor(StageHead, "logits", d)
	}
}
