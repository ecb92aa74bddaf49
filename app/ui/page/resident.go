package page

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"headroom/estimator"
	"headroom/estimator/urlquery"
)

// The "On the GPU" group's keys (docs/model.md §14.4). The resident
// group is on by default on the page; resident=off turns it off. Its
// controls are the adapters' rank and targets (and fc2.expert_parallel,
// a field); every other setting of the group that a config or an import
// gave rides in resident= as a JSON object. arch= carries the model's
// fields outside the registry (§14.1): a preset's ID, or a JSON object.
const (
	KeyResident    = "resident"
	KeyLoRARank    = "lora_rank"
	KeyLoRATargets = "lora_targets"
	KeyReserve     = "framework_reserve_bytes"
	KeyArch        = "arch"
)

// DefaultExpertParallel is the page's expert parallelism: at 1 the
// default model's weights (148.405 GiB) do not fit on an H200, so the
// page opens on one GPU of eight, where they are 22.405 GiB.
const DefaultExpertParallel = 8

// pageDefaults are the fields whose page default differs from
// estimator.Default(): the address leaves them out at the page's value
// and writes them at any other.
var pageDefaults = map[string]string{estimator.KeyExpertParallel: strconv.Itoa(DefaultExpertParallel)}

// NewConfig is the page's default config: the estimator's, with the
// memory already on the GPU computed from the model, at expert
// parallelism 8.
func NewConfig() estimator.Config {
	c := estimator.Default()
	c.Resident = &estimator.ResidentConfig{}
	c.FC2.ExpertParallel = DefaultExpertParallel
	return c
}

// isResidentKey reports whether control is one of the group's text
// controls.
func isResidentKey(control string) bool {
	return control == KeyLoRARank || control == KeyLoRATargets || control == KeyReserve
}

// residentErrorKey maps an estimator error's field in the resident group
// to the page's error key.
func residentErrorKey(field string) (string, bool) {
	switch field {
	case "resident.lora_rank":
		return KeyLoRARank, true
	case "resident.lora_targets":
		return KeyLoRATargets, true
	case "resident.framework_reserve_bytes":
		return KeyReserve, true
	}
	if field == "resident" || strings.HasPrefix(field, "resident.") {
		return KeyResident, true
	}
	return "", false
}

// setResidentText applies a typed rank, target list or reserve.
func (s *State) setResidentText(control, text string) {
	ek := ErrorKey(control)
	if s.Cfg.Resident == nil {
		s.InputErr[ek] = "resident memory is off: turn on \"compute from the model\" first"
		return
	}
	r := *s.Cfg.Resident
	t := strings.TrimSpace(text)
	switch control {
	case KeyLoRARank:
		if t == "" || t == "auto" {
			r.LoRARank = nil
			break
		}
		v, err := estimator.ParseInt(t)
		if err != nil {
			s.InputErr[ek] = err.Error()
			return
		}
		if v < 0 || v > 65536 {
			s.InputErr[ek] = "must be an integer in 0..65,536, got " + estimator.Group(v)
			return
		}
		r.LoRARank = &v
	case KeyLoRATargets:
		if t == "" || t == "auto" {
			r.LoRATargets = nil
			break
		}
		var list []string
		for _, n := range strings.Split(t, ",") {
			if n = strings.TrimSpace(n); n != "" {
				list = append(list, n)
			}
		}
		r.LoRATargets = list
	case KeyReserve:
		v, err := estimator.ParseInt(t)
		if t == "" {
			v, err = 0, nil
		}
		if err != nil {
			s.InputErr[ek] = err.Error()
			return
		}
		if v < 0 {
			s.InputErr[ek] = "must be at least 0, got " + estimator.Group(v)
			return
		}
		r.FrameworkReserveBytes = v
	}
	s.Cfg.Resident = &r
}

// residentText is what a group control shows when nothing was typed.
func (s *State) residentText(control string) string {
	r := s.Cfg.Resident
	if r == nil {
		return ""
	}
	switch control {
	case KeyLoRARank:
		if r.LoRARank != nil {
			return strconv.FormatInt(*r.LoRARank, 10)
		}
	case KeyLoRATargets:
		return strings.Join(r.LoRATargets, ",")
	case KeyReserve:
		if r.FrameworkReserveBytes != 0 {
			return strconv.FormatInt(r.FrameworkReserveBytes, 10)
		}
	}
	return ""
}

// SetResident turns the group on (with its defaults) or off.
func (s *State) SetResident(on bool) {
	for _, k := range []string{KeyLoRARank, KeyLoRATargets, KeyReserve, KeyResident} {
		s.Forget(k)
	}
	if !on {
		s.Cfg.Resident = nil
		return
	}
	if s.Cfg.Resident == nil {
		s.Cfg.Resident = &estimator.ResidentConfig{}
	}
}

// archOf is the arch fields a preset gives a config: none for the
// default preset, whose fields are what a config naming no family means
// (docs/model.md §14.1), so that the page's default config is it.
func archOf(p Preset) *estimator.ArchFields {
	if p.ID == DefaultPresetID {
		return nil
	}
	return p.Config.Model.ArchFields
}

// archJSON is a's JSON, "" for none.
func archJSON(a *estimator.ArchFields) string {
	if a == nil {
		return ""
	}
	data, err := json.Marshal(a)
	if err != nil || string(data) == "{}" {
		return ""
	}
	return string(data)
}

// encodeResident writes the group's keys and arch= into q.
func (s *State) encodeResident(q url.Values, list []Preset) {
	for k, v := range pageDefaults {
		f, _ := estimator.FieldByKey(k)
		if t := f.Text(&s.Cfg); t == v {
			q.Del(k)
		} else {
			q.Set(k, t)
		}
	}
	if a := archJSON(s.Cfg.Model.ArchFields); a != "" {
		v := a
		for _, p := range list {
			if archJSON(archOf(p)) == a {
				v = p.ID
				break
			}
		}
		q.Set(KeyArch, v)
	}
	r := s.Cfg.Resident
	if r == nil {
		q.Set(KeyResident, "off")
		return
	}
	data, err := json.Marshal(r)
	if err != nil {
		return
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil {
		return
	}
	if v, ok := obj["lora_rank"]; ok {
		q.Set(KeyLoRARank, string(v))
		delete(obj, "lora_rank")
	}
	if _, ok := obj["lora_targets"]; ok {
		q.Set(KeyLoRATargets, strings.Join(r.LoRATargets, ","))
		delete(obj, "lora_targets")
	}
	if v, ok := obj["framework_reserve_bytes"]; ok {
		q.Set(KeyReserve, string(v))
		delete(obj, "framework_reserve_bytes")
	}
	if len(obj) > 0 {
		rest, _ := json.Marshal(obj)
		q.Set(KeyResident, string(rest))
	}
}

// ConfigQuery is the address of a config as the page writes it: the
// estimator's keys, with the page's own for its defaults, the resident
// group and the arch fields.
func ConfigQuery(c estimator.Config, list []Preset) url.Values {
	q := urlquery.Encode(c)
	(&State{Cfg: c}).encodeResident(q, list)
	return q
}

// pageDefaultsInto gives merged the page's defaults the link leaves out.
func pageDefaultsInto(q, merged url.Values) {
	for k, v := range pageDefaults {
		if _, ok := q[k]; !ok {
			if _, ok := merged[k]; !ok {
				merged.Set(k, v)
			}
		}
	}
}

// decodeResident reads arch= and the group's keys into s.Cfg; presetArch
// is the arch of the link's preset= (nil for none). A bad value marks
// its control and keeps its text.
func (s *State) decodeResident(q url.Values, presetArch *estimator.ArchFields, list []Preset) {
	s.Cfg.Model.ArchFields = presetArch
	if raw := q[KeyArch]; len(raw) > 0 {
		v := raw[len(raw)-1]
		if p, ok := FindPreset(list, v); ok {
			s.Cfg.Model.ArchFields = archOf(p)
		} else {
			a := &estimator.ArchFields{}
			dec := json.NewDecoder(bytes.NewReader([]byte(v)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(a); err != nil {
				s.InputErr[KeyArch] = "must be a preset's name or a JSON object of config.json model fields: " + err.Error()
				s.Texts[KeyArch] = v
			} else {
				s.Cfg.Model.ArchFields = a
			}
		}
	}
	if v := q.Get(KeyResident); v == "off" {
		s.Cfg.Resident = nil
		return
	}
	obj := map[string]json.RawMessage{}
	if v := q.Get(KeyResident); v != "" && v != "on" {
		if err := json.Unmarshal([]byte(v), &obj); err != nil {
			s.InputErr[KeyResident] = "must be off, on or a JSON object of the resident group: " + err.Error()
			s.Texts[KeyResident] = v
			obj = map[string]json.RawMessage{}
		}
	}
	s.Cfg.Resident = &estimator.ResidentConfig{}
	if len(obj) > 0 {
		// Decoded strictly by the estimator, on a config whose in_use_bytes
		// is given, so only the group's own faults are reported here.
		data, _ := json.Marshal(map[string]any{"resident": obj, "budget": map[string]int64{estimator.KeyInUseBytes: 1}})
		if c, err := estimator.DecodeConfig(data); err != nil {
			s.InputErr[KeyResident] = MessageOf(err)
			s.Texts[KeyResident] = q.Get(KeyResident)
		} else {
			s.Cfg.Resident = c.Resident
		}
	}
	for _, k := range []string{KeyLoRARank, KeyLoRATargets, KeyReserve} {
		if raw := q[k]; len(raw) > 0 {
			s.SetText(k, raw[len(raw)-1])
			if _, bad := s.InputErr[k]; !bad {
				delete(s.Texts, k)
			}
		}
	}
}

// FitExpertParallel is the smallest expert parallelism above the
// config's at which the weights fit, the weights per GPU there, and
// whether there is one (estimator.FitExpertParallel). The state remembers
// its answer for its config: a render asks for it twice (the controls'
// group and the panel that replaces the chart), and every render of the
// same config again.
func (s *State) FitExpertParallel() (int64, estimator.Bytes, bool) {
	steps.fitE.Add(1)
	var memo *Memo[struct{}, fitEAnswer]
	if s.memo != nil {
		memo = &s.memo.fitE
	}
	a := memo.Get(struct{}{}, s.Cfg, func() (a fitEAnswer) {
		a.e, a.w, a.ok = fitExpertParallel(s.Cfg)
		return a
	})
	return a.e, a.w, a.ok
}

// fitExpertParallel is FitExpertParallel, not remembered; the
// configs the estimator resolved to answer count as the page's Resolves.
func fitExpertParallel(c estimator.Config) (int64, estimator.Bytes, bool) {
	fit := estimator.FitExpertParallel(c)
	steps.resolve.Add(int64(fit.Priced))
	return fit.EP, fit.Weights, fit.OK
}

// WeightsDoNotFit is the error that says the config's weights cannot fit
// on the GPU at its expert parallelism (estimator.ErrWeightsDoNotFit), ""
// when that is not why it fails.
func (s *State) WeightsDoNotFit() string { return s.noFit }

// baselineResident gives a baseline with another preset's model its
// resident bytes, as in_use_bytes: an estimator baseline overrides the
// registry's model fields but not the fields only the resident count
// reads (docs/model.md §14.1), so the page prices that model's weights
// itself, at the baseline's GPU and expert parallelism, with the
// candidate's adapters. p nil, or a model of the candidate's family: the
// baseline computes its own. Weights that cannot fit mark the comparison.
func (s *State) baselineResident(b *estimator.Baseline, p *Preset) {
	const path = "budget.in_use_bytes"
	if s.Cfg.Resident == nil {
		return
	}
	if p == nil || archJSON(archOf(*p)) == archJSON(s.Cfg.Model.ArchFields) {
		delete(b.Overrides, path)
		return
	}
	c := s.Cfg
	c.Baseline, c.Terms, c.Observed = nil, nil, nil
	p.ApplyTo(&c)
	c.Budget.InUseBytes = 0
	for _, key := range []string{estimator.KeyCapacityBytes, estimator.KeyExpertParallel} {
		f, _ := estimator.FieldByKey(key)
		if set, ok := b.Overrides[f.Path]; ok && !set.Default {
			f.SetInt(&c, set.Int)
		}
	}
	r, err := resolve(c)
	if err != nil {
		s.InputErr[KeyCompare] = "the baseline's " + p.Name + ": " + MessageOf(err)
		return
	}
	if rr := r.Resident(); rr != nil {
		b.Overrides[path] = estimator.Setting{Int: int64(rr.ResidentBytes)}
	}
}
