package page

import (
	"bytes"
	"encoding/json"
	"errors"

	"headroom/estimator"
	"headroom/estimator/hfconfig"
)

// View is the part of the page's state that is not the config: which
// preset it started from and what the chart sweeps. It travels in the URL
// beside the config and in the JSON export.
type View struct {
	Preset string `json:"preset,omitempty"`
	Axis   string `json:"axis"`
	From   int64  `json:"from"`
	To     int64  `json:"to"`
}

// importFile is the part of Headroom's own JSON export that an import
// reads: the view and the config (the result and flips are recomputed).
type importFile struct {
	Headroom int             `json:"headroom"`
	View     View            `json:"view"`
	Config   json.RawMessage `json:"config"`
}

// Imported is what a dropped or pasted JSON file turned out to be.
type Imported struct {
	Kind   string // "export" (Headroom's own), "config" (the spec's format) or "hf"
	Config estimator.Config
	View   *View           // set for an export
	HF     hfconfig.Report // set for "hf"
}

// ImportJSON reads a file a person dropped or pasted: Headroom's own
// export (the whole state), a config in the spec's format, or a Hugging
// Face config.json (hfconfig.Import: the model fields and
// dtype_bytes change, on top of current). A file that is not JSON is
// refused with the line and column of the fault. On an error nothing is
// returned to apply: the page keeps its state.
func ImportJSON(current estimator.Config, data []byte) (Imported, error) {
	if len(data) > estimator.MaxInputBytes {
		return Imported{}, errors.New("the file is larger than " + estimator.Group(estimator.MaxInputBytes) + " bytes; is it a config?")
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff")) // a byte order mark some editors write
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return Imported{}, errors.New("not a JSON object: " + hfconfig.JSONErrorText(data, err))
	}
	if _, err := estimator.DecodeJSONObject(data); err != nil { // a key given twice at the top
		return Imported{}, errors.New("the file " + err.Error())
	}
	if _, ok := probe["headroom"]; ok {
		var f importFile
		if err := json.Unmarshal(data, &f); err != nil {
			return Imported{}, errors.New("a Headroom export, but " + err.Error())
		}
		cfg, err := estimator.DecodeConfig(f.Config)
		if err != nil {
			return Imported{}, err
		}
		return Imported{Kind: "export", Config: cfg, View: &f.View}, nil
	}
	if isSpecConfig(probe) {
		cfg, err := estimator.DecodeConfig(data)
		if err != nil {
			return Imported{}, err
		}
		return Imported{Kind: "config", Config: cfg}, nil
	}
	cfg, rep, err := hfconfig.Import(current, data)
	if err != nil {
		return Imported{}, err
	}
	return Imported{Kind: "hf", Config: cfg, HF: rep}, nil
}

// isSpecConfig tells the spec's format (groups at the top) from a Hugging
// Face config.json (vocab_size, model_type at the top).
func isSpecConfig(probe map[string]json.RawMessage) bool {
	if len(probe) == 0 {
		return true // {} is the default config
	}
	for _, k := range estimator.TopLevelKeys() {
		if _, ok := probe[k]; ok {
			return true
		}
	}
	return false
}
