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
}

func baselineVariant() variant { return variant{} }

func (r *Resolved) candidateVariant() variant {
	return variant{
		eagerHead:  r.Changes.HeadEagerWorkspace,
		fc2Known:   r.Changes.FC2KnownStorage,
		gdnRelease: r.Changes.GDNEarlyRelease,
	}
}

func lowerBoundVariant() variant { return variant{gdnRelease: true} }

// tensor is one allocation, already rounded to the allocator's block.
type tensor struct {
	name  string
	bytes int64
}

const (
	maxRetainedTensors = 6
	maxStageTensors    = 7
)

// piece is the memory of one piece of n rows: the whole request or one
// child of a split. It is a value with fixed arrays so that pricing a piece
// allocates nothing; a sweep prices hundreds of thousands of them.
type piece struct {
	n, p, t   int64
	retained  int64
	ephemeral int64
	stage     [NumStages]int64
	present   [NumStages]bool

	ret     [maxRetainedTensors]tensor
	nret    int
	tensors [NumStages][maxStageTensors]tensor
	ntens   [NumStages]int
}

func (pc *piece) addRetained(c *calc, name string, bytes int64) {
	pc.ret[pc.nret] = tensor{name, bytes}
	pc.nret++
	pc.retained = c.add(pc.retained, bytes, whatRetained)
}

func (pc *piece) addTensor(c *calc, s Stage, name string, bytes int64) {
	pc.tensors[s][pc.ntens[s]] = tensor{name, bytes}
	pc.ntens[s]++
	pc.present[s] = true
	pc.stage[s] = c.add(pc.stage[s], bytes, stageWhat[s])
}

// alloc returns the bytes of a tensor of a x b x c x d bytes, rounded up to
// the allocator block. what names the fields whose product it is.
func (r *Resolved) alloc(c *calc, what string, factors ...int64) int64 {
	v := int64(1)
	for _, f := range factors {
		v = c.mul(v, f, what)
	}
	return c.roundUp(v, r.Round, what+" rounded to allocator_round_bytes")
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

// price fills pc with the memory of a piece of n rows (1 <= n <= N) priced
// as v. Overflows are left in c.
//
// p = ceil(n x P / N) and t = ceil(n x T / N): a piece projects and targets
// its share of the request's rows, rounded up.
func (r *Resolved) price(c *calc, n int64, v variant, pc *piece) {
	*pc = piece{n: n}
	pc.p = ceilDiv(c.mul(n, r.P, whatProjected), r.N)
	pc.t = ceilDiv(c.mul(n, r.T, whatProjected), r.N)
	p, t := pc.p, pc.t

	// retained: requested outputs, each its own tensor, and checkpoints.
	out := r.Outputs
	if out.Logprobs {
		pc.addRetained(c, "logprobs", r.alloc(c, whatLogprobs, p, 4))
	}
	if out.TopK > 0 {
		pc.addRetained(c, "topk_values", r.alloc(c, whatTopK, p, out.TopK, 4))
		pc.addRetained(c, "topk_indices", r.alloc(c, whatTopK, p, out.TopK, 8))
	}
	if out.Logits {
		pc.addRetained(c, "logits", r.alloc(c, whatLogits, p, r.V, 2))
	}
	if out.HiddenStates {
		pc.addRetained(c, "hidden_states", r.alloc(c, whatHidden, n, r.H, 2))
	}
	if r.RetainedPerRow > 0 {
		pc.addRetained(c, "checkpoints", r.alloc(c, whatCheckpoint, n, r.RetainedPerRow))
	}

	// activations: the trainer's per-token floor, clamp(L/4 + 4, 4, 16).
	factor := min(max(r.L/4+4, 4), 16)
	pc.addTensor(c, StageActivations, "activations", r.alloc(c, whatActivation, n, r.H, r.B, factor))

	r.priceHead(c, v, pc, p, t)

	// fc2: one MoE layer's routed rows.
	if r.K > 0 {
		routed := r.K
		if r.EP > 1 {
			routed = (3*r.K + 1) / 2 // ceil(1.5 x K)
		}
		rows := c.mul(n, routed, whatFC2Out)
		outBytes := r.alloc(c, whatFC2Out, rows, r.O, r.B)
		pc.addTensor(c, StageFC2, "base_out", outBytes)
		pc.addTensor(c, StageFC2, "adapter_out", outBytes)
		if v.fc2Known && r.MetadataKnown {
			pc.addTensor(c, StageFC2, "input", r.alloc(c, whatFC2In, rows, r.I, r.B))
			pc.addTensor(c, StageFC2, "combined_out", outBytes)
		}
	}

	// gdn: one GDN LoRA projection, BF16, modelled as base_out, lora_cat
	// and sum_out of the full width live at the output addition, plus (in
	// the baseline) qkv, z, beta and alpha, which early release frees first.
	if r.Hk > 0 {
		qkv := 2*r.Hk*r.Dk + r.Hv*r.Dv
		z := r.Hv * r.Dv
		w := qkv + z + 2*r.Hv
		full := r.alloc(c, whatGDN, n, w, 2)
		pc.addTensor(c, StageGDN, "base_out", full)
		pc.addTensor(c, StageGDN, "lora_cat", full)
		pc.addTensor(c, StageGDN, "sum_out", full)
		if !v.gdnRelease {
			pc.addTensor(c, StageGDN, "qkv", r.alloc(c, whatGDN, n, qkv, 2))
			pc.addTensor(c, StageGDN, "z", r.alloc(c, whatGDN, n, z, 2))
			pc.addTensor(c, StageGDN, "beta", r.alloc(c, whatGDN, n, r.Hv, 2))
			pc.addTensor(c, StageGDN, "alpha", r.alloc(c, whatGDN, n, r.Hv, 2))
		}
	}

	for s := Stage(0); s < NumStages; s++ {
		pc.ephemeral = max(pc.ephemeral, pc.stage[s])
	}
}

// priceHead adds the vocabulary-head workspace of section 3's table.
// D = min(p, C) x V x 2 is one chunk of BF16 logits, Dt the same for target
// rows. The comparison max(D, 3 x Dt) is made on rounded tensors, since
// each buffer is its own allocation.
func (r *Resolved) priceHead(c *calc, v variant, pc *piece, p, t int64) {
	d := r.alloc(c, whatHead, min(p, r.C), r.V, 2)
	stats := r.Outputs.Logprobs || r.Outputs.TopK > 0
	switch {
	case stats && v.eagerHead:
		d2 := r.alloc(c, whatHead, min(p, r.C), r.V, 4)
		pc.addTensor(c, StageHead, "logits_bf16", d)
		pc.addTensor(c, StageHead, "logits_fp32", d2)
		pc.addTensor(c, StageHead, "shifted_fp32", d2)
		pc.addTensor(c, StageHead, "exp_fp32", d2)
	case stats && r.Grad && r.T > 0:
		dt := r.alloc(c, whatHead, min(t, r.C), r.V, 2)
		if d >= c.mul(dt, 3, whatHead) {
			pc.addTensor(c, StageHead, "logits", d)
		} else {
			pc.addTensor(c, StageHead, "target_buffer_0", dt)
			pc.addTensor(c, StageHead, "target_buffer_1", dt)
			pc.addTensor(c, StageHead, "target_buffer_2", dt)
		}
	case !stats && r.Outputs.Logits && !r.Grad && v.eagerHead:
		pc.addTensor(c, StageHead, "local_logits", d)
		pc.addTensor(c, StageHead, "indexed_copy_0", d)
		pc.addTensor(c, StageHead, "indexed_copy_1", d)
	default:
		pc.addTensor(c, StageHead, "logits", d)
	}
}
