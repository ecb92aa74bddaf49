package estimator

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Kind is the type of a field's value.
type Kind int

const (
	// IntField holds an integer.
	IntField Kind = iota
	// BoolField holds true or false.
	BoolField
)

// Field describes one input: where it lives in the JSON (Path), its short
// name (Key, used in URLs and as a sweep axis), and its allowed range. The
// registry drives validation, the URL codec, the JSON decoder and the
// explorer's controls, so a limit is written once.
type Field struct {
	Path     string // "request.rows"
	Key      string // "rows"
	Kind     Kind
	Min, Max int64   // inclusive limits of an IntField
	OneOf    []int64 // when set, the only allowed values
	Optional bool    // nil takes a default derived from other fields
	Doc      string

	ref func(*Config) *int64  // plain IntField
	opt func(*Config) **int64 // Optional IntField
	// dflt is the value Resolve gives an Optional IntField left unset
	// (ResolvedDefault), ok false where it has none; nil for a field with
	// none to show.
	dflt func(*Resolved) (int64, bool)
	flag func(*Config) *bool // BoolField
	// optFlag is a BoolField stored as a pointer, nil reading as
	// boolDefault (the art profile's fields, docs/model.md §13.3).
	optFlag     func(*Config) **bool
	boolDefault bool
}

// The keys of the fields the page and the commands name in their code:
// the registry's rows below use them, so a caller names a field as the
// registry does.
const (
	KeyInUseBytes     = "in_use_bytes"
	KeyCapacityBytes  = "capacity_bytes"
	KeyExpertParallel = "expert_parallel"
)

const (
	maxRows  = 1<<31 - 1
	maxWidth = 1 << 20
)

var fields = append([]*Field{
	intF("model.vocab_size", "vocab_size", 1, 1<<26, "vocabulary", func(c *Config) *int64 { return &c.Model.VocabSize }),
	intF("model.hidden_size", "hidden_size", 1, maxWidth, "model width", func(c *Config) *int64 { return &c.Model.HiddenSize }),
	intF("model.num_hidden_layers", "num_hidden_layers", 1, maxWidth, "layers", func(c *Config) *int64 { return &c.Model.NumHiddenLayers }),
	intF("model.num_experts_per_tok", "num_experts_per_tok", 0, 1024, "MoE top-k; 0 = dense", func(c *Config) *int64 { return &c.Model.NumExpertsPerTok }),
	intF("model.moe_intermediate_size", "moe_intermediate_size", 1, maxWidth, "expert FFN width", func(c *Config) *int64 { return &c.Model.MoEIntermediateSize }),
	intF("model.linear_num_key_heads", "linear_num_key_heads", 0, maxWidth, "GDN key heads; 0 = no GDN", func(c *Config) *int64 { return &c.Model.LinearNumKeyHeads }),
	intF("model.linear_key_head_dim", "linear_key_head_dim", 1, maxWidth, "GDN key head dim", func(c *Config) *int64 { return &c.Model.LinearKeyHeadDim }),
	intF("model.linear_num_value_heads", "linear_num_value_heads", 1, maxWidth, "GDN value heads", func(c *Config) *int64 { return &c.Model.LinearNumValueHeads }),
	intF("model.linear_value_head_dim", "linear_value_head_dim", 1, maxWidth, "GDN value head dim", func(c *Config) *int64 { return &c.Model.LinearValueHeadDim }),
	optF("model.shared_expert_intermediate_size", "shared_expert_intermediate_size", 0, maxWidth, "shared expert width; 0 = none (art profile, resident memory)", func(c *Config) **int64 { return &c.Model.SharedExpertIntermediateSize }).
		resolvesTo(func(r *Resolved) int64 { return r.SharedS }),
	optF("model.linear_conv_kernel_dim", "linear_conv_kernel_dim", 1, 1<<10, "GDN convolution kernel (art profile, resident memory)", func(c *Config) **int64 { return &c.Model.LinearConvKernelDim }).
		resolvesTo(func(r *Resolved) int64 { return r.ConvKernel }),
	optF("model.intermediate_size", "intermediate_size", 0, maxWidth, "dense MLP width (art profile, resident memory)", func(c *Config) **int64 { return &c.Model.IntermediateSize }).
		resolvesTo(func(r *Resolved) int64 { return r.F }),
	intF("request.rows", "rows", 1, maxRows, "token rows", func(c *Config) *int64 { return &c.Request.Rows }),
	intF("request.sequence_rows", "sequence_rows", 1, maxRows, "rows per sequence", func(c *Config) *int64 { return &c.Request.SequenceRows }),
	optF("request.projected_rows", "projected_rows", 1, maxRows, "rows the head projects (default rows)", func(c *Config) **int64 { return &c.Request.ProjectedRows }).
		resolvesTo(func(r *Resolved) int64 { return r.P }),
	optF("request.target_rows", "target_rows", 0, maxRows, "rows with targets (default projected_rows)", func(c *Config) **int64 { return &c.Request.TargetRows }).
		resolvesTo(func(r *Resolved) int64 { return r.T }),
	boolF("request.grad", "grad", "gradient-enabled", func(c *Config) *bool { return &c.Request.Grad }),
	boolF("request.outputs.logprobs", "logprobs", "return log-probabilities", func(c *Config) *bool { return &c.Request.Outputs.Logprobs }),
	intF("request.outputs.topk", "topk", 0, maxWidth, "top-k outputs; 0 = none", func(c *Config) *int64 { return &c.Request.Outputs.TopK }),
	boolF("request.outputs.logits", "logits", "return logits", func(c *Config) *bool { return &c.Request.Outputs.Logits }),
	boolF("request.outputs.hidden_states", "hidden_states", "return hidden states", func(c *Config) *bool { return &c.Request.Outputs.HiddenStates }),
	intF("head.chunk_rows", "chunk_rows", 1, maxRows, "head chunk rows", func(c *Config) *int64 { return &c.Head.ChunkRows }),
	optF("fc2.input_width", "input_width", 1, maxWidth, "FC2 input width (default moe_intermediate_size)", func(c *Config) **int64 { return &c.FC2.InputWidth }).
		resolvesTo(func(r *Resolved) int64 { return r.I }),
	optF("fc2.output_width", "output_width", 1, maxWidth, "FC2 output width (default hidden_size)", func(c *Config) **int64 { return &c.FC2.OutputWidth }).
		resolvesTo(func(r *Resolved) int64 { return r.O }),
	{Path: "fc2.dtype_bytes", Key: "dtype_bytes", Kind: IntField, Min: 1, Max: 8, OneOf: []int64{1, 2, 4, 8}, Doc: "element size",
		ref: func(c *Config) *int64 { return &c.FC2.DtypeBytes }},
	boolF("fc2.lora_metadata_known", "lora_metadata_known", "compatible LoRA input metadata", func(c *Config) *bool { return &c.FC2.LoRAMetadataKnown }),
	intF("fc2.expert_parallel", KeyExpertParallel, 1, 1024, "expert-parallel size", func(c *Config) *int64 { return &c.FC2.ExpertParallel }),
	intF("budget.capacity_bytes", KeyCapacityBytes, 1, 1<<50, "device total", func(c *Config) *int64 { return &c.Budget.CapacityBytes }),
	intF("budget.in_use_bytes", KeyInUseBytes, 0, 1<<50, "already in use", func(c *Config) *int64 { return &c.Budget.InUseBytes }),
	intF("budget.reserve_permille", "reserve_permille", 0, 999, "kept back from capacity, per mille", func(c *Config) *int64 { return &c.Budget.ReservePermille }),
	intF("budget.safety_percent", "safety_percent", 100, 1000, "multiplier on every requirement, percent", func(c *Config) *int64 { return &c.Budget.SafetyPercent }),
	optF("budget.retained_per_row_bytes", "retained_per_row_bytes", 0, 1<<50, "saved per row until backward (default grad ? L x H x b : 0)", func(c *Config) **int64 { return &c.Budget.RetainedPerRowBytes }).
		resolvesTo(func(r *Resolved) int64 { return r.RetainedPerRow }),
	intF("allocator_round_bytes", "allocator_round_bytes", 1, 1<<30, "allocator block size; 1 = off", func(c *Config) *int64 { return &c.AllocatorRoundBytes }),
	boolF("changes.head_eager_workspace", "head_eager_workspace", "head: 7D eager statistics, 3D no-grad logits copies", func(c *Config) *bool { return &c.Changes.HeadEagerWorkspace }),
	boolF("changes.fc2_known_storage", "fc2_known_storage", "FC2: also price input and combined output", func(c *Config) *bool { return &c.Changes.FC2KnownStorage }),
	boolF("changes.gdn_early_release", "gdn_early_release", "GDN: release qkv, z, beta, alpha before the output addition", func(c *Config) *bool { return &c.Changes.GDNEarlyRelease }),
}, artFields...)

func intF(path, key string, lo, hi int64, doc string, ref func(*Config) *int64) *Field {
	return &Field{Path: path, Key: key, Kind: IntField, Min: lo, Max: hi, Doc: doc, ref: ref}
}

func optF(path, key string, lo, hi int64, doc string, opt func(*Config) **int64) *Field {
	return &Field{Path: path, Key: key, Kind: IntField, Min: lo, Max: hi, Optional: true, Doc: doc, opt: opt}
}

// resolvesTo says what Resolve gives the Optional field f left unset.
func (f *Field) resolvesTo(d func(*Resolved) int64) *Field {
	f.dflt = func(r *Resolved) (int64, bool) { return d(r), true }
	return f
}

// ResolvedDefault is the value the estimator gives the Optional field f
// left unset, read from r (the config resolved), for a page to show as
// "auto (n)"; ok is false for a field that has none.
func (f *Field) ResolvedDefault(r *Resolved) (v int64, ok bool) {
	if f.dflt == nil {
		return 0, false
	}
	return f.dflt(r)
}

func boolF(path, key, doc string, flag func(*Config) *bool) *Field {
	return &Field{Path: path, Key: key, Kind: BoolField, Doc: doc, flag: flag}
}

var (
	fieldByKey  = map[string]*Field{}
	fieldByPath = map[string]*Field{}
)

func init() {
	// The GPU placement path's optional fields resolve as ArtGPUValue
	// says (docs/model.md §15.6).
	for _, f := range artGPUFields {
		if f.Kind == IntField && f.Optional && f.dflt == nil {
			key := f.Key
			f.dflt = func(r *Resolved) (int64, bool) { return r.ArtGPUValue(key) }
		}
	}
	for _, f := range fields {
		fieldByKey[f.Key] = f
		fieldByPath[f.Path] = f
	}
}

// Fields lists every input field, in the order of docs/model.md §2,
// less the art profile's (ArtFields), which the page shows in a group of
// their own.
// Each call returns fresh copies: changing one (its Min, Max or OneOf)
// changes nothing in the registry the package validates with.
func Fields() []*Field {
	out := make([]*Field, 0, len(fields))
	for _, f := range fields {
		if !isArtField(f) {
			out = append(out, f.clone())
		}
	}
	return out
}

// FieldByKey finds a field by its short name ("rows") or its path
// ("request.rows"). Like Fields, it returns a copy.
func FieldByKey(key string) (*Field, bool) {
	f, ok := fieldByKey[key]
	if !ok {
		f, ok = fieldByPath[key]
	}
	if !ok {
		return nil, false
	}
	return f.clone(), true
}

// clone copies f, with its own OneOf, so a caller cannot reach the
// registry through it.
func (f *Field) clone() *Field {
	c := *f
	c.OneOf = slices.Clone(f.OneOf)
	return &c
}

// get returns a pointer to an IntField's value, or nil for an unset
// Optional field.
func (f *Field) get(c *Config) *int64 {
	if f.opt != nil {
		return *f.opt(c)
	}
	return f.ref(c)
}

// Int returns an IntField's value and whether it is set (false for an
// Optional field left to its default).
func (f *Field) Int(c *Config) (int64, bool) {
	p := f.get(c)
	if p == nil {
		return 0, false
	}
	return *p, true
}

// Bool returns a BoolField's value.
func (f *Field) Bool(c *Config) bool {
	if f.optFlag != nil {
		if p := *f.optFlag(c); p != nil {
			return *p
		}
		return f.boolDefault
	}
	return *f.flag(c)
}

// SetInt stores v in an IntField without checking its range; Resolve does.
func (f *Field) SetInt(c *Config, v int64) {
	if f.opt != nil {
		*f.opt(c) = &v
		return
	}
	*f.ref(c) = v
}

// Unset returns an Optional field to its default. It does nothing to other
// fields.
func (f *Field) Unset(c *Config) {
	if f.opt != nil {
		*f.opt(c) = nil
	}
}

// SetBool stores v in a BoolField. A field stored as a pointer keeps its
// default as nil, so the JSON leaves it out.
func (f *Field) SetBool(c *Config, v bool) {
	if f.optFlag != nil {
		if v == f.boolDefault {
			*f.optFlag(c) = nil
		} else {
			*f.optFlag(c) = &v
		}
		return
	}
	*f.flag(c) = v
}

// Text is the field's value as SetText reads it back; "" for an Optional
// field left to its default.
func (f *Field) Text(c *Config) string {
	if f.Kind == BoolField {
		return strconv.FormatBool(f.Bool(c))
	}
	v, ok := f.Int(c)
	if !ok {
		return ""
	}
	return strconv.FormatInt(v, 10)
}

// SetText parses text, as a person would type it, into the field (by the
// field's unit: ParseBytes for a byte field, ParseCount for a count, so
// "80GiB" and "64k" are taken). On an error the field keeps its value. For an Optional field, "" or "auto"
// returns it to its default. Ranges are checked by Resolve, not here.
func (f *Field) SetText(c *Config, text string) error {
	text = strings.TrimSpace(text)
	if f.Kind == BoolField {
		v, err := parseBoolText(text)
		if err != nil {
			return &Error{Field: f.Path, Message: err.Error()}
		}
		f.SetBool(c, v)
		return nil
	}
	if f.Optional && (text == "" || strings.EqualFold(text, "auto")) {
		f.Unset(c)
		return nil
	}
	v, err := f.Parse(text)
	if err != nil {
		return &Error{Field: f.Path, Message: err.Error() + "; " + f.Allowed()}
	}
	f.SetInt(c, v)
	return nil
}

// Allowed describes the field's allowed values, as messages show them.
func (f *Field) Allowed() string {
	if f.Kind == BoolField {
		return "must be true or false"
	}
	if f.OneOf != nil {
		parts := make([]string, len(f.OneOf))
		for i, v := range f.OneOf {
			parts[i] = strconv.FormatInt(v, 10)
		}
		return "must be one of " + strings.Join(parts, ", ")
	}
	return "must be an integer in " + Group(f.Min) + ".." + Group(f.Max)
}

// check validates the field's own range (not limits relating two fields).
func (f *Field) check(c *Config) *Error {
	if f.Kind == BoolField {
		return nil
	}
	return f.checkValue(*f.get(c))
}

// checkValue validates v against the field's own range, with the message
// every input path shows.
func (f *Field) checkValue(v int64) *Error {
	if f.OneOf != nil {
		for _, ok := range f.OneOf {
			if v == ok {
				return nil
			}
		}
		return &Error{Field: f.Path, Message: f.Allowed() + ", got " + Group(v)}
	}
	if v < f.Min || v > f.Max {
		return &Error{Field: f.Path, Message: f.Allowed() + ", got " + Group(v)}
	}
	return nil
}

type parseError string

func (e parseError) Error() string { return string(e) }

// ParseInt reads an integer as a person types it: surrounding space is
// ignored, and digits may be grouped with commas or underscores ("64,902",
// "64_902"), a separator only between two digits; one leading "+" or "-"
// is taken (the field's range, not ParseInt, refuses a negative value).
// Fractions, exponents, NaN, Infinity and non-ASCII digits are refused
// with a message saying so, as is a number beyond int64.
func ParseInt(text string) (int64, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return 0, parseError("is empty")
	}
	neg := false
	if s[0] == '-' {
		neg, s = true, s[1:]
	} else if s[0] == '+' {
		s = s[1:]
	}
	digits := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch >= '0' && ch <= '9':
			digits = append(digits, ch)
		case ch == ',' || ch == '_':
			if i == 0 || i == len(s)-1 || !isDigit(s[i-1]) || !isDigit(s[i+1]) {
				return 0, parseError("is not an integer: " + strconv.Quote(text))
			}
		default:
			return 0, parseError(notIntegerReason(text))
		}
	}
	if len(digits) == 0 {
		return 0, parseError("is not an integer: " + strconv.Quote(text))
	}
	str := string(digits)
	if neg {
		str = "-" + str
	}
	v, err := strconv.ParseInt(str, 10, 64)
	if err != nil {
		return 0, parseError("is beyond the range of a 64-bit integer: " + strconv.Quote(text))
	}
	return v, nil
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func notIntegerReason(text string) string {
	t := strings.ToLower(strings.TrimSpace(text))
	switch {
	case strings.Contains(t, "nan"), strings.Contains(t, "inf"):
		return "is not a finite integer: " + strconv.Quote(text)
	case strings.ContainsAny(t, ".eE"):
		if _, err := strconv.ParseFloat(t, 64); err == nil {
			return "must be a whole number, without a fraction or exponent: " + strconv.Quote(text)
		}
	}
	for _, r := range text {
		if unicode.IsDigit(r) && (r < '0' || r > '9') {
			return "must use the digits 0-9: " + strconv.Quote(text)
		}
	}
	return "is not an integer: " + strconv.Quote(text)
}

func parseBoolText(text string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(text)) {
	case "true", "1", "on", "yes":
		return true, nil
	case "false", "0", "off", "no":
		return false, nil
	}
	return false, parseError("must be true or false, got " + strconv.Quote(text))
}
