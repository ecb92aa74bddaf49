package page

import (
	"strconv"
	"strings"

	"headroom/estimator"
)

// The sliders' definitions: which controls have a range input, its span
// and scale. app/ui draws them (widget.Slider); the browser tests read
// them here, with State.SliderValue, to know where each knob belongs.

// SliderSpec describes a numeric control: its range input's span and
// scale (the field takes any value the estimator accepts).
type SliderSpec struct {
	Key, Label string
	Min, Max   float64
	Log        bool
	Pow2       bool
	// Step, when set, is what the range input's values are multiples of:
	// widthStep for a width, so a drag gives 16,896 rather than 16,877
	// (the field still takes any integer).
	Step float64
}

// widthStep is the width sliders' Step: widths are multiples of 64 in
// the models the presets hold.
const widthStep = 64

// BytesPerGiB scales the GiB controls (display only).
const BytesPerGiB = 1 << 30

// The panel's sliders, group by group (the groups of docs/model.md §2,
// then the art profile's and the "On the GPU" group's). They are the
// definitions the controls draw and the browser tests check the knobs
// against: read them, never change them.
var (
	ModelSliders = []SliderSpec{
		{Key: "vocab_size", Label: "vocab_size", Min: 1000, Max: 1 << 20, Log: true},
		{Key: "hidden_size", Label: "hidden_size", Min: 64, Max: 32768, Log: true, Step: widthStep},
		{Key: "num_hidden_layers", Label: "num_hidden_layers", Min: 1, Max: 200},
		{Key: "num_experts_per_tok", Label: "num_experts_per_tok (top-k)", Min: 0, Max: 64},
	}
	ModelMore = []SliderSpec{
		{Key: "moe_intermediate_size", Label: "moe_intermediate_size", Min: 64, Max: 65536, Log: true, Step: widthStep},
		{Key: "linear_num_key_heads", Label: "linear_num_key_heads", Min: 0, Max: 128},
		{Key: "linear_key_head_dim", Label: "linear_key_head_dim", Min: 16, Max: 1024, Log: true},
		{Key: "linear_num_value_heads", Label: "linear_num_value_heads", Min: 1, Max: 256, Log: true},
		{Key: "linear_value_head_dim", Label: "linear_value_head_dim", Min: 16, Max: 1024, Log: true},
	}
	RequestSliders = []SliderSpec{
		{Key: "rows", Label: "rows", Min: 1, Max: 1 << 22, Log: true},
		{Key: "sequence_rows", Label: "sequence_rows", Min: 1, Max: 1 << 20, Log: true},
		{Key: "chunk_rows", Label: "chunk_rows (head)", Min: 1, Max: 65536, Log: true},
		{Key: "projected_rows", Label: "projected_rows", Min: 1, Max: 1 << 22, Log: true},
		{Key: "target_rows", Label: "target_rows", Min: 0, Max: 1 << 22, Log: true},
	}
	TopKSlider = SliderSpec{Key: "topk", Label: "top-k outputs: k", Min: 0, Max: 100}
	FC2Sliders = []SliderSpec{
		{Key: "input_width", Label: "FC2 input_width", Min: 64, Max: 65536, Log: true, Step: widthStep},
		{Key: "output_width", Label: "FC2 output_width", Min: 64, Max: 65536, Log: true, Step: widthStep},
	}
	FC2More = []SliderSpec{
		{Key: estimator.KeyExpertParallel, Label: "expert_parallel (size)", Min: 1, Max: 64, Log: true},
		{Key: "dtype_bytes", Label: "dtype_bytes", Min: 1, Max: 8, Log: true, Pow2: true},
	}
	BudgetMore = []SliderSpec{
		{Key: "reserve_permille", Label: "reserve_permille", Min: 0, Max: 999},
		{Key: "safety_percent", Label: "safety_percent", Min: 100, Max: 1000},
		{Key: "retained_per_row_bytes", Label: "retained_per_row_bytes", Min: 0, Max: 1 << 24, Log: true},
		{Key: "allocator_round_bytes", Label: "allocator_round_bytes", Min: 1, Max: 1 << 30, Log: true, Pow2: true},
	}
	CapacitySlider = SliderSpec{Key: estimator.KeyCapacityBytes, Label: estimator.KeyCapacityBytes, Min: 8 * BytesPerGiB, Max: 256 * BytesPerGiB}
)

// ArtSliders are the art profile's number fields, and the model widths
// only it (and resident memory) reads, unless another group shows them.
var ArtSliders = func() []SliderSpec {
	specs := []SliderSpec{
		{Key: "shared_expert_intermediate_size", Label: "shared_expert_intermediate_size", Min: 0, Max: 65536, Log: true},
		{Key: "intermediate_size", Label: "intermediate_size (dense MLP)", Min: 0, Max: 65536, Log: true},
		{Key: "linear_conv_kernel_dim", Label: "linear_conv_kernel_dim", Min: 1, Max: 1024, Log: true},
		{Key: "padded_vocab_multiple", Label: "padded_vocab_multiple", Min: 1, Max: 65536, Log: true},
		{Key: "adapter_gradient_bytes_per_layer", Label: "adapter_gradient_bytes_per_layer", Min: 0, Max: 1 << 40, Log: true},
		{Key: "adapter_gradient_outside_bytes", Label: "adapter_gradient_outside_bytes", Min: 0, Max: 1 << 40, Log: true},
		{Key: "gdn_out_proj_lora_rank", Label: "gdn_out_proj_lora_rank", Min: 0, Max: 65536, Log: true},
		// ART's GPU placement path (docs/model.md §15.6).
		{Key: "backward_state", Label: "backward_state (0 auto, 1 gpu, 2 cpu, 3 replay)", Min: 0, Max: 3},
		{Key: "output_device", Label: "output_device (0 auto, 1 model, 2 cpu)", Min: 0, Max: 2},
		{Key: "gradient_correction", Label: "gradient_correction (0 none, 1 when_available, 2 always)", Min: 0, Max: 2},
		{Key: "host_memory_bytes", Label: "host_memory_bytes", Min: 0, Max: 1 << 42, Log: true},
		{Key: "host_available_bytes", Label: "host_available_bytes", Min: 0, Max: 1 << 42, Log: true},
		{Key: "host_ranks", Label: "host_ranks", Min: 1, Max: 1024, Log: true},
		{Key: "lora_slot_bytes", Label: "lora_slot_bytes", Min: 0, Max: 1 << 40, Log: true},
	}
	shown := map[string]bool{}
	for _, g := range [][]SliderSpec{ModelSliders, ModelMore, RequestSliders, FC2Sliders, FC2More, BudgetMore} {
		for _, s := range g {
			shown[s.Key] = true
		}
	}
	out := specs[:0]
	for _, s := range specs {
		if !shown[s.Key] {
			out = append(out, s)
		}
	}
	return out
}()

var (
	LoRARankSlider = SliderSpec{Key: KeyLoRARank, Label: "LoRA rank", Min: 0, Max: 256, Log: true}
	ReserveSlider  = SliderSpec{Key: KeyReserve, Label: "framework reserve (bytes)", Min: 0, Max: 16 * BytesPerGiB, Log: true}
)

// Sliders lists every slider, in the panel's order (the range input of
// key k has id slider-k, its field input-k); the in-use slider's span is
// its InUseSlider's.
func Sliders() []SliderSpec {
	var all []SliderSpec
	for _, group := range [][]SliderSpec{ModelSliders, ModelMore, RequestSliders, {TopKSlider}, FC2Sliders, FC2More, {CapacitySlider}, BudgetMore, ArtSliders} {
		all = append(all, group...)
	}
	return append(all, SliderSpec{Key: KeyInUseGiB}, LoRARankSlider, ReserveSlider)
}

// InUseSlider is the in-use slider for a config: in GiB, from 0 to the
// capacity (at least 1 GiB), so its end follows the GPU.
func InUseSlider(cfg estimator.Config) SliderSpec {
	return SliderSpec{Key: KeyInUseGiB, Label: "in use (GiB)", Min: 0, Max: max(1, float64(cfg.Budget.CapacityBytes)/BytesPerGiB)}
}

// SliderValue is the value the slider of key shows for the state: the
// field's own, else the default the estimator resolves it to (auto is
// true then); the in-use bytes in GiB; the resident group's LoRA rank and
// reserve from the estimate. ok is false when there is no value to show
// (a default the config cannot resolve, a key with no slider).
func (s *State) SliderValue(key string) (v float64, auto, ok bool) {
	switch key {
	case KeyInUseGiB:
		if s.InUseAuto() {
			// The resident memory stands for in_use_bytes: its figure,
			// as an optional field's thumb sits at its default.
			if b := s.Result.Resident; s.CfgOK && b != nil {
				return float64(b.ResidentBytes) / BytesPerGiB, true, true
			}
			return 0, true, false
		}
		return float64(s.Cfg.Budget.InUseBytes) / BytesPerGiB, false, true
	case KeyLoRARank, KeyReserve: // the "On the GPU" group's, once the estimate has it
		b := s.Result.Resident
		if s.Cfg.Resident == nil || !s.CfgOK || b == nil {
			return 0, false, false
		}
		if key == KeyLoRARank {
			return float64(b.LoRA.Rank), false, true
		}
		return float64(b.FrameworkReserveBytes), false, true
	}
	f, found := estimator.FieldByKey(key)
	if !found {
		return 0, false, false
	}
	if n, set := f.Int(&s.Cfg); set {
		return float64(n), false, true
	}
	r, err := s.Resolved()
	if err != nil {
		return 0, true, false
	}
	n, resolved := ResolvedValue(r, key)
	return float64(n), true, resolved
}

// InUseAuto reports whether the in-use field is the resident memory's
// (the field shows "auto (...)"): the resident group on, in_use_bytes 0
// and nothing typed in the field but blanks.
func (s *State) InUseAuto() bool {
	// A typed 0 is auto too: the address leaves 0 out, so a link to this
	// state opens with the field empty, and the two must show alike.
	if t, typed := s.Texts[KeyInUseGiB]; typed && strings.TrimSpace(t) != "" {
		if f, err := strconv.ParseFloat(strings.TrimSpace(t), 64); err != nil || f != 0 {
			return false
		}
	}
	return s.Cfg.Resident != nil && s.Cfg.Budget.InUseBytes == 0
}

// Resolved is the state's config resolved (Config.Resolve), remembered
// for its config: the controls ask it for each optional field left to its
// default, and every render asks again for the same config.
func (s *State) Resolved() (estimator.Resolved, error) {
	var memo *Memo[struct{}, resolvedAnswer]
	if s.memo != nil {
		memo = &s.memo.resolved
	}
	a := memo.Get(struct{}{}, s.Cfg, func() (a resolvedAnswer) {
		a.r, a.err = resolve(s.Cfg)
		return a
	})
	return a.r, a.err
}

// ResolvedValue is the value the estimator uses for an optional field
// left to its default (the registry's, estimator.Field.ResolvedDefault).
func ResolvedValue(r estimator.Resolved, key string) (int64, bool) {
	f, ok := estimator.FieldByKey(key)
	if !ok {
		return 0, false
	}
	return f.ResolvedDefault(&r) // the GPU placement path's too (docs/model.md §15.6)
}
