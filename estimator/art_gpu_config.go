package estimator

// The art profile's GPU placement path (docs/model.md §15): on a CUDA
// device ART admits a request through its graph placement ladder instead of
// its estimator path. These are the fields that path reads, in the group
// "art" beside §13.3's; each is a pointer left nil at its default, so a
// config that does not use them marshals as it did before.

// ArtGPUConfig holds the GPU placement path's fields (§15.6). It is
// embedded in ArtConfig, so its fields sit in the JSON group "art".
type ArtGPUConfig struct {
	// GPUPlacement picks the path: nil or false is the estimator path
	// (ART off CUDA, §13), true the GPU placement path (ART on CUDA).
	GPUPlacement *bool `json:"gpu_placement,omitempty"`
	// BackwardState is ART's ForwardOptions.backward_state as a code:
	// 0 auto (the default), 1 gpu, 2 cpu, 3 replay.
	BackwardState *int64 `json:"backward_state,omitempty"`
	// AllowCPUOffload and AllowReplay are ART's options of the same names
	// (nil: true).
	AllowCPUOffload *bool `json:"allow_cpu_offload,omitempty"`
	AllowReplay     *bool `json:"allow_replay,omitempty"`
	// OutputDevice is ART's output_device as a code: 0 auto, 1 model (the
	// default), 2 cpu.
	OutputDevice *int64 `json:"output_device,omitempty"`
	// GradientCorrection is the stale-gradient correction's policy: 0 none,
	// 1 when_available (ART's default), 2 always.
	GradientCorrection *int64 `json:"gradient_correction,omitempty"`
	// HostMemoryBytes, HostAvailableBytes and HostRanks make ART's
	// host_memory_budget: the host's limit, what is free of it, and the
	// local ranks sharing it.
	HostMemoryBytes    *int64 `json:"host_memory_bytes,omitempty"`
	HostAvailableBytes *int64 `json:"host_available_bytes,omitempty"`
	HostRanks          *int64 `json:"host_ranks,omitempty"`
	// LoRASlotBytes are the trained slot's adapter weights (nil: the
	// resident group's adapter weights, else 0). Which of their gradients
	// do not exist yet is §13.3's adapter_gradient_* fields.
	LoRASlotBytes *int64 `json:"lora_slot_bytes,omitempty"`
}

// The codes of backward_state, output_device and gradient_correction, in
// the order of ART's literals.
const (
	gpuStateAuto int64 = iota
	gpuStateGPU
	gpuStateCPU
	gpuStateReplay
)

const (
	gpuOutAuto int64 = iota
	gpuOutModel
	gpuOutCPU
)

const (
	gpuCorrectionNone int64 = iota
	gpuCorrectionWhenAvailable
	gpuCorrectionAlways
)

var (
	gpuStateNames      = [...]string{"auto", "gpu", "cpu", "replay"}
	gpuOutNames        = [...]string{"auto", "model", "cpu"}
	gpuCorrectionNames = [...]string{"none", "when_available", "always"}
)

// defaultHostMemoryBytes is the host limit a config that names none gets:
// 256 GiB, one rank's share of a typical 8-GPU node's 2 TiB (a guess,
// written down in §15.6).
const defaultHostMemoryBytes = 256 << 30

// artGPUFields are the registry's rows for §15.6, after §13.3's.
var artGPUFields = []*Field{
	optBoolF("art.gpu_placement", "gpu_placement", false, "ART's GPU placement path (on CUDA); false: its estimator path (art profile)", func(c *Config) **bool { return &c.Art.GPUPlacement }),
	{Path: "art.backward_state", Key: "backward_state", Kind: IntField, OneOf: []int64{0, 1, 2, 3}, Optional: true,
		Doc: "where the backward state lives: 0 auto, 1 gpu, 2 cpu, 3 replay (GPU path)", opt: func(c *Config) **int64 { return &c.Art.BackwardState }},
	optBoolF("art.allow_cpu_offload", "allow_cpu_offload", true, "the backward state may move to the host (GPU path)", func(c *Config) **bool { return &c.Art.AllowCPUOffload }),
	optBoolF("art.allow_replay", "allow_replay", true, "the backward state may be dropped and replayed (GPU path)", func(c *Config) **bool { return &c.Art.AllowReplay }),
	{Path: "art.output_device", Key: "output_device", Kind: IntField, OneOf: []int64{0, 1, 2}, Optional: true,
		Doc: "where the outputs go: 0 auto, 1 model (default), 2 cpu (GPU path)", opt: func(c *Config) **int64 { return &c.Art.OutputDevice }},
	{Path: "art.gradient_correction", Key: "gradient_correction", Kind: IntField, OneOf: []int64{0, 1, 2}, Optional: true,
		Doc: "stale-gradient correction: 0 none, 1 when_available (default), 2 always (GPU path)", opt: func(c *Config) **int64 { return &c.Art.GradientCorrection }},
	optF("art.host_memory_bytes", "host_memory_bytes", 0, 1<<50, "host memory limit (GPU path; default 256 GiB)", func(c *Config) **int64 { return &c.Art.HostMemoryBytes }),
	optF("art.host_available_bytes", "host_available_bytes", 0, 1<<50, "host memory free (GPU path; default the limit)", func(c *Config) **int64 { return &c.Art.HostAvailableBytes }),
	optF("art.host_ranks", "host_ranks", 1, 1024, "ranks sharing the host (GPU path; default 1)", func(c *Config) **int64 { return &c.Art.HostRanks }),
	optF("art.lora_slot_bytes", "lora_slot_bytes", 0, 1<<40, "trained adapter weights (GPU path; default the resident group's)", func(c *Config) **int64 { return &c.Art.LoRASlotBytes }),
}

// gpuResolved holds §15.6's fields with their defaults.
type gpuResolved struct {
	on                       bool
	state, out, correction   int64
	allowCPU, allowReplay    bool
	hostLimit, hostAvailable int64
	hostRanks                int64
	slotBytes                int64 // -1: from the resident group
}

// resolveArtGPU reads §15.6's fields.
func (c *Config) resolveArtGPU() gpuResolved {
	a := &c.Art.ArtGPUConfig
	t := func(p *bool, def bool) bool {
		if p == nil {
			return def
		}
		return *p
	}
	g := gpuResolved{
		on: t(a.GPUPlacement, false), state: orDefault(a.BackwardState, gpuStateAuto),
		out: orDefault(a.OutputDevice, gpuOutModel), correction: orDefault(a.GradientCorrection, gpuCorrectionWhenAvailable),
		allowCPU: t(a.AllowCPUOffload, true), allowReplay: t(a.AllowReplay, true),
		hostLimit: orDefault(a.HostMemoryBytes, defaultHostMemoryBytes), hostRanks: orDefault(a.HostRanks, 1),
		slotBytes: orDefault(a.LoRASlotBytes, -1),
	}
	g.hostAvailable = orDefault(a.HostAvailableBytes, g.hostLimit)
	return g
}

// hostBudget is ART's host_memory_budget for one scope (§15.5): the
// smaller of the limit and what is free, less min(4 GiB, 10 % of the
// limit), shared by the local ranks.
func (g *gpuResolved) hostBudget() int64 {
	return hostScopeBudget(g.hostLimit, g.hostAvailable, g.hostRanks)
}

// hostScopeBudget is one memory scope's per-rank budget (quoted,
// MemoryScope.per_rank_available_bytes): ART's int(limit x 0.1) is
// floor(limit / 10) for every limit below 2^53.
func hostScopeBudget(limit, available, ranks int64) int64 {
	reserve := min(4<<30, max(0, limit)/10)
	return max(0, min(limit, available)-reserve) / ranks
}

// checkArtGPU is §15.6's validation: the GPU path only under art, and
// ART's own rules for a forced backward state. The path's options are
// accepted and ignored on the estimator path, as §13.3's fields are under
// the seeds' reading.
func (c *Config) checkArtGPU() ErrorList {
	var errs ErrorList
	a := &c.Art.ArtGPUConfig
	if a.GPUPlacement != nil && *a.GPUPlacement && !isArt(c.Profile) {
		errs = append(errs, &Error{Field: "art.gpu_placement", Message: `the GPU placement path is ART's code: it requires "profile": "art"`})
	}
	if a.BackwardState != nil && *a.BackwardState == gpuStateCPU && a.AllowCPUOffload != nil && !*a.AllowCPUOffload {
		errs = append(errs, &Error{Field: "art.backward_state", Message: "2 (cpu) requires art.allow_cpu_offload true, as ART's ResolvedForwardOptions does"})
	}
	if a.BackwardState != nil && *a.BackwardState == gpuStateReplay && a.AllowReplay != nil && !*a.AllowReplay {
		errs = append(errs, &Error{Field: "art.backward_state", Message: "3 (replay) requires art.allow_replay true, as ART's ResolvedForwardOptions does"})
	}
	return errs
}

// clone copies g, sharing no pointer.
func (g ArtGPUConfig) clone() ArtGPUConfig {
	return ArtGPUConfig{
		GPUPlacement: clonePtr(g.GPUPlacement), BackwardState: clonePtr(g.BackwardState),
		AllowCPUOffload: clonePtr(g.AllowCPUOffload), AllowReplay: clonePtr(g.AllowReplay),
		OutputDevice: clonePtr(g.OutputDevice), GradientCorrection: clonePtr(g.GradientCorrection),
		HostMemoryBytes: clonePtr(g.HostMemoryBytes), HostAvailableBytes: clonePtr(g.HostAvailableBytes),
		HostRanks: clonePtr(g.HostRanks), LoRASlotBytes: clonePtr(g.LoRASlotBytes),
	}
}

// equal compares the values of g and h field by field.
func (g *ArtGPUConfig) equal(h *ArtGPUConfig) bool {
	return valEqual(g.GPUPlacement, h.GPUPlacement) && valEqual(g.BackwardState, h.BackwardState) &&
		valEqual(g.AllowCPUOffload, h.AllowCPUOffload) && valEqual(g.AllowReplay, h.AllowReplay) &&
		valEqual(g.OutputDevice, h.OutputDevice) && valEqual(g.GradientCorrection, h.GradientCorrection) &&
		valEqual(g.HostMemoryBytes, h.HostMemoryBytes) && valEqual(g.HostAvailableBytes, h.HostAvailableBytes) &&
		valEqual(g.HostRanks, h.HostRanks) && valEqual(g.LoRASlotBytes, h.LoRASlotBytes)
}

// ArtGPUValue is the value the GPU placement path reads for one of its
// number fields (§15.6), the default when the field is left out: what a
// control shows for it. ok is false for another key.
func (r *Resolved) ArtGPUValue(key string) (v int64, ok bool) {
	g := r.art.gpu
	if !r.Art {
		g = (&Config{}).resolveArtGPU()
	}
	switch key {
	case "backward_state":
		return g.state, true
	case "output_device":
		return g.out, true
	case "gradient_correction":
		return g.correction, true
	case "host_memory_bytes":
		return g.hostLimit, true
	case "host_available_bytes":
		return g.hostAvailable, true
	case "host_ranks":
		return g.hostRanks, true
	case "lora_slot_bytes":
		if g.slotBytes >= 0 {
			return g.slotBytes, true
		}
		if r.res != nil {
			if rb, err := r.res.compute(r); err == nil {
				return int64(rb.lora.WeightsBytes), true
			}
		}
		return 0, true
	}
	return 0, false
}

// resetBool puts a switch back to its default (Repair): an optional one
// (nil reads as its default) to nil, another to def's value.
func (f *Field) resetBool(c, def *Config) {
	if f.optFlag != nil {
		*f.optFlag(c) = nil
		return
	}
	f.SetBool(c, f.Bool(def))
}
