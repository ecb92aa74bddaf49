package estimator

import (
	"strconv"
)

// archModel is a model resolved for the resident count (docs/model.md
// §14.1): its family, every field with its default, and the layer sets of
// §14.2 counted. V and H are the Resolved's, set again at each point of a
// sweep along them; everything else is fixed once resolved.
type archModel struct {
	fam  family
	arch string
	// qwen35: Qwen3.5 (by architectures[0], else model_type), whose
	// checkpoint stores the GDN input projections as four tensors.
	qwen35 bool

	V, H, L      int64
	nh, nkv, d   int64
	F            int64 // dense MLP width; 0 when no layer is dense and none was given
	X, K, M      int64 // routed experts, top-k, expert width (Qwen*, DeepSeek-V3)
	S            int64 // shared expert width: S, or M x n_s for DeepSeek-V3
	qr, kvr      int64 // q_lora_rank (0: no q compression), kv_lora_rank
	dn, dr, dv   int64
	Hk, Dk, Hv   int64
	Dv, c        int64
	ab, mb, tie  bool
	dtype        string // torch_dtype, else dtype
	dtypeBytes   int64  // 0 when the dtype is not one of §14.1's
	nmtp         int64
	nAttn, nMoE  int64 // attention (full-attention for Qwen3-Next) and MoE layers
	nMoEAttn     int64 // layers both full-attention and MoE (Qwen3-Next)
	denseAndAttn int64 // layers both dense and full-attention (Qwen3-Next)
}

// isMoE reports whether the family routes tokens to experts.
func (m *archModel) isMoE() bool { return m.fam != famLlama && m.fam != famGenericDense }

// resolveArch resolves c's model for the resident count, and sets r's K,
// Hk, SharedS, ConvKernel and F by §14.1's rules (absent num_experts_per_tok
// of a named dense Llama is 0, absent linear_num_key_heads outside
// Qwen3-Next is 0, so sections 3 and 4 price the model the count
// describes). dtypeSet says resident.weight_dtype_bytes is set, which
// excuses an unknown dtype.
func resolveArch(c *Config, r *Resolved, dtypeSet bool) (archModel, ErrorList) {
	a := c.Model.arch()
	var errs ErrorList
	fam, arch, named, ferr := lookupFamily(a)
	if ferr != nil {
		return archModel{}, ErrorList{ferr}
	}
	m := archModel{fam: fam, arch: arch, V: r.V, H: r.H, L: r.L, qwen35: isQwen35(a)}
	present := func(key string) bool { return a.present == nil || a.present[key] }
	why := "resident parameter count"
	if fam == famGenericMoE || fam == famGenericDense {
		why += ", by the generic formula: " + arch + " has no formula of its own"
	}
	required := func(key string) {
		errs = append(errs, &Error{Field: "model." + key, Message: "required for " + arch + " (" + why + ")"})
	}
	// opt reads an optional integer: absent takes def (when named) or
	// preset (the Qwen3-Next default); need makes absence an error.
	opt := func(key string, p *int64, lo, hi, def, preset int64, need bool) int64 {
		if p == nil {
			switch {
			case !named:
				return preset
			case need:
				required(key)
			}
			return def
		}
		if *p < lo || *p > hi {
			errs = append(errs, &Error{Field: "model." + key, Message: "must be an integer in " + Group(lo) + ".." + Group(hi) + ", got " + Group(*p)})
			return def
		}
		return *p
	}
	if named {
		for _, key := range []string{"vocab_size", "hidden_size", "num_hidden_layers"} {
			if !present(key) {
				required(key)
			}
		}
	}
	deepseek, next := fam == famDeepSeekV3, fam == famQwen3Next
	qwen := fam == famQwen2MoE || fam == famQwen3MoE || next
	generic := fam == famGenericMoE

	m.nh = opt("num_attention_heads", a.NumAttentionHeads, 1, maxWidth, 1, 16, true)
	if !deepseek {
		m.nkv = opt("num_key_value_heads", a.NumKeyValueHeads, 1, maxWidth, m.nh, 2, false)
		m.d = opt("head_dim", a.HeadDim, 1, maxWidth, max(m.H/max(m.nh, 1), 1), 256, false)
	}
	// Experts and top-k.
	if m.isMoE() {
		m.X = m.resolveExperts(a, named, &errs)
		switch {
		case present("num_experts_per_tok"):
			m.K = r.K
		case a.ExpertsPerToken != nil:
			m.K = *a.ExpertsPerToken
		case named:
			required("num_experts_per_tok")
			m.K = 1 // reported once, as absent
		default:
			m.K = r.K
		}
		if m.X > 0 && (m.K < 1 || m.K > m.X) {
			errs = append(errs, &Error{Field: "model.num_experts_per_tok", Message: "must be in 1..num_experts (" + Group(m.X) + ") for " + arch + ", got " + Group(m.K)})
		}
		r.K = m.K
	} else if named && !present("num_experts_per_tok") {
		r.K = 0
	}
	if qwen || deepseek || generic {
		m.M = r.MoEWidth
		if named && !present("moe_intermediate_size") {
			required("moe_intermediate_size")
		}
	}
	// Layer sets (need L, and for Qwen* the sparse step and dense layers).
	m.countLayers(a, named, &errs)
	denseLayers := m.L - m.nMoE
	needF := fam == famLlama || fam == famMixtral || fam == famGptOss || fam == famGenericDense || deepseek || denseLayers > 0
	m.F = opt("intermediate_size", c.Model.IntermediateSize, 1, maxWidth, 0, 5120, needF)
	if c.Model.IntermediateSize != nil && *c.Model.IntermediateSize == 0 && !needF {
		m.F = 0 // the art profile's "no dense MLP" stays valid
		errs = dropField(errs, "model.intermediate_size")
	}
	switch {
	case fam == famQwen2MoE || next:
		m.S = opt("shared_expert_intermediate_size", c.Model.SharedExpertIntermediateSize, 0, maxWidth, 0, 512, false)
	case deepseek:
		ns := opt("n_shared_experts", a.NSharedExperts, 0, maxWidth, 0, 0, false)
		m.S = m.M * ns // both <= 2^20
	case generic && a.NSharedExperts != nil:
		ns := opt("n_shared_experts", a.NSharedExperts, 0, maxWidth, 0, 0, false)
		m.S = m.M * ns
	case generic:
		m.S = opt("shared_expert_intermediate_size", c.Model.SharedExpertIntermediateSize, 0, maxWidth, 0, 0, false)
	}
	if deepseek {
		m.qr = opt("q_lora_rank", a.QLoRARank, 0, maxWidth, 0, 0, false)
		m.kvr = opt("kv_lora_rank", a.KVLoRARank, 1, maxWidth, 1, 1, true)
		m.dn = opt("qk_nope_head_dim", a.QKNopeHeadDim, 1, maxWidth, 1, 1, true)
		m.dr = opt("qk_rope_head_dim", a.QKRopeHeadDim, 1, maxWidth, 1, 1, true)
		m.dv = opt("v_head_dim", a.VHeadDim, 1, maxWidth, 1, 1, true)
	}
	if next {
		for _, key := range []string{"linear_num_key_heads", "linear_key_head_dim", "linear_num_value_heads", "linear_value_head_dim"} {
			if named && !present(key) {
				required(key)
			}
		}
		m.Hk, m.Dk, m.Hv, m.Dv = r.Hk, r.Dk, r.Hv, r.Dv
		m.c = opt("linear_conv_kernel_dim", c.Model.LinearConvKernelDim, 1, 1<<10, 4, 4, false)
	} else if named && !present("linear_num_key_heads") {
		r.Hk = 0
	}
	m.ab = fam == famGptOss
	if a.AttentionBias != nil {
		m.ab = *a.AttentionBias
	}
	m.mb = fam == famLlama && a.MLPBias != nil && *a.MLPBias
	m.tie = a.TieWordEmbeddings != nil && *a.TieWordEmbeddings
	m.resolveDtype(a, dtypeSet, &errs)
	var mtp *int64
	var mtpKey string
	switch {
	case a.NumNextnPredictLayers != nil:
		mtp, mtpKey = a.NumNextnPredictLayers, "num_nextn_predict_layers"
	case a.MTPNumHiddenLayers != nil:
		mtp, mtpKey = a.MTPNumHiddenLayers, "mtp_num_hidden_layers"
	}
	if mtp != nil && (deepseek || next) {
		m.nmtp = opt(mtpKey, mtp, 0, 16, 0, 0, false)
	}
	r.SharedS, r.ConvKernel, r.F = m.S, max(m.c, 1), m.F
	if !next {
		r.ConvKernel = orDefault(c.Model.LinearConvKernelDim, 4)
	}
	return m, errs
}

// isQwen35 reports whether a names Qwen3.5 (architectures[0], else
// model_type), the Qwen3-Next family member whose checkpoint splits the
// GDN input projections in four (§14.2).
func isQwen35(a *ArchFields) bool {
	if len(a.Architectures) > 0 {
		switch a.Architectures[0] {
		case "Qwen3_5MoeForCausalLM", "Qwen3_5MoeForConditionalGeneration":
			return true
		}
		return false
	}
	return a.ModelType == "qwen3_5_moe" || a.ModelType == "qwen3_5_moe_text"
}

// resolveExperts reads X from its three names, which must agree.
func (m *archModel) resolveExperts(a *ArchFields, named bool, errs *ErrorList) int64 {
	names := []struct {
		key string
		p   *int64
	}{{"num_experts", a.NumExperts}, {"num_local_experts", a.NumLocalExperts}, {"n_routed_experts", a.NRoutedExperts}}
	var x int64
	first := ""
	for _, n := range names {
		if n.p == nil {
			continue
		}
		if first == "" {
			first, x = n.key, *n.p
			continue
		}
		if *n.p != x {
			*errs = append(*errs, &Error{Field: "model." + n.key, Message: Group(*n.p) + " disagrees with model." + first + " " + Group(x) + "; the names of the routed expert count must agree"})
			return 0
		}
	}
	switch {
	case first == "" && named:
		*errs = append(*errs, &Error{Field: "model.num_experts", Message: "required for " + m.arch + " (resident parameter count; also read as num_local_experts or n_routed_experts)"})
		return 0
	case first == "":
		return 512
	case x < 1 || x > 65536:
		*errs = append(*errs, &Error{Field: "model." + first, Message: "must be an integer in 1..65,536, got " + Group(x)})
		return 0
	}
	return x
}

// countLayers finds the MoE layers and, for Qwen3-Next, the full-attention
// layers (§14.2's layer sets), validating the fields that define them.
func (m *archModel) countLayers(a *ArchFields, named bool, errs *ErrorList) {
	L := m.L
	bad := func(key, msg string) { *errs = append(*errs, &Error{Field: "model." + key, Message: msg}) }
	inRange := func(key string, p *int64, lo, hi, def int64) int64 {
		if p == nil {
			return def
		}
		if *p < lo || *p > hi {
			bad(key, "must be an integer in "+Group(lo)+".."+Group(hi)+" (num_hidden_layers), got "+Group(*p))
			return def
		}
		return *p
	}
	// The layer sets are counted, not walked: L is whatever the config
	// holds (Resolve reports one out of range, and counts anyway), so a
	// walk over it would cost what a link asks. Each set is periodic in
	// the layer index, but for the layers a list names (mlp_only_layers,
	// layer_types), which are walked: they are as long as the input.
	const (
		moeNone = iota
		moeAll
		moeStep  // (i+1) % step == 0, but for the dense layers listed
		moeAfter // i >= kd and i % freq == 0
	)
	moeKind, step, kd, freq := moeNone, int64(1), int64(0), int64(1)
	var dense map[int64]bool
	switch m.fam {
	case famMixtral, famGptOss:
		moeKind = moeAll
	case famQwen2MoE, famQwen3MoE, famQwen3Next:
		moeKind = moeStep
	case famDeepSeekV3:
		moeKind = moeAfter
	case famGenericMoE:
		moeKind = moeStep
		if a.FirstKDenseReplace != nil || a.MoELayerFreq != nil {
			moeKind = moeAfter
		}
	}
	switch moeKind {
	case moeAfter:
		kd = inRange("first_k_dense_replace", a.FirstKDenseReplace, 0, L, 0)
		freq = inRange("moe_layer_freq", a.MoELayerFreq, 1, L, 1)
	case moeStep:
		step = inRange("decoder_sparse_step", a.DecoderSparseStep, 1, L, 1)
		dense = map[int64]bool{}
		for i, l := range a.MLPOnlyLayers {
			key := "mlp_only_layers[" + strconv.Itoa(i) + "]"
			switch {
			case l < 0 || l >= L:
				bad(key, "must be a layer in 0.."+Group(L-1)+", got "+Group(l))
			case dense[l]:
				bad(key, "repeats layer "+Group(l)+"; the entries must be distinct")
			}
			dense[l] = true
		}
	}
	isMoE := func(i int64) bool {
		switch moeKind {
		case moeAll:
			return true
		case moeStep:
			return !dense[i] && (i+1)%step == 0
		case moeAfter:
			return i >= kd && i%freq == 0
		}
		return false
	}
	// The full-attention layers of Qwen3-Next: listed, or every interval-th.
	interval := int64(4)
	if m.fam == famQwen3Next {
		switch {
		case len(a.LayerTypes) > 0:
			if int64(len(a.LayerTypes)) != L {
				bad("layer_types", "has "+Group(int64(len(a.LayerTypes)))+" entries; it must have num_hidden_layers ("+Group(L)+")")
			}
			for i, t := range a.LayerTypes {
				if t != "full_attention" && t != "linear_attention" {
					bad("layer_types["+strconv.Itoa(i)+"]", "must be full_attention or linear_attention, got "+strconv.Quote(t))
				}
			}
		default:
			// A count (1..2^20), not bounded by the layers as the sparse
			// step is: an interval above them leaves no full attention.
			if p := a.FullAttentionInterval; p != nil {
				if *p < 1 || *p > maxWidth {
					bad("full_attention_interval", "must be an integer in 1.."+Group(maxWidth)+", got "+Group(*p))
				} else {
					interval = *p
				}
			}
		}
	}
	if L < 1 {
		return // no layers (Resolve reports the range)
	}
	// The MoE layers.
	switch moeKind {
	case moeAll:
		m.nMoE = L
	case moeStep:
		m.nMoE = L / step
		for l := range dense {
			if l >= 0 && l < L && (l+1)%step == 0 {
				m.nMoE--
			}
		}
	case moeAfter:
		// the multiples of freq in kd..L-1 (kd >= 0, freq >= 1)
		if kd <= L-1 {
			first := kd / freq // the multiples below kd, and kd's own if it is one
			if kd%freq != 0 {
				first++
			}
			m.nMoE = (L-1)/freq - first + 1
		}
	}
	// The full-attention layers, and those both.
	switch {
	case m.fam != famQwen3Next:
		m.nAttn, m.nMoEAttn = L, m.nMoE
	case len(a.LayerTypes) > 0:
		for i, t := range a.LayerTypes {
			if i64 := int64(i); i64 < L && t == "full_attention" {
				m.nAttn++
				if isMoE(i64) {
					m.nMoEAttn++
				}
			}
		}
	default:
		m.nAttn = L / interval
		// both: (i+1) a multiple of lcm(step, interval), but for the
		// dense layers listed (Qwen3-Next's MoE layers are moeStep's)
		if s := step / gcd(step, interval); s <= L/interval {
			m.nMoEAttn = L / (s * interval)
		}
		for l := range dense {
			if l >= 0 && l < L && (l+1)%step == 0 && (l+1)%interval == 0 {
				m.nMoEAttn--
			}
		}
	}
	m.denseAndAttn = m.nAttn - m.nMoEAttn
}

// gcd is the greatest common divisor of a, b >= 1.
func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// dtypes are the weight dtypes §14.1 knows, with their element bytes.
var dtypes = map[string]int64{"bfloat16": 2, "float16": 2, "float32": 4}

// WeightDtypeBytes is the element size the resident count (§14.1) takes
// for a weight dtype as config.json names it; ok is false for a dtype it
// does not know (the count then takes bfloat16 and says so).
func WeightDtypeBytes(name string) (n int64, ok bool) {
	n, ok = dtypes[name]
	return n, ok
}

func (m *archModel) resolveDtype(a *ArchFields, dtypeSet bool, errs *ErrorList) {
	key := "torch_dtype"
	m.dtype = "bfloat16"
	switch {
	case a.TorchDtype != "":
		m.dtype = a.TorchDtype
	case a.Dtype != "":
		m.dtype, key = a.Dtype, "dtype"
	}
	m.dtypeBytes = dtypes[m.dtype]
	if m.dtypeBytes == 0 && !dtypeSet {
		*errs = append(*errs, &Error{Field: "model." + key, Message: "unknown dtype " + strconv.Quote(m.dtype) + "; known: bfloat16, float16, float32 (or set resident.weight_dtype_bytes)"})
	}
}

// dropField removes the errors naming field.
func dropField(errs ErrorList, field string) ErrorList {
	out := errs[:0]
	for _, e := range errs {
		if e.Field != field {
			out = append(out, e)
		}
	}
	return out
}
