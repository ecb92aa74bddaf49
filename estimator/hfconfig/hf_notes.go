package hfconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"headroom/estimator"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Note is a key of config.json that importModel read without filling a
// field from it: shown for information (the expert count), or ignored
// with the reason (torch_dtype "auto").
type Note struct {
	Key   string `json:"key"`   // "num_local_experts", "text_config.torch_dtype"
	Value string `json:"value"` // the value, as config.json has it (clipped)
	Note  string `json:"note"`
}

// lookupFunc finds a key of config.json: its raw value and its name as
// the report shows it ("text_config.vocab_size").
type lookupFunc func(key string) (json.RawMessage, string, bool)

// expertKeys name the expert count (not the top-k) in the families'
// config.json: Mixtral and gpt-oss, DeepSeek, Qwen. The first found wins.
var expertKeys = []string{"num_local_experts", "n_routed_experts", "num_experts"}

// expertCount is the range an expert count is read in.
var expertCount = &estimator.Field{Path: "expert count", Kind: estimator.IntField, Min: 0, Max: 1 << 20}

// hfExperts reads the expert count. The model has no field for it (the
// estimate needs the top-k, num_experts_per_tok, and the expert-parallel
// size), so it is shown as a note, for information. It checks one thing:
// a top-k above a positive expert count is refused, since the file then
// contradicts itself. A count that is not a whole number leaves the key
// ignored, with a note.
func hfExperts(cfg *estimator.Config, rep *Report, lookup lookupFunc, used map[string]bool) *estimator.Error {
	for _, key := range expertKeys {
		raw, name, ok := lookup(key)
		if !ok {
			continue
		}
		n, e := hfInt(expertCount, name, raw)
		if e != nil {
			rep.Notes = append(rep.Notes, Note{Key: name, Value: clip(string(bytes.TrimSpace(raw))), Note: "ignored: " + e.Message})
			return nil
		}
		used[name] = true
		rep.Notes = append(rep.Notes, Note{Key: name, Value: estimator.Group(n),
			Note: "the number of experts: kept for the resident count (docs/model.md §14); the request's stages use the top-k (num_experts_per_tok)"})
		if k := cfg.Model.NumExpertsPerTok; n > 0 && k > n {
			where := "model.num_experts_per_tok"
			for _, r := range rep.Recognised {
				if r.Field == where {
					where += " (config.json " + r.Key + ")"
				}
			}
			return &estimator.Error{Field: where, Message: "must be at most the number of experts (config.json " + name + " = " +
				estimator.Group(n) + "), got " + estimator.Group(k)}
		}
		return nil
	}
	return nil
}

// dtypeKeys name the element size: dtype as transformers writes it since
// 4.56, torch_dtype before. The first found wins.
var dtypeKeys = []string{"dtype", "torch_dtype"}

// DtypeBytes is the element size of a torch dtype as config.json names
// it ("bfloat16", "torch.float16"; case does not matter): bfloat16,
// float16 (half, bf16, fp16) 2; float32 (float, fp32) 4; float64 (double,
// fp64) 8; every float8 type (float8_e4m3fn, float8_e4m3fnuz, float8_e5m2,
// float8_e5m2fnuz, float8_e8m0fnu, fp8) 1. ok is false for "auto" and for
// any other name (integer and 4-bit types included: they are not the
// activations' type).
func DtypeBytes(name string) (n int64, ok bool) {
	s := strings.ToLower(strings.TrimSpace(name))
	s = strings.TrimPrefix(s, "torch.")
	switch s {
	case "bfloat16", "float16", "half", "bf16", "fp16":
		return 2, true
	case "float32", "float", "fp32":
		return 4, true
	case "float64", "double", "fp64":
		return 8, true
	}
	if strings.HasPrefix(s, "float8_") || s == "fp8" {
		return 1, true
	}
	return 0, false
}

// hfDtype sets fc2.dtype_bytes from the dtype, or notes why not.
func hfDtype(cfg *estimator.Config, rep *Report, lookup lookupFunc, used map[string]bool) {
	for _, key := range dtypeKeys {
		raw, name, ok := lookup(key)
		if !ok {
			continue
		}
		keeps := "; fc2.dtype_bytes keeps " + estimator.Group(cfg.FC2.DtypeBytes)
		value := clip(string(bytes.TrimSpace(raw)))
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			rep.Notes = append(rep.Notes, Note{Key: name, Value: value, Note: "ignored: not the name of a dtype" + keeps})
			return
		}
		b, known := DtypeBytes(s)
		switch {
		case strings.EqualFold(strings.TrimSpace(s), "auto"):
			rep.Notes = append(rep.Notes, Note{Key: name, Value: value,
				Note: `ignored: "auto" is the weights' own dtype, which config.json does not name` + keeps})
		case !known:
			rep.Notes = append(rep.Notes, Note{Key: name, Value: value,
				Note: "ignored: not a floating-point type of known size (bfloat16, float16, float32, float64, float8_*)" + keeps})
		default:
			f := fieldByPath["fc2.dtype_bytes"]
			f.SetInt(cfg, b)
			used[name] = true
			rep.Recognised = append(rep.Recognised, Field{Key: name, Field: f.Path, Value: b, Why: s})
		}
		return
	}
}

// JSONErrorText describes an error from decoding data as JSON: a syntax
// error with its line and column (1-based, the column in characters),
// "line 3, column 14: invalid character '}' looking for beginning of
// value"; any other error as it is.
func JSONErrorText(data []byte, err error) string {
	var syn *json.SyntaxError
	if !errors.As(err, &syn) {
		return err.Error()
	}
	at := syn.Offset
	if strings.HasPrefix(syn.Error(), "invalid character") && at > 0 {
		at-- // the offset counts the offending character
	}
	line, col := textPosition(data, at)
	return "line " + strconv.Itoa(line) + ", column " + strconv.Itoa(col) + ": " + syn.Error()
}

// textPosition is the line and column (1-based, in characters) of byte
// offset at of data.
func textPosition(data []byte, at int64) (line, col int) {
	at = max(0, min(at, int64(len(data))))
	before := data[:at]
	line = bytes.Count(before, []byte("\n")) + 1
	col = utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return line, col
}

// withPosition adds the line and column to the message of a config.json
// that is not valid JSON.
func withPosition(data []byte, msg string) string {
	if !strings.HasPrefix(msg, "is not valid JSON") {
		return msg
	}
	var raw json.RawMessage
	err := json.Unmarshal(data, &raw)
	var syn *json.SyntaxError
	if !errors.As(err, &syn) {
		return msg
	}
	return "is not valid JSON at " + JSONErrorText(data, err)
}
