package estimator

// Config is a request to price, in the groups of docs/model.md §2; its
// JSON shape is the interchange format of docs/model.md §6. Fields whose
// default depends on other fields are pointers: nil means "take the
// default", so a config that omits projected_rows keeps following rows.
type Config struct {
	Model               ModelConfig   `json:"model"`
	Request             RequestConfig `json:"request"`
	Head                HeadConfig    `json:"head"`
	FC2                 FC2Config     `json:"fc2"`
	Budget              BudgetConfig  `json:"budget"`
	AllocatorRoundBytes int64         `json:"allocator_round_bytes"`
	Changes             Changes       `json:"changes"`
	// Terms are tensors of a change of the user's own (docs/model.md §8); none
	// when omitted, and then the JSON leaves the key out.
	Terms []Term `json:"terms,omitempty"`
	// Observed are measured peaks to set beside both estimates (docs/model.md
	// §12); none by default.
	Observed []ObservedPoint `json:"observed,omitempty"`
	// Baseline is a baseline of the user's own (docs/model.md §11); nil: the
	// baseline is this config with the changes off. Copies of a Config
	// share it: Clone it before editing.
	Baseline *Baseline `json:"baseline,omitempty"`
	// Profile is whose arithmetic prices the config (docs/model.md §13.1):
	// "" or "seeds", the seeds' reading (the default, left out of the
	// JSON), or "art", ART's own code. A baseline may override it.
	Profile string `json:"profile,omitempty"`
	// Art holds the art profile's facts of §13.3; ProfileMemory is a learned
	// profile (§13.7), nil when cold. Both are read only under "art".
	Art           ArtConfig      `json:"art,omitzero"`
	ProfileMemory *ProfileMemory `json:"profile_memory,omitempty"`
	// Resident, when set, computes the memory already on the GPU from the
	// model (docs/model.md §14); nil: in_use_bytes as given, as before.
	Resident *ResidentConfig `json:"resident,omitempty"`
}

// ModelConfig holds the model's geometry, named as in a Hugging Face
// config.json.
type ModelConfig struct {
	VocabSize           int64 `json:"vocab_size"`
	HiddenSize          int64 `json:"hidden_size"`
	NumHiddenLayers     int64 `json:"num_hidden_layers"`
	NumExpertsPerTok    int64 `json:"num_experts_per_tok"`
	MoEIntermediateSize int64 `json:"moe_intermediate_size"`
	LinearNumKeyHeads   int64 `json:"linear_num_key_heads"`
	LinearKeyHeadDim    int64 `json:"linear_key_head_dim"`
	LinearNumValueHeads int64 `json:"linear_num_value_heads"`
	LinearValueHeadDim  int64 `json:"linear_value_head_dim"`
	// SharedExpertIntermediateSize (S), LinearConvKernelDim (w) and
	// IntermediateSize (F) are read by the art profile (docs/model.md §13.3)
	// and the resident count (§14.1) only; nil takes the default that
	// context gives (Resolved.S, Resolved.ConvKernel, Resolved.F).
	SharedExpertIntermediateSize *int64 `json:"shared_expert_intermediate_size,omitempty"`
	LinearConvKernelDim          *int64 `json:"linear_conv_kernel_dim,omitempty"`
	IntermediateSize             *int64 `json:"intermediate_size,omitempty"`
	// ArchFields are the fields only the resident count reads (§14.1);
	// nil when the config gives none of them, so that a ModelConfig
	// stays comparable. Copies share it: never change it in place.
	*ArchFields
}

// RequestConfig describes the request: its rows and what it asks for.
type RequestConfig struct {
	Rows          int64   `json:"rows"`
	SequenceRows  int64   `json:"sequence_rows"`
	ProjectedRows *int64  `json:"projected_rows,omitempty"`
	TargetRows    *int64  `json:"target_rows,omitempty"`
	Grad          bool    `json:"grad"`
	Outputs       Outputs `json:"outputs"`
}

// Outputs are the outputs a request asks for.
type Outputs struct {
	Logprobs     bool  `json:"logprobs"`
	TopK         int64 `json:"topk"`
	Logits       bool  `json:"logits"`
	HiddenStates bool  `json:"hidden_states"`
}

// HeadConfig configures the vocabulary head.
type HeadConfig struct {
	ChunkRows int64 `json:"chunk_rows"`
	// PaddedVocabMultiple and Stock are read by the art profile only
	// (docs/model.md §13.3); nil takes the defaults 128 and true.
	PaddedVocabMultiple *int64 `json:"padded_vocab_multiple,omitempty"`
	Stock               *bool  `json:"stock,omitempty"`
}

// FC2Config configures the MoE FC2 projection.
type FC2Config struct {
	InputWidth        *int64 `json:"input_width,omitempty"`
	OutputWidth       *int64 `json:"output_width,omitempty"`
	DtypeBytes        int64  `json:"dtype_bytes"`
	LoRAMetadataKnown bool   `json:"lora_metadata_known"`
	ExpertParallel    int64  `json:"expert_parallel"`
	// FusedFC1 and SharedExpertGate are read by the art profile only
	// (docs/model.md §13.3); nil takes the default, true.
	FusedFC1         *bool `json:"fused_fc1,omitempty"`
	SharedExpertGate *bool `json:"shared_expert_gate,omitempty"`
}

// BudgetConfig is the device budget and the trainer's margins.
type BudgetConfig struct {
	CapacityBytes       int64  `json:"capacity_bytes"`
	InUseBytes          int64  `json:"in_use_bytes"`
	ReservePermille     int64  `json:"reserve_permille"`
	SafetyPercent       int64  `json:"safety_percent"`
	RetainedPerRowBytes *int64 `json:"retained_per_row_bytes,omitempty"`
}

// Changes are the three toggles; the candidate uses the ones that are on,
// the baseline none.
type Changes struct {
	HeadEagerWorkspace bool `json:"head_eager_workspace"`
	FC2KnownStorage    bool `json:"fc2_known_storage"`
	GDNEarlyRelease    bool `json:"gdn_early_release"`
}

// H200CapacityBytes is an H200's capacity as nvidia-smi shows it (143,771 MiB).
const H200CapacityBytes = 143771 << 20

// H100CapacityBytes is about what an H100 80GB HBM3 reports; drivers differ.
const H100CapacityBytes = 85_020_000_000

// Default returns Qwen3-Next-80B-A3B on an H200, with all three changes on.
func Default() Config {
	return Config{
		Model: ModelConfig{
			VocabSize: 151936, HiddenSize: 2048, NumHiddenLayers: 48,
			NumExpertsPerTok: 10, MoEIntermediateSize: 512,
			LinearNumKeyHeads: 16, LinearKeyHeadDim: 128,
			LinearNumValueHeads: 32, LinearValueHeadDim: 128,
		},
		Request: RequestConfig{
			Rows: 64902, SequenceRows: 4096, Grad: true,
			Outputs: Outputs{Logprobs: true},
		},
		Head:                HeadConfig{ChunkRows: 512},
		FC2:                 FC2Config{DtypeBytes: 2, LoRAMetadataKnown: true, ExpertParallel: 1},
		Budget:              BudgetConfig{CapacityBytes: H200CapacityBytes, ReservePermille: 30, SafetyPercent: 110},
		AllocatorRoundBytes: 512,
		Changes:             Changes{HeadEagerWorkspace: true, FC2KnownStorage: true, GDNEarlyRelease: true},
	}
}

// Resolved is a validated config with every default filled in: the form the
// model prices. Build one with Config.Resolve.
type Resolved struct {
	V, H, L, K, MoEWidth int64
	Hk, Dk, Hv, Dv       int64
	// X is the total number of routed experts: num_experts (or
	// num_local_experts, n_routed_experts) as given, else the resident
	// group's count of a MoE model, else 0. Only terms read it (§8).
	X               int64
	N, S, P, T      int64
	Grad            bool
	Outputs         Outputs
	C               int64
	I, O, B         int64
	MetadataKnown   bool
	EP              int64
	Capacity, InUse int64
	ReservePermille int64
	SafetyPercent   int64
	RetainedPerRow  int64
	Round           int64
	Changes         Changes
	// SharedS, ConvKernel and F are the shared expert width, the GDN
	// convolution kernel and the dense MLP width (§13.3 defaults 512, 4, 0).
	SharedS, ConvKernel, F int64

	// Art is set when the art profile prices this revision
	// (docs/model.md §13); art holds its fields.
	Art bool
	art artResolved

	terms *termSet // the config's terms, compiled; nil when none

	res      *residentModel // the resident group, resolved; nil without one
	inUseSet bool           // in_use_bytes given (or set by a sweep, a workload line): §14.4's case 3
}

// Resolve validates c and fills in the defaults that depend on other
// fields. The error, if any, is an ErrorList naming every bad field, and
// comes with a zero Resolved, not a half-filled one.
func (c Config) Resolve() (Resolved, error) { return c.resolveScoped(0) }

// resolveScoped is Resolve; scope, when not 0, is the hold bits of the
// revisions whose terms this config checks and prices (termScopeOf).
func (c Config) resolveScoped(scope uint8) (Resolved, error) {
	var errs ErrorList
	for _, f := range fields {
		if f.Optional && f.get(&c) == nil {
			continue
		}
		if err := f.check(&c); err != nil {
			errs = append(errs, err)
		}
	}
	errs = append(errs, CheckObserved(c.Observed)...)
	errs = append(errs, c.checkArt()...)
	r := Resolved{
		V: c.Model.VocabSize, H: c.Model.HiddenSize, L: c.Model.NumHiddenLayers,
		K: c.Model.NumExpertsPerTok, MoEWidth: c.Model.MoEIntermediateSize,
		Hk: c.Model.LinearNumKeyHeads, Dk: c.Model.LinearKeyHeadDim,
		Hv: c.Model.LinearNumValueHeads, Dv: c.Model.LinearValueHeadDim,
		N: c.Request.Rows, S: c.Request.SequenceRows, Grad: c.Request.Grad,
		Outputs: c.Request.Outputs, C: c.Head.ChunkRows,
		B: c.FC2.DtypeBytes, MetadataKnown: c.FC2.LoRAMetadataKnown, EP: c.FC2.ExpertParallel,
		Capacity: c.Budget.CapacityBytes, InUse: c.Budget.InUseBytes,
		ReservePermille: c.Budget.ReservePermille, SafetyPercent: c.Budget.SafetyPercent,
		Round: c.AllocatorRoundBytes, Changes: c.Changes,
	}
	r.SharedS = orDefault(c.Model.SharedExpertIntermediateSize, 512)
	r.ConvKernel = orDefault(c.Model.LinearConvKernelDim, 4)
	r.F = orDefault(c.Model.IntermediateSize, 0)
	r.Art = isArt(c.Profile)
	if r.Art {
		r.art = c.resolveArt()
	}
	r.P = orDefault(c.Request.ProjectedRows, r.N)
	r.T = orDefault(c.Request.TargetRows, r.P)
	r.I = orDefault(c.FC2.InputWidth, r.MoEWidth)
	r.O = orDefault(c.FC2.OutputWidth, r.H)
	if c.Budget.RetainedPerRowBytes != nil {
		r.RetainedPerRow = *c.Budget.RetainedPerRowBytes
	} else if r.Grad && len(errs) == 0 {
		// L, H and b are within range here, so L x H x b < 2^44.
		r.RetainedPerRow = r.L * r.H * r.B
	}
	errs = append(errs, resolveResident(&c, &r)...)
	if x, ok := TotalExperts(c.Model); ok {
		r.X = x
	} else if r.res != nil && r.res.m.isMoE() {
		r.X = r.res.m.X
	}
	ts, termErrs := compileTerms(c.Terms, r.Art, c.termScopeOf(scope))
	errs = append(errs, termErrs...)
	r.terms = ts
	if len(errs) > 0 {
		return Resolved{}, errs
	}
	if err := r.crossCheck(); err != nil {
		return Resolved{}, err
	}
	return r, nil
}

// crossCheck validates the limits that relate two fields. It runs on a
// resolved config so that defaults (projected_rows = rows) take part.
func (r *Resolved) crossCheck() error {
	var errs ErrorList
	if r.res != nil {
		if e := r.applyResident(); e != nil {
			errs = append(errs, e)
		}
	}
	if r.P < 1 || r.P > r.N {
		errs = append(errs, rangeError("request.projected_rows", 1, r.N, "rows", r.P))
	}
	if r.T < 0 || r.T > r.P {
		errs = append(errs, rangeError("request.target_rows", 0, r.P, "projected_rows", r.T))
	}
	if r.InUse > r.Capacity {
		errs = append(errs, rangeError("budget.in_use_bytes", 0, r.Capacity, "capacity_bytes", r.InUse))
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

func rangeError(field string, lo, hi int64, hiName string, got int64) *Error {
	return &Error{Field: field, Message: "must be in " + Group(lo) + ".." + hiName + " (" + Group(hi) + "), got " + Group(got)}
}

func orDefault(p *int64, def int64) int64 {
	if p == nil {
		return def
	}
	return *p
}

// Int64 returns a pointer to v, for the optional fields of Config.
func Int64(v int64) *int64 { return &v }
