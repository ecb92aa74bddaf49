package page

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"testing"

	"headroom/assets"
	"headroom/estimator"
)

// TestPresetFiles decodes every preset with the estimator's strict
// decoder (the wrapper here, the config there) and checks that each sets
// the whole model, so that applying one fully determines it.
func TestPresetFiles(t *testing.T) {
	t.Parallel()
	names, err := fs.Glob(assets.Presets, "presets/*.json")
	if err != nil || len(names) < 7 {
		t.Fatalf("presets: %v, %v", names, err)
	}
	seen := map[string]bool{}
	for _, name := range names {
		data, err := fs.ReadFile(assets.Presets, name)
		if err != nil {
			t.Fatal(err)
		}
		var wrapper struct {
			Name   string          `json:"name"`
			Source string          `json:"source"`
			Config json.RawMessage `json:"config"`
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&wrapper); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if wrapper.Name == "" || wrapper.Source == "" || seen[wrapper.Name] {
			t.Errorf("%s: name %q (dup %v), source %q", name, wrapper.Name, seen[wrapper.Name], wrapper.Source)
		}
		seen[wrapper.Name] = true
		if _, err := estimator.DecodeConfig(wrapper.Config); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		var cfg struct {
			Model map[string]json.RawMessage `json:"model"`
		}
		if err := json.Unmarshal(wrapper.Config, &cfg); err != nil {
			t.Fatal(err)
		}
		for _, f := range PresetFields() {
			if len(f.Path) > 6 && f.Path[:6] == "model." {
				if _, ok := cfg.Model[f.Path[6:]]; !ok {
					t.Errorf("%s: does not set %s", name, f.Path)
				}
			}
		}
	}
}

// TestPresetFigures checks the geometry against design/presets.md: the
// FC2 bytes per token with known LoRA metadata, K x (I + 3 x H) x 2.
func TestPresetFigures(t *testing.T) {
	t.Parallel()
	list, err := Presets()
	if err != nil {
		t.Fatal(err)
	}
	if list[0].ID != DefaultPresetID {
		t.Errorf("first preset %s, want the default", list[0].ID)
	}
	want := map[string]int64{
		"qwen3-next-80b-a3b": 133120, "qwen3-30b-a3b": 110592, "qwen3-235b-a22b": 221184,
		"deepseek-v3": 376832, "gpt-oss-120b": 92160, "mixtral-8x7b": 106496, "llama-3.1-8b": 0,
	}
	for id, perToken := range want {
		p, ok := FindPreset(list, id)
		if !ok {
			t.Errorf("no preset %s", id)
			continue
		}
		m := p.Config.Model
		if got := m.NumExpertsPerTok * (m.MoEIntermediateSize + 3*m.HiddenSize) * 2; got != perToken {
			t.Errorf("%s: FC2 bytes per token %d, want %d", id, got, perToken)
		}
	}
	llama, _ := FindPreset(list, "llama-3.1-8b")
	if llama.Config.Model.NumExpertsPerTok != 0 || llama.Config.Model.LinearNumKeyHeads != 0 {
		t.Errorf("Llama-3.1-8B is not dense without GDN: %+v", llama.Config.Model)
	}
	def := estimator.Default()
	if got := MatchPreset(list, def); got != DefaultPresetID {
		t.Errorf("the default config matches preset %q", got)
	}
	for _, p := range list {
		c := estimator.Default()
		c.FC2.InputWidth = estimator.Int64(99)
		p.ApplyTo(&c)
		if !p.Matches(c) || c.FC2.InputWidth != nil {
			t.Errorf("%s: applying does not give the preset's model", p.ID)
		}
		if c.Request != def.Request || c.Budget != def.Budget || c.Changes != def.Changes {
			t.Errorf("%s: applying touched more than the model", p.ID)
		}
	}
}
