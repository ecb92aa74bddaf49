package ui

import (
	"strings"

	"headroom/app/ui/widget"
	"headroom/estimator"

	"headroom/app/ui/page"
)

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

// controlViewOf builds the snapshot the controls show.
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
	for _, sp := range page.Sliders() {
		v.Texts[sp.Key] = s.Text(sp.Key)
		if sp.Key == page.KeyLoRARank || sp.Key == page.KeyReserve {
			continue // residentValues
		}
		val, auto, ok := s.SliderValue(sp.Key)
		if ok {
			v.Values[sp.Key] = val
		}
		if auto {
			v.Auto[sp.Key] = "auto"
			if ok {
				v.Auto[sp.Key] = "auto (" + estimator.Group(int64(val)) + ")"
			}
		}
		if b := s.Cfg.Budget.InUseBytes; sp.Key == page.KeyInUseGiB && strings.HasSuffix(page.GiBText(b), " B") {
			// bytes that are no round GiB: the GiB beside them, as everywhere else
			v.Notes = map[string]string{sp.Key: page.GiBNote(b)}
		}
	}
	for _, f := range append(estimator.Fields(), estimator.ArtFields()...) {
		if f.Kind == estimator.BoolField {
			v.Checks[f.Key] = f.Bool(&s.Cfg)
		}
	}
	v.Checks["topk"] = s.Cfg.Request.Outputs.TopK > 0
	v.Checks[estimator.KeyExpertParallel] = s.Cfg.FC2.ExpertParallel > 1
	for _, p := range list {
		v.Presets = append(v.Presets, widget.Option{Value: p.ID, Label: p.Name})
	}
	v.Resident = residentViewOf(s)
	residentValues(&v, s)
	inUseAuto(&v, s)
	v.CapacityGiB = page.InUseSlider(s.Cfg).Max
	return v
}

// inUseAuto shows the in-use field as the other computed fields show
// theirs when the resident memory stands for it (in_use_bytes 0, the
// resident group on, nothing typed): empty, with "auto (22.825)" (GiB, the
// field's unit) in its place and the thumb there. It showed
// 0 while 9.7 to 22.8 GiB were counted.
func inUseAuto(v *controlView, s *page.State) {
	k := page.KeyInUseGiB
	if !s.InUseAuto() {
		return
	}
	v.Texts[k] = ""
	v.Auto[k] = "auto"
	if b := s.Result.Resident; s.CfgOK && b != nil {
		v.Auto[k] = "auto (" + b.ResidentBytes.GiBString() + ")" // SliderValue puts the thumb there
	}
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
