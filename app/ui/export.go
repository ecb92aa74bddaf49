package ui

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"headroom/app/chart"
	"headroom/estimator"
)

// PageView is the part of the page's state that is not the config: which
// preset it started from and what the chart sweeps. It travels in the URL
// beside the config and in the JSON export.
type PageView struct {
	Preset string `json:"preset,omitempty"`
	Axis   string `json:"axis"`
	From   int64  `json:"from"`
	To     int64  `json:"to"`
}

// exportFile is Headroom's own JSON export: the config and the estimate
// result in the spec's shapes, plus the view, so importing it restores the
// whole page.
type exportFile struct {
	Headroom int              `json:"headroom"` // format version, 1
	View     PageView         `json:"view"`
	Config   json.RawMessage  `json:"config"`
	Result   estimator.Result `json:"result"`
}

// exportJSON writes the config, its estimate and the view.
func exportJSON(cfg estimator.Config, v PageView) ([]byte, error) {
	res, err := estimator.Estimate(cfg)
	if err != nil {
		return nil, err
	}
	f := exportFile{Headroom: 1, View: v, Config: estimator.MarshalConfig(cfg), Result: res}
	return json.MarshalIndent(f, "", "  ")
}

// CSVHeader names the CSV columns: x, then per revision each stage of the
// whole request, its retained bytes, the plan's required bytes, children
// and decision; then the lower bound and the available bytes.
func CSVHeader(axis string) []string {
	h := []string{axis}
	for _, rev := range []string{"baseline", "candidate"} {
		for s := estimator.Stage(0); s < estimator.NumStages; s++ {
			h = append(h, rev+"_"+s.String()+"_bytes")
		}
		h = append(h, rev+"_retained_bytes", rev+"_required_bytes", rev+"_children", rev+"_decision")
	}
	return append(h, "lower_bound_bytes", "available_bytes", "error")
}

// ExportCSV writes the sweep behind the chart, one row per x, exact bytes.
// An invalid point has empty byte columns, decision "invalid" and its
// message in the last column.
func ExportCSV(in chart.Input) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(append(CSVHeader(in.Axis.Key), csvTermHeader(in.Terms)...))
	itoa := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, p := range in.Points {
		row := []string{itoa(p.X)}
		for _, r := range p.Rev {
			if p.Error != "" {
				row = append(row, "", "", "", "", "", "", "", estimator.Invalid.String())
				continue
			}
			for _, b := range r.WholeStages {
				row = append(row, itoa(b))
			}
			row = append(row, itoa(r.WholeRetained), itoa(r.RequiredBytes), itoa(r.Children), r.Decision.String())
		}
		if p.Error != "" {
			row = append(row, "", "", p.Error)
		} else {
			row = append(row, itoa(p.LowerBoundBytes), itoa(p.AvailableBytes), "")
		}
		row = append(row, csvTermCells(in.Terms, &p)...)
		_ = w.Write(row)
	}
	w.Flush()
	return buf.Bytes()
}

// exportName is a file name for an export: the preset and axis, e.g.
// "qwen3-next-80b-a3b_rows.csv".
func exportName(preset, axis, ext string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(preset) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.':
			b.WriteRune(r)
		default:
			if s := b.String(); s != "" && !strings.HasSuffix(s, "-") {
				b.WriteByte('-')
			}
		}
	}
	name := strings.Trim(b.String(), "-.")
	if name == "" {
		name = "headroom"
	}
	return name + "_" + axis + "." + ext
}

// Imported is what a dropped or pasted JSON file turned out to be.
type Imported struct {
	Kind   string // "export" (Headroom's own), "config" (the spec's format) or "hf"
	Config estimator.Config
	View   *PageView          // set for an export
	HF     estimator.HFReport // set for "hf"
}

// ImportJSON reads a file a person dropped or pasted: Headroom's own
// export (the whole state), a config in the spec's format, or a Hugging
// Face config.json (only the model fields change, on top of current). On
// an error nothing is returned to apply: the page keeps its state.
func ImportJSON(current estimator.Config, data []byte) (Imported, error) {
	if len(data) > estimator.MaxInputBytes {
		return Imported{}, errors.New("the file is larger than " + estimator.Group(estimator.MaxInputBytes) + " bytes; is it a config?")
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return Imported{}, errors.New("not a JSON object: " + err.Error())
	}
	if _, ok := probe["headroom"]; ok {
		var f exportFile
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
	model, rep, err := estimator.ImportHF(current.Model, data)
	if err != nil {
		return Imported{}, err
	}
	cfg := current
	cfg.Model = model
	return Imported{Kind: "hf", Config: cfg, HF: rep}, nil
}

// isSpecConfig tells the spec's format (groups at the top) from a Hugging
// Face config.json (vocab_size, model_type at the top).
func isSpecConfig(probe map[string]json.RawMessage) bool {
	if len(probe) == 0 {
		return true // {} is the default config
	}
	for _, k := range []string{"model", "request", "head", "fc2", "budget", "changes", "allocator_round_bytes", "terms"} {
		if _, ok := probe[k]; ok {
			return true
		}
	}
	return false
}
