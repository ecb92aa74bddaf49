package ui

import (
	"strings"

	"headroom/app/ui/widget"
	"headroom/estimator"

	"headroom/app/ui/page"
)

// allSliders lists every numeric control of the panel.
func allSliders() []sliderSpec {
	var all []sliderSpec
	for _, group := range [][]sliderSpec{modelSliders, modelMore, requestSliders, {topkSlider}, fc2Sliders, fc2More, {capacitySlider}, budgetMore, artSliders} {
		all = append(all, group...)
	}
	return append(all, sliderSpec{key: page.KeyInUseGiB}, loraRankSlider, reserveSlider)
}

// fieldDoc is the line that explains a control.
func fieldDoc(key string) (string, bool) {
	if key == page.KeyInUseGiB {
		return "already in use: weights, optimizer, other tenants (GiB; the URL keeps exact bytes)", true
	}
	if f, ok := estimator.FieldByKey(key); ok {
		return f.Doc, true
	}
	return "", false
}

// resolvedValue is the value the estimator uses for an optional field
// left to its default.
func resolvedValue(r estimator.Resolved, key string) (int64, bool) {
	switch key {
	case "projected_rows":
		return r.P, true
	case "target_rows":
		return r.T, true
	case "input_width":
		return r.I, true
	case "output_width":
		return r.O, true
	case "retained_per_row_bytes":
		return r.RetainedPerRow, true
	case "shared_expert_intermediate_size":
		return r.SharedS, true
	case "linear_conv_kernel_dim":
		return r.ConvKernel, true
	case "intermediate_size":
		return r.F, true
	case "padded_vocab_multiple": // docs/model.md §13.3's defaults; Resolved does not export the art fields
		return 128, true
	case "adapter_gradient_bytes_per_layer", "adapter_gradient_outside_bytes", "gdn_out_proj_lora_rank":
		return 0, true
	}
	return 0, false
}

// controlView builds the snapshot the controls show.
func controlViewOf(s *page.State, list []page.Preset) controlView {
	v := controlView{
		Texts:  map[string]string{},
		Values: map[string]float64{},
		Auto:   map[string]string{},
		Errors: make(map[string]string, len(s.Errs)),
		Checks: map[string]bool{},
		GPU:    s.GPU,
		Preset: page.MatchPreset(list, s.Cfg),
	}
	for k, m := range s.Errs {
		v.Errors[k] = m
	}
	r, rerr := s.Cfg.Resolve()
	for _, sp := range allSliders() {
		v.Texts[sp.key] = s.Text(sp.key)
		if sp.key == page.KeyInUseGiB {
			v.Values[sp.key] = float64(s.Cfg.Budget.InUseBytes) / bytesPerGiB
			if b := s.Cfg.Budget.InUseBytes; strings.HasSuffix(page.GiBText(b), " B") {
				// bytes that are no round GiB: the GiB beside them, as everywhere else
				v.Notes = map[string]string{sp.key: page.GiBNote(b)}
			}
			continue
		}
		if sp.key == page.KeyLoRARank || sp.key == page.KeyReserve {
			continue // residentValues
		}
		f, ok := estimator.FieldByKey(sp.key)
		if !ok {
			continue
		}
		if n, set := f.Int(&s.Cfg); set {
			v.Values[sp.key] = float64(n)
			continue
		}
		v.Auto[sp.key] = "auto"
		if rerr == nil {
			if n, ok := resolvedValue(r, sp.key); ok {
				v.Values[sp.key] = float64(n)
				v.Auto[sp.key] = "auto (" + estimator.Group(n) + ")"
			}
		}
	}
	for _, f := range append(estimator.Fields(), estimator.ArtFields()...) {
		if f.Kind == estimator.BoolField {
			v.Checks[f.Key] = f.Bool(&s.Cfg)
		}
	}
	v.Checks["topk"] = s.Cfg.Request.Outputs.TopK > 0
	v.Checks["expert_parallel"] = s.Cfg.FC2.ExpertParallel > 1
	for _, p := range list {
		v.Presets = append(v.Presets, widget.Option{Value: p.ID, Label: p.Name})
	}
	v.Resident = residentViewOf(s)
	residentValues(&v, s)
	v.CapacityGiB = max(1, float64(s.Cfg.Budget.CapacityBytes)/bytesPerGiB)
	return v
}

// residentValues fills the "On the GPU" group's texts and thumbs.
func residentValues(v *controlView, s *page.State) {
	v.Texts[page.KeyLoRATargets] = s.Text(page.KeyLoRATargets)
	v.Auto[page.KeyLoRARank] = v.Resident.Rank
	v.Auto[page.KeyReserve] = "none (0)"
	if b := v.Resident.Block; b != nil {
		v.Values[page.KeyLoRARank] = float64(b.LoRA.Rank)
		v.Values[page.KeyReserve] = float64(b.FrameworkReserveBytes)
	}
}
