package estimator

// ResidentConfig is the "resident" group (docs/model.md §14.4): with it,
// the memory already on the GPU (weights, LoRA adapters, their gradients,
// master copy and optimizer state, a framework reserve) is computed from
// the model and becomes budget.in_use_bytes unless that is given. Nil
// fields take the defaults of §14.4.
type ResidentConfig struct {
	WeightDtypeBytes      *int64   `json:"weight_dtype_bytes,omitempty"`
	ExpertAlign           *int64   `json:"expert_align,omitempty"`
	IncludeMTP            bool     `json:"include_mtp,omitempty"`
	LoRARank              *int64   `json:"lora_rank,omitempty"`
	LoRATargets           []string `json:"lora_targets,omitempty"`
	LoRADtypeBytes        *int64   `json:"lora_dtype_bytes,omitempty"`
	GradBytes             *int64   `json:"grad_bytes,omitempty"`
	MasterWeights         *bool    `json:"master_weights,omitempty"`
	OptimizerMoments      *int64   `json:"optimizer_moments,omitempty"`
	MomentBytes           *int64   `json:"moment_bytes,omitempty"`
	FrameworkReserveBytes int64    `json:"framework_reserve_bytes,omitempty"`
	// set names the keys a decoded JSON group held (null ones included);
	// nil (a group built in Go) counts every field as given. A baseline's
	// group replaces only its set fields of the config's (docs/model.md §11).
	set map[string]bool
}

// residentModel is a config's resolved resident group: the model and
// every setting with its default. Resolved holds a pointer to it, shared
// by copies (it is never changed once resolved); the bytes are computed
// at the Resolved's own hidden_size, vocab_size, expert parallelism,
// rounding and capacity, so a sweep along them recomputes them.
type residentModel struct {
	m                        archModel
	b, align                 int64
	includeMTP               bool
	rank                     int64
	targets                  []string
	bl, bg, bmw, moments, bm int64
	z                        int64
}

// ResidentResult is one revision's resident memory, as the result of
// §14.4 shows it. Source is "resident" when in_use_bytes is the computed
// resident bytes, "in_use_bytes" when the config gave its own.
type ResidentResult struct {
	Source       string `json:"source"`
	Architecture string `json:"architecture"`
	// Assumed is set when the architecture has no formula of its own: what
	// the generic count assumed of it (§14.2).
	Assumed               string      `json:"assumed,omitempty"`
	Params                ParamCounts `json:"params"`
	ExpertParallel        int64       `json:"expert_parallel"`
	LocalExperts          int64       `json:"local_experts"`
	WeightDtypeBytes      int64       `json:"weight_dtype_bytes"`
	WeightsBytes          Bytes       `json:"weights_bytes"`
	ExpertWeightsBytes    Bytes       `json:"expert_weights_bytes"`
	NonExpertWeightsBytes Bytes       `json:"non_expert_weights_bytes"`
	LoRA                  LoRAResult  `json:"lora"`
	FrameworkReserveBytes Bytes       `json:"framework_reserve_bytes"`
	ResidentBytes         Bytes       `json:"resident_bytes"`
	InUseBytes            Bytes       `json:"in_use_bytes"`
}

// LoRAResult is the adapters one GPU holds: their parameters (expert
// adapters for its local experts only) and bytes.
type LoRAResult struct {
	Rank           int64    `json:"rank"`
	Targets        []string `json:"targets"`
	Params         int64    `json:"params"`
	ExpertParams   int64    `json:"expert_params"`
	WeightsBytes   Bytes    `json:"weights_bytes"`
	GradBytes      Bytes    `json:"grad_bytes"`
	MasterBytes    Bytes    `json:"master_bytes"`
	OptimizerBytes Bytes    `json:"optimizer_bytes"`
}

// resolveResident resolves c's resident group into r (nothing without
// one). The model's fields are checked here; the bytes, which depend on
// fields a sweep moves, in crossCheck.
func resolveResident(c *Config, r *Resolved) ErrorList {
	if c.Resident == nil {
		return nil
	}
	rc := c.Resident
	var errs ErrorList
	m, merrs := resolveArch(c, r, rc.WeightDtypeBytes != nil)
	errs = append(errs, merrs...)
	rm := &residentModel{m: m}
	oneOf := func(key string, p *int64, def int64, allowed ...int64) int64 {
		if p == nil {
			return def
		}
		for _, v := range allowed {
			if *p == v {
				return v
			}
		}
		list := ""
		for i, v := range allowed {
			if i > 0 {
				list += ", "
			}
			list += Group(v)
		}
		errs = append(errs, &Error{Field: "resident." + key, Message: "must be one of " + list + ", got " + Group(*p)})
		return def
	}
	inRange := func(key string, p *int64, def, lo, hi int64) int64 {
		if p == nil {
			return def
		}
		if *p < lo || *p > hi {
			errs = append(errs, &Error{Field: "resident." + key, Message: "must be an integer in " + Group(lo) + ".." + Group(hi) + ", got " + Group(*p)})
			return def
		}
		return *p
	}
	rm.b = oneOf("weight_dtype_bytes", rc.WeightDtypeBytes, max(m.dtypeBytes, 2), 1, 2, 4)
	rm.align = inRange("expert_align", rc.ExpertAlign, 1, 1, 4096)
	rm.includeMTP = rc.IncludeMTP
	defRank := int64(1)
	if !m.isMoE() {
		defRank = 8
	}
	rm.rank = inRange("lora_rank", rc.LoRARank, defRank, 0, 65536)
	defBl := rm.b
	if defBl != 2 && defBl != 4 {
		defBl = 2
	}
	rm.bl = oneOf("lora_dtype_bytes", rc.LoRADtypeBytes, defBl, 2, 4)
	rm.bg = oneOf("grad_bytes", rc.GradBytes, 4, 2, 4)
	if (rc.MasterWeights == nil || *rc.MasterWeights) && rm.bl < 4 {
		rm.bmw = 4
	}
	rm.moments = inRange("optimizer_moments", rc.OptimizerMoments, 2, 0, 2)
	rm.bm = oneOf("moment_bytes", rc.MomentBytes, 4, 1, 2, 4)
	if rc.FrameworkReserveBytes < 0 || rc.FrameworkReserveBytes > r.Capacity {
		errs = append(errs, rangeError("resident.framework_reserve_bytes", 0, r.Capacity, "capacity_bytes", rc.FrameworkReserveBytes))
	}
	rm.z = rc.FrameworkReserveBytes
	if len(merrs) == 0 {
		rm.targets, merrs = m.checkTargets(rc.LoRATargets)
		errs = append(errs, merrs...)
	}
	r.res = rm
	// An explicit in_use_bytes wins (case 3). Modelled as: 0, the
	// default, is "absent", since the config format has no absent
	// integer; a measurement of nothing at all in use is not a case
	// that needs a resident group.
	r.inUseSet = c.Budget.InUseBytes != 0
	return errs
}

// residentBytes are the bytes of §14.4 at r's hidden_size, vocab_size,
// expert parallelism and rounding.
type residentBytes struct {
	params           ParamCounts
	xLocal           int64
	weights, expertW int64 // B_w and its routed-expert part B_we
	lora             LoRAResult
	adapters         int64 // A_w + A_g + A_m + A_o
	total            int64 // resident_bytes
}

// compute prices rm at r's fields. The error is an overflow, or E not
// dividing the routed experts.
func (rm *residentModel) compute(r *Resolved) (residentBytes, *Error) {
	m := rm.m
	m.V, m.H = r.V, r.H
	if m.isMoE() {
		m.K = r.K        // active parameters follow a swept top-k
		m.M = r.MoEWidth // and the experts a swept moe_intermediate_size
	}
	var out residentBytes
	if m.isMoE() {
		if m.X%r.EP != 0 {
			return out, &Error{Field: "fc2.expert_parallel", Message: Group(r.EP) + " does not divide the " + Group(m.X) + " routed experts of " + m.arch,
				Code: ErrExpertParallelDoesNotDivide}
		}
		out.xLocal = m.X / r.EP
	}
	pc, err := m.params(r.Round)
	if err != nil {
		return out, err
	}
	out.params = pc
	t := weightTally{round: r.Round, b: rm.b, xLocal: out.xLocal, align: rm.align}
	m.count(&t, rm.includeMTP)
	lt := loraTally{c: &t.c, round: r.Round, rank: rm.rank, xLocal: out.xLocal, align: rm.align,
		bl: rm.bl, bmw: rm.bmw, bm: rm.bm}
	if rm.rank > 0 {
		for _, name := range rm.targets {
			m.adapt(&lt, name)
		}
	}
	out.weights, out.expertW = t.bytes, t.expertBytes
	l := LoRAResult{Rank: rm.rank, Targets: rm.targets, Params: t.c.add(lt.dense, lt.expert, tallyWhat), ExpertParams: lt.expert}
	l.WeightsBytes = Bytes(lt.wBytes)
	l.GradBytes = Bytes(t.c.add(t.c.roundUp(t.c.mul(lt.dense, rm.bg, tallyWhat), r.Round, tallyWhat),
		t.c.roundUp(t.c.mul(lt.expert, rm.bg, tallyWhat), r.Round, tallyWhat), tallyWhat))
	l.MasterBytes = Bytes(lt.mBytes)
	l.OptimizerBytes = Bytes(t.c.mul(rm.moments, lt.oBytes, tallyWhat))
	out.lora = l
	sum := t.c.add(int64(l.WeightsBytes), int64(l.GradBytes), tallyWhat)
	sum = t.c.add(sum, int64(l.MasterBytes), tallyWhat)
	sum = t.c.add(sum, int64(l.OptimizerBytes), tallyWhat)
	out.adapters = sum
	out.total = t.c.add(t.c.add(out.weights, sum, tallyWhat), rm.z, tallyWhat)
	if t.c.err != nil {
		return residentBytes{}, t.c.err
	}
	return out, nil
}

// applyResident computes r's resident memory and, when in_use_bytes is
// not given, makes it in_use_bytes, refusing weights or a resident total
// beyond the capacity (§14.4, case 2).
func (r *Resolved) applyResident() *Error {
	rm := r.res
	// The limits that relate a resident field to one a sweep moves
	// (Resolve has checked them at the config's own values).
	if m := rm.m; m.isMoE() && (r.K < 1 || r.K > m.X) {
		return &Error{Field: "model.num_experts_per_tok", Message: "must be in 1..num_experts (" + Group(m.X) + ") for " + m.arch + ", got " + Group(r.K)}
	}
	if r.L != rm.m.L && !r.inUseSet {
		return &Error{Field: "model.num_hidden_layers", Message: "must be " + Group(rm.m.L) +
			" (the config's own) where the resident group computes in_use_bytes: it counts its layer sets from the config; give in_use_bytes to sweep the layers, got " + Group(r.L)}
	}
	if rm.z > r.Capacity {
		return rangeError("resident.framework_reserve_bytes", 0, r.Capacity, "capacity_bytes", rm.z)
	}
	rb, err := rm.compute(r)
	if err != nil {
		return err
	}
	if r.inUseSet {
		return nil
	}
	capacity := Bytes(r.Capacity)
	if rb.weights > r.Capacity {
		msg := "the " + rm.m.arch + " weights are " + Bytes(rb.weights).String() + " per GPU at fc2.expert_parallel " + Group(r.EP) +
			", more than budget.capacity_bytes " + capacity.String()
		if rm.m.isMoE() {
			msg += "; routed experts are " + Group(rb.expertW) + " bytes of them, divided by fc2.expert_parallel"
		}
		return &Error{Field: "resident", Message: msg, Code: ErrWeightsDoNotFit}
	}
	if rb.total > r.Capacity {
		return &Error{Field: "resident", Message: Bytes(rb.total).String() + " resident per GPU (weights " + Group(rb.weights) +
			", adapters and optimizer " + Group(rb.adapters) + ", framework " + Group(rm.z) +
			") exceed budget.capacity_bytes " + capacity.String()}
	}
	r.InUse = rb.total
	return nil
}

// Resident is r's resident block for a result, nil without a resident
// group. r has been checked (Resolve, or Check after a Set), so computing
// it again cannot fail.
func (r *Resolved) Resident() *ResidentResult {
	if r.res == nil {
		return nil
	}
	rb, err := r.res.compute(r)
	if err != nil {
		return nil
	}
	rr := &ResidentResult{
		Source: "resident", Architecture: r.res.m.arch, Params: rb.params,
		ExpertParallel: r.EP, LocalExperts: rb.xLocal, WeightDtypeBytes: r.res.b,
		WeightsBytes: Bytes(rb.weights), ExpertWeightsBytes: Bytes(rb.expertW),
		NonExpertWeightsBytes: Bytes(rb.weights - rb.expertW), LoRA: rb.lora,
		FrameworkReserveBytes: Bytes(r.res.z), ResidentBytes: Bytes(rb.total), InUseBytes: Bytes(r.InUse),
	}
	if r.res.m.isGeneric() {
		rr.Assumed = GenericAssumed(r.res.m.arch)
	}
	if rr.LoRA.Targets == nil {
		rr.LoRA.Targets = []string{}
	}
	if r.inUseSet {
		rr.Source = "in_use_bytes"
	}
	return rr
}

// AdaptersBytes is what the adapters hold on the GPU beside the weights:
// their weights, gradients, master copy and optimizer moments (the
// "adapters and optimizer" of §14.4's messages).
func (rr *ResidentResult) AdaptersBytes() Bytes {
	l := rr.LoRA
	return l.WeightsBytes + l.GradBytes + l.MasterBytes + l.OptimizerBytes
}
