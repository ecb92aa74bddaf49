package ui

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"headroom/assets"
	"headroom/estimator"
)

// preset is a model preset of the explorer's menu, read from
// assets/presets/<ID>.json.
type preset struct {
	ID     string // the file's name without .json; the URL's preset=
	Name   string
	Source string
	Config estimator.Config // the preset's config over the defaults
}

// presetFile is the shape of a preset file: the config is in the
// interchange format, which the estimator decodes strictly, so the wrapper
// is decoded here and only "config" is handed on.
type presetFile struct {
	Name   string          `json:"name"`
	Source string          `json:"source"`
	Config json.RawMessage `json:"config"`
}

// DefaultPresetID is the preset the default config is made of.
const DefaultPresetID = "qwen3-next-80b-a3b"

// presetFields are the fields a preset sets when applied: the model, and
// the FC2 widths back to following it. The rest (request, budget, changes)
// belongs to the user. The list is made once (estimator.Fields copies the
// registry, and the page asks on every edit which preset the model is);
// callers read it and never change it.
func presetFields() []*estimator.Field { return presetFieldList() }

var presetFieldList = sync.OnceValue(func() []*estimator.Field {
	var out []*estimator.Field
	for _, f := range estimator.Fields() {
		if strings.HasPrefix(f.Path, "model.") || f.Key == "input_width" || f.Key == "output_width" {
			out = append(out, f)
		}
	}
	return out
})

var loadPresetsOnce = sync.OnceValues(func() ([]preset, error) { return readPresets(assets.Presets) })

// presets returns the embedded presets, the default first, then by name.
func presets() ([]preset, error) { return loadPresetsOnce() }

// readPresets reads every presets/*.json of fsys.
func readPresets(fsys fs.FS) ([]preset, error) {
	names, err := fs.Glob(fsys, "presets/*.json")
	if err != nil {
		return nil, err
	}
	var out []preset
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		p, err := decodePreset(strings.TrimSuffix(path.Base(name), ".json"), data)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if (out[i].ID == DefaultPresetID) != (out[j].ID == DefaultPresetID) {
			return out[i].ID == DefaultPresetID
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// decodePreset reads one preset file.
func decodePreset(id string, data []byte) (preset, error) {
	var pf presetFile
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&pf); err != nil {
		return preset{}, fmt.Errorf("preset %s: %v", id, err)
	}
	if pf.Name == "" || pf.Source == "" || len(pf.Config) == 0 {
		return preset{}, fmt.Errorf("preset %s: needs name, source and config", id)
	}
	cfg, err := estimator.DecodeConfig(pf.Config)
	if err != nil {
		return preset{}, fmt.Errorf("preset %s: %v", id, err)
	}
	return preset{ID: id, Name: pf.Name, Source: pf.Source, Config: cfg}, nil
}

// applyTo copies the preset's model fields (and FC2 widths) into c.
func (p preset) applyTo(c *estimator.Config) {
	for _, f := range presetFields() {
		if v, ok := f.Int(&p.Config); ok {
			f.SetInt(c, v)
		} else {
			f.Unset(c)
		}
	}
}

// matches reports whether c holds the preset's model.
func (p preset) matches(c estimator.Config) bool {
	for _, f := range presetFields() {
		if f.Text(&p.Config) != f.Text(&c) {
			return false
		}
	}
	return true
}

// findPreset returns the preset with the given ID.
func findPreset(list []preset, id string) (preset, bool) {
	for _, p := range list {
		if p.ID == id {
			return p, true
		}
	}
	return preset{}, false
}

// matchPreset returns the ID of the first preset whose model c holds, or "".
func matchPreset(list []preset, c estimator.Config) string {
	for _, p := range list {
		if p.matches(c) {
			return p.ID
		}
	}
	return ""
}
