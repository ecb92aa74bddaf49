package estimator

// ParamCounts are a model's parameter counts (docs/model.md §14.2): the
// main model's total, its routed experts and the rest, the parameters
// active per token, and the multi-token-prediction modules (not in Total).
type ParamCounts struct {
	Total     int64 `json:"total"`
	Experts   int64 `json:"experts"`
	NonExpert int64 `json:"non_expert"`
	Active    int64 `json:"active"`
	MTP       int64 `json:"mtp"`
	// Tensors is the number of weight tensors of the main model's
	// checkpoint (modelled as per-expert tensors, gpt-oss's fused), and
	// MTPTensors the MTP modules' (without their copies of the embedding
	// and head). They are left out of the JSON, whose params object is
	// §14.4's; ParamReport carries them.
	Tensors    int64 `json:"-"`
	MTPTensors int64 `json:"-"`
}

// weightTally adds up the tensors of §14.2: parameters (every routed
// expert) and the bytes one GPU holds (xLocal routed experts per MoE
// layer, each tensor rounded to the allocator block before it is summed).
// Arithmetic is checked; the first overflow is kept in c.err.
type weightTally struct {
	c      calc
	round  int64
	b      int64 // base weight element bytes
	xLocal int64 // routed experts one GPU holds
	align  int64 // gpt-oss expert width alignment (1: none)
	mtp    bool  // adding the MTP modules' tensors
	hold   bool  // the GPU holds what is being added (false: MTP not included)

	params, experts, mtpParams int64
	tensors, mtpTensors        int64
	bytes, expertBytes         int64
}

// tallyWhat names the fields an overflow of the count involves (docs/model.md
// §1: the error names them; "lower one of these values").
const tallyWhat = "resident (the parameter count and bytes of model.vocab_size, model.hidden_size, " +
	"model.num_hidden_layers, model.num_experts, model.intermediate_size, model.moe_intermediate_size " +
	"and the model's other widths, resident.lora_rank)"

func (t *weightTally) mul(a, b int64) int64 { return t.c.mul(a, b, tallyWhat) }
func (t *weightTally) add(a, b int64) int64 { return t.c.add(a, b, tallyWhat) }

// rounded is the bytes of one tensor of elems elements of eb bytes.
func (t *weightTally) rounded(elems, eb int64) int64 {
	return t.c.roundUp(t.mul(elems, eb), t.round, tallyWhat)
}

// tensor adds n copies of a tensor of elems parameters (n layers' worth).
func (t *weightTally) tensor(elems, n int64) { t.tensorBytes(elems, n, t.b) }

// tensorBytes is tensor with elements of eb bytes (FP32 buffers).
func (t *weightTally) tensorBytes(elems, n, eb int64) {
	if n == 0 {
		return
	}
	p := t.mul(elems, n)
	if t.mtp {
		t.mtpParams = t.add(t.mtpParams, p)
		t.mtpTensors = t.add(t.mtpTensors, n)
	} else {
		t.params = t.add(t.params, p)
		t.tensors = t.add(t.tensors, n)
	}
	if t.hold {
		t.bytes = t.add(t.bytes, t.mul(t.rounded(elems, eb), n))
	}
}

// expertTensor adds the routed experts' tensors of n layers: params
// parameters per layer in tensors tensors, of which the GPU holds tensors
// of heldElems elements, heldCount of them per layer.
func (t *weightTally) expertTensor(params, tensors, heldElems, heldCount, n int64) {
	if n == 0 {
		return
	}
	p := t.mul(params, n)
	if t.mtp {
		t.mtpParams = t.add(t.mtpParams, p)
		t.mtpTensors = t.add(t.mtpTensors, t.mul(tensors, n))
	} else {
		t.params = t.add(t.params, p)
		t.experts = t.add(t.experts, p)
		t.tensors = t.add(t.tensors, t.mul(tensors, n))
	}
	if t.hold {
		b := t.mul(t.mul(t.rounded(heldElems, t.b), heldCount), n)
		t.bytes = t.add(t.bytes, b)
		t.expertBytes = t.add(t.expertBytes, b)
	}
}

// count adds every tensor of m (§14.2); with mtp the MTP modules too, held
// on the GPU when holdMTP.
func (m *archModel) count(t *weightTally, holdMTP bool) {
	V, H, L := m.V, m.H, m.L
	t.hold = true
	t.tensor(t.mul(V, H), 1) // embed_tokens
	if !m.tie {
		t.tensor(t.mul(V, H), 1) // lm_head
	}
	t.tensor(H, 1)           // model.norm
	t.tensor(H, t.mul(2, L)) // input_layernorm, post_attention_layernorm
	m.attention(t, m.nAttn)  // attention (MLA for DeepSeek-V3)
	m.gdn(t, L-m.nAttn)      // Qwen3-Next's other layers
	m.denseMLP(t, L-m.nMoE)  // layers outside the MoE set
	m.moe(t, m.nMoE)         // the MoE layers
	t.mtp, t.hold = true, holdMTP
	switch {
	case m.nmtp == 0:
	case m.fam == famDeepSeekV3:
		n := m.nmtp
		t.tensor(H, t.mul(2, n)) // its decoder layer's two norms
		m.attention(t, n)
		m.moe(t, n)
		t.tensor(H, t.mul(3, n))   // enorm, hnorm, shared_head.norm
		t.tensor(t.mul(2*H, H), n) // eh_proj
	case m.fam == famQwen3Next:
		n := m.nmtp
		t.tensor(t.mul(2*H, H), n) // mtp.fc
		t.tensor(H, t.mul(5, n))   // pre_fc_norm_embedding, pre_fc_norm_hidden, the layer's two norms, mtp.norm
		m.attention(t, n)
		m.moe(t, n)
	}
	t.mtp, t.hold = false, true
}

// attention adds n layers of attention: grouped-query (with Qwen3-Next's
// gate in q_proj) or DeepSeek-V3's multi-head latent attention.
func (m *archModel) attention(t *weightTally, n int64) {
	H, nh := m.H, m.nh
	if m.fam == famDeepSeekV3 {
		qk := m.dn + m.dr
		if m.qr == 0 {
			t.tensor(t.mul(H, t.mul(nh, qk)), n)
		} else {
			t.tensor(t.mul(H, m.qr), n)
			t.tensor(m.qr, n)
			t.tensor(t.mul(m.qr, t.mul(nh, qk)), n)
		}
		t.tensor(t.mul(H, m.kvr+m.dr), n)
		t.tensor(m.kvr, n)
		t.tensor(t.mul(m.kvr, t.mul(nh, m.dn+m.dv)), n)
		t.tensor(t.mul(t.mul(nh, m.dv), H), n)
		if m.ab {
			if m.qr > 0 {
				t.tensor(m.qr, n)
			}
			t.tensor(m.kvr+m.dr, n)
			t.tensor(H, n)
		}
		return
	}
	gq := int64(1)
	if m.fam == famQwen3Next {
		gq = 2
	}
	q, kv := t.mul(t.mul(nh, m.d), gq), t.mul(m.nkv, m.d)
	t.tensor(t.mul(H, q), n)
	t.tensor(t.mul(H, kv), t.mul(2, n))
	t.tensor(t.mul(t.mul(nh, m.d), H), n)
	if m.ab || m.fam == famQwen2MoE {
		t.tensor(q, n)
		t.tensor(kv, t.mul(2, n))
	}
	if m.ab && m.fam != famQwen2MoE && !m.isGeneric() {
		t.tensor(H, n)
	}
	if m.fam == famQwen3MoE || m.fam == famQwen3Next {
		t.tensor(m.d, t.mul(2, n))
	}
	if m.fam == famGptOss {
		t.tensor(nh, n) // sinks
	}
}

// gdnWidths are the Gated DeltaNet's qkv and value widths.
func (m *archModel) gdnWidths(t *weightTally) (qkv, z int64) {
	k, v := t.mul(m.Hk, m.Dk), t.mul(m.Hv, m.Dv)
	return t.add(t.mul(2, k), v), v
}

// gdn adds n Gated DeltaNet layers: Qwen3-Next's two input projections,
// or Qwen3.5's four of the same total width (one tensor per weight name
// of the checkpoint, §14.2, each rounded on its own).
func (m *archModel) gdn(t *weightTally, n int64) {
	if m.fam != famQwen3Next || n == 0 {
		return
	}
	H := m.H
	qkv, z := m.gdnWidths(t)
	if m.qwen35 {
		t.tensor(t.mul(H, qkv), n)            // in_proj_qkv: H (2 Hk Dk + Hv Dv)
		t.tensor(t.mul(H, z), n)              // in_proj_z: H Hv Dv
		t.tensor(t.mul(H, m.Hv), t.mul(2, n)) // in_proj_b, in_proj_a: H Hv each
	} else {
		t.tensor(t.mul(H, t.add(qkv, z)), n) // in_proj_qkvz: H (2 Hk Dk + 2 Hv Dv)
		t.tensor(t.mul(H, 2*m.Hv), n)        // in_proj_ba
	}
	t.tensor(t.mul(qkv, m.c), n) // conv1d
	t.tensor(m.Hv, t.mul(2, n))  // dt_bias, A_log
	t.tensor(m.Dv, n)            // norm
	t.tensor(t.mul(z, H), n)     // out_proj
}

// denseMLP adds n dense MLP layers.
func (m *archModel) denseMLP(t *weightTally, n int64) {
	if n == 0 {
		return
	}
	t.tensor(t.mul(m.H, m.F), t.mul(3, n))
	if m.mb {
		t.tensor(m.F, t.mul(2, n))
		t.tensor(m.H, n)
	}
}

// expertParams is P_e, one routed expert's parameters.
func (m *archModel) expertParams(t *weightTally) int64 {
	switch m.fam {
	case famMixtral:
		return t.mul(3, t.mul(m.H, m.F))
	case famGptOss:
		return t.add(t.mul(3, t.mul(m.H, m.F)), 2*m.F+m.H)
	}
	return t.mul(3, t.mul(m.H, m.M))
}

// alignedHF are gpt-oss's expert widths H and F rounded up to the
// expert alignment (§14.4's expert_align).
func (m *archModel) alignedHF(align int64) (int64, int64) {
	return ceilDiv(m.H, align) * align, ceilDiv(m.F, align) * align
}

// moe adds n MoE layers: the router, the routed experts and the shared
// expert.
func (m *archModel) moe(t *weightTally, n int64) {
	if n == 0 {
		return
	}
	H, X, XE := m.H, m.X, t.xLocal
	t.tensor(t.mul(H, X), n) // the router
	switch m.fam {
	case famGptOss:
		t.tensor(X, n) // router.bias
	case famDeepSeekV3:
		t.tensorBytes(X, n, 4) // e_score_correction_bias, FP32
	}
	switch m.fam {
	case famGptOss:
		// Fused over the experts: four tensors a layer, the GPU's slice
		// of each one tensor.
		h, f := m.alignedHF(t.align)
		t.expertTensor(t.mul(X, t.mul(H, 2*m.F)), 1, t.mul(XE, t.mul(h, 2*f)), 1, n)
		t.expertTensor(t.mul(X, 2*m.F), 1, t.mul(XE, 2*f), 1, n)
		t.expertTensor(t.mul(X, t.mul(m.F, H)), 1, t.mul(XE, t.mul(f, h)), 1, n)
		t.expertTensor(t.mul(X, H), 1, t.mul(XE, h), 1, n)
	default:
		w := m.M
		if m.fam == famMixtral {
			w = m.F
		}
		t.expertTensor(t.mul(X, t.mul(3, t.mul(H, w))), t.mul(3, X), t.mul(H, w), t.mul(3, XE), n)
	}
	if m.S > 0 {
		t.tensor(t.mul(H, m.S), t.mul(3, n))
		if m.fam == famQwen2MoE || m.fam == famQwen3Next {
			t.tensor(H, n) // shared_expert_gate
		}
	}
}

// Params counts m's parameters (§14.2).
func (m *archModel) params(round int64) (ParamCounts, *Error) {
	t := weightTally{round: max(round, 1), b: 1, xLocal: m.X, align: 1}
	m.count(&t, false)
	if t.c.err != nil {
		return ParamCounts{}, t.c.err
	}
	pc := ParamCounts{Total: t.params, Experts: t.experts, NonExpert: t.params - t.experts,
		MTP: t.mtpParams, Tensors: t.tensors, MTPTensors: t.mtpTensors}
	pe := m.expertParams(&t)
	pc.Active = pc.Total - t.mul(t.mul(m.nMoE, m.X-m.K), pe)
	if t.c.err != nil {
		return ParamCounts{}, t.c.err
	}
	return pc, nil
}
