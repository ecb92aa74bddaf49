package page

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

// Preset is a model Preset of the explorer's menu, read from
// assets/presets/<ID>.json.
type Preset struct {
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

// PresetFields are the fields a preset sets when applied: the model, and
// the FC2 widths back to following it. The rest (request, budget, changes)
// belongs to the user. The list is made once (estimator.Fields copies the
// registry, and the page asks on every edit which preset the model is);
// callers read it and never change it.
func PresetFields() []*estimator.Field { return presetFieldList() }

var presetFieldList = sync.OnceValue(func() []*estimator.Field {
	var out []*estimator.Field
	for _, f := range estimator.Fields() {
		if strings.HasPrefix(f.Path, "model.") || f.Key == "input_width" || f.Key == "output_width" {
			out = append(out, f)
		}
	}
	return out
})

var loadPresetsOnce = sync.OnceValues(func() ([]Preset, error) { return readPresets(assets.Presets) })

// Presets returns the embedded Presets, the default first, then by name.
func Presets() ([]Preset, error) { return loadPresetsOnce() }

// readPresets reads every presets/*.json of fsys.
func readPresets(fsys fs.FS) ([]Preset, error) {
	names, err := fs.Glob(fsys, "presets/*.json")
	if err != nil {
		return nil, err
	}
	var out []Preset
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
func decodePreset(id string, data []byte) (Preset, error) {
	var pf presetFile
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&pf); err != nil {
		return Preset{}, fmt.Errorf("preset %s: %v", id, err)
	}
	if pf.Name == "" || pf.Source == "" || len(pf.Config) == 0 {
		return Preset{}, fmt.Errorf("preset %s: needs name, source and config", id)
	}
	cfg, err := estimator.DecodeConfig(pf.Config)
	if err != nil {
		return Preset{}, fmt.Errorf("preset %s: %v", id, err)
	}
	return Preset{ID: id, Name: pf.Name, Source: pf.Source, Config: cfg}, nil
}

// ApplyTo copies the preset's model fields (and FC2 widths) into c,
// with the fields only the resident count reads (docs/model.md §14.1).
// The resident group stays the user's (on or off, its rank), but its
// adapter targets go back to the new family's own list, since another
// family's names would be refused.
func (p Preset) ApplyTo(c *estimator.Config) {
	for _, f := range PresetFields() {
		if v, ok := f.Int(&p.Config); ok {
			f.SetInt(c, v)
		} else {
			f.Unset(c)
		}
	}
	c.Model.ArchFields = archOf(p)
	if c.Resident != nil && c.Resident.LoRATargets != nil {
		r := *c.Resident
		r.LoRATargets = nil
		c.Resident = &r
	}
}

// Matches reports whether c holds the preset's model.
func (p Preset) Matches(c estimator.Config) bool {
	for _, f := range PresetFields() {
		if f.Text(&p.Config) != f.Text(&c) {
			return false
		}
	}
	return archJSON(archOf(p)) == archJSON(c.Model.ArchFields)
}

// FindPreset returns the preset with the given ID.
func FindPreset(list []Preset, id string) (Preset, bool) {
	for _, p := range list {
		if p.ID == id {
			return p, true
		}
	}
	return Preset{}, false
}

// MatchPreset returns the ID of the first preset whose model c holds, or "".
func MatchPreset(list []Preset, c estimator.Config) string {
	for _, p := range list {
		if p.Matches(c) {
			return p.ID
		}
	}
	return ""
}

// MatchModel is MatchPreset by the registry's model fields alone: a
// baseline's model, whose arch fields are always the candidate's (an
// estimator baseline cannot override them; baselineResident prices its
// weights), is named by them.
func MatchModel(list []Preset, c estimator.Config) string {
	for _, p := range list {
		c.Model.ArchFields = archOf(p)
		if p.Matches(c) {
			return p.ID
		}
	}
	return ""
}
