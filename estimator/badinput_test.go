package estimator

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// badInputs is the bad-input table: each row a field, the text a person
// (or a hand-edited link, or a pasted JSON) gave it, and the exact message
// expected from the URL decoder, the JSON config decoder and, for model
// fields, the Hugging Face importer ("" = not a model field). Where the
// text parses as an integer, the estimator itself (Resolve) must give the
// URL decoder's message too.
var badInputs = []struct {
	key, text       string
	urlMsg, jsonMsg string
	hfMsg           string
}{
	{"rows", "0",
		"request.rows: must be an integer in 1..2,147,483,647, got 0",
		"request.rows: must be an integer in 1..2,147,483,647, got 0",
		""},
	{"rows", "-5",
		"request.rows: must be an integer in 1..2,147,483,647, got -5",
		"request.rows: must be an integer in 1..2,147,483,647, got -5",
		""},
	{"rows", "1.5",
		"request.rows: 1.5 rows is not a whole number of rows; must be an integer in 1..2,147,483,647",
		"request.rows: must be a whole number; must be an integer in 1..2,147,483,647, got 1.5",
		""},
	{"rows", "NaN",
		"request.rows: is not a finite integer: \"NaN\"; must be an integer in 1..2,147,483,647",
		"request.rows: must be an integer in 1..2,147,483,647, got \"NaN\"",
		""},
	{"rows", "Infinity",
		"request.rows: is not a finite integer: \"Infinity\"; must be an integer in 1..2,147,483,647",
		"request.rows: must be an integer in 1..2,147,483,647, got \"Infinity\"",
		""},
	{"rows", "-Infinity",
		"request.rows: is not a finite integer: \"-Infinity\"; must be an integer in 1..2,147,483,647",
		"request.rows: must be an integer in 1..2,147,483,647, got \"-Infinity\"",
		""},
	{"rows", "1e30",
		"request.rows: is beyond the range of a 64-bit integer: \"1e30\"; must be an integer in 1..2,147,483,647",
		"request.rows: is beyond the range of a 64-bit integer; must be an integer in 1..2,147,483,647, got 1e30",
		""},
	{"rows", "9223372036854775808",
		"request.rows: is beyond the range of a 64-bit integer: \"9223372036854775808\"; must be an integer in 1..2,147,483,647",
		"request.rows: is beyond the range of a 64-bit integer; must be an integer in 1..2,147,483,647, got 9223372036854775808",
		""},
	{"rows", "",
		"request.rows: is empty; must be an integer in 1..2,147,483,647",
		"request.rows: must be an integer in 1..2,147,483,647, got \"\"",
		""},
	{"rows", "   ",
		"request.rows: is empty; must be an integer in 1..2,147,483,647",
		"request.rows: must be an integer in 1..2,147,483,647, got \"   \"",
		""},
	{"rows", "٦٤٩٠٢",
		"request.rows: must use the digits 0-9: \"٦٤٩٠٢\"; must be an integer in 1..2,147,483,647",
		"request.rows: must be an integer in 1..2,147,483,647, got \"٦٤٩٠٢\"",
		""},
	{"rows", "６４９０２",
		"request.rows: must use the digits 0-9: \"６４９０２\"; must be an integer in 1..2,147,483,647",
		"request.rows: must be an integer in 1..2,147,483,647, got \"６４９０２\"",
		""},
	{"rows", "64,,902",
		"request.rows: is not an integer: \"64,,902\"; must be an integer in 1..2,147,483,647",
		"request.rows: must be an integer in 1..2,147,483,647, got \"64,,902\"",
		""},
	{"rows", "0x10",
		"request.rows: must be written in decimal digits, not hexadecimal, octal or binary: \"0x10\"; must be an integer in 1..2,147,483,647",
		"request.rows: must be an integer in 1..2,147,483,647, got \"0x10\"",
		""},
	{"rows", "1 000",
		"request.rows: is not an integer: \"1 000\"; must be an integer in 1..2,147,483,647",
		"request.rows: must be an integer in 1..2,147,483,647, got \"1 000\"",
		""},
	{"rows", "2147483648",
		"request.rows: must be an integer in 1..2,147,483,647, got 2,147,483,648",
		"request.rows: must be an integer in 1..2,147,483,647, got 2,147,483,648",
		""},
	{"vocab_size", "67108865",
		"model.vocab_size: must be an integer in 1..67,108,864, got 67,108,865",
		"model.vocab_size: must be an integer in 1..67,108,864, got 67,108,865",
		"model.vocab_size (config.json vocab_size): must be an integer in 1..67,108,864, got 67,108,865"},
	{"vocab_size", "0",
		"model.vocab_size: must be an integer in 1..67,108,864, got 0",
		"model.vocab_size: must be an integer in 1..67,108,864, got 0",
		"model.vocab_size (config.json vocab_size): must be an integer in 1..67,108,864, got 0"},
	{"hidden_size", "1048577",
		"model.hidden_size: must be an integer in 1..1,048,576, got 1,048,577",
		"model.hidden_size: must be an integer in 1..1,048,576, got 1,048,577",
		"model.hidden_size (config.json hidden_size): must be an integer in 1..1,048,576, got 1,048,577"},
	{"num_hidden_layers", "0",
		"model.num_hidden_layers: must be an integer in 1..1,048,576, got 0",
		"model.num_hidden_layers: must be an integer in 1..1,048,576, got 0",
		"model.num_hidden_layers (config.json num_hidden_layers): must be an integer in 1..1,048,576, got 0"},
	{"num_experts_per_tok", "1025",
		"model.num_experts_per_tok: must be an integer in 0..1,024, got 1,025",
		"model.num_experts_per_tok: must be an integer in 0..1,024, got 1,025",
		"model.num_experts_per_tok (config.json num_experts_per_tok): must be an integer in 0..1,024, got 1,025"},
	{"num_experts_per_tok", "-1",
		"model.num_experts_per_tok: must be an integer in 0..1,024, got -1",
		"model.num_experts_per_tok: must be an integer in 0..1,024, got -1",
		"model.num_experts_per_tok (config.json num_experts_per_tok): must be an integer in 0..1,024, got -1"},
	{"moe_intermediate_size", "0",
		"model.moe_intermediate_size: must be an integer in 1..1,048,576, got 0",
		"model.moe_intermediate_size: must be an integer in 1..1,048,576, got 0",
		"model.moe_intermediate_size (config.json moe_intermediate_size): must be an integer in 1..1,048,576, got 0"},
	{"linear_num_key_heads", "1048577",
		"model.linear_num_key_heads: must be an integer in 0..1,048,576, got 1,048,577",
		"model.linear_num_key_heads: must be an integer in 0..1,048,576, got 1,048,577",
		"model.linear_num_key_heads (config.json linear_num_key_heads): must be an integer in 0..1,048,576, got 1,048,577"},
	{"linear_key_head_dim", "0",
		"model.linear_key_head_dim: must be an integer in 1..1,048,576, got 0",
		"model.linear_key_head_dim: must be an integer in 1..1,048,576, got 0",
		"model.linear_key_head_dim (config.json linear_key_head_dim): must be an integer in 1..1,048,576, got 0"},
	{"linear_num_value_heads", "0",
		"model.linear_num_value_heads: must be an integer in 1..1,048,576, got 0",
		"model.linear_num_value_heads: must be an integer in 1..1,048,576, got 0",
		"model.linear_num_value_heads (config.json linear_num_value_heads): must be an integer in 1..1,048,576, got 0"},
	{"linear_value_head_dim", "2000000",
		"model.linear_value_head_dim: must be an integer in 1..1,048,576, got 2,000,000",
		"model.linear_value_head_dim: must be an integer in 1..1,048,576, got 2,000,000",
		"model.linear_value_head_dim (config.json linear_value_head_dim): must be an integer in 1..1,048,576, got 2,000,000"},
	{"sequence_rows", "0",
		"request.sequence_rows: must be an integer in 1..2,147,483,647, got 0",
		"request.sequence_rows: must be an integer in 1..2,147,483,647, got 0",
		""},
	{"projected_rows", "70000",
		"request.projected_rows: must be in 1..rows (64,902), got 70,000",
		"request.projected_rows: must be in 1..rows (64,902), got 70,000",
		""},
	{"target_rows", "70000",
		"request.target_rows: must be in 0..projected_rows (64,902), got 70,000",
		"request.target_rows: must be in 0..projected_rows (64,902), got 70,000",
		""},
	{"topk", "-1",
		"request.outputs.topk: must be an integer in 0..1,048,576, got -1",
		"request.outputs.topk: must be an integer in 0..1,048,576, got -1",
		""},
	{"chunk_rows", "0",
		"head.chunk_rows: must be an integer in 1..2,147,483,647, got 0",
		"head.chunk_rows: must be an integer in 1..2,147,483,647, got 0",
		""},
	{"input_width", "0",
		"fc2.input_width: must be an integer in 1..1,048,576, got 0",
		"fc2.input_width: must be an integer in 1..1,048,576, got 0",
		""},
	{"output_width", "1048577",
		"fc2.output_width: must be an integer in 1..1,048,576, got 1,048,577",
		"fc2.output_width: must be an integer in 1..1,048,576, got 1,048,577",
		""},
	{"dtype_bytes", "3",
		"fc2.dtype_bytes: must be one of 1, 2, 4, 8, got 3",
		"fc2.dtype_bytes: must be one of 1, 2, 4, 8, got 3",
		""},
	{"dtype_bytes", "16",
		"fc2.dtype_bytes: must be one of 1, 2, 4, 8, got 16",
		"fc2.dtype_bytes: must be one of 1, 2, 4, 8, got 16",
		""},
	{"expert_parallel", "0",
		"fc2.expert_parallel: must be an integer in 1..1,024, got 0",
		"fc2.expert_parallel: must be an integer in 1..1,024, got 0",
		""},
	{"expert_parallel", "1025",
		"fc2.expert_parallel: must be an integer in 1..1,024, got 1,025",
		"fc2.expert_parallel: must be an integer in 1..1,024, got 1,025",
		""},
	{"capacity_bytes", "0",
		"budget.capacity_bytes: must be an integer in 1..1,125,899,906,842,624, got 0",
		"budget.capacity_bytes: must be an integer in 1..1,125,899,906,842,624, got 0",
		""},
	{"capacity_bytes", "1125899906842625",
		"budget.capacity_bytes: must be an integer in 1..1,125,899,906,842,624, got 1,125,899,906,842,625",
		"budget.capacity_bytes: must be an integer in 1..1,125,899,906,842,624, got 1,125,899,906,842,625",
		""},
	{"in_use_bytes", "200000000000",
		"budget.in_use_bytes: must be in 0..capacity_bytes (150,754,820,096), got 200,000,000,000",
		"budget.in_use_bytes: must be in 0..capacity_bytes (150,754,820,096), got 200,000,000,000",
		""},
	{"in_use_bytes", "-1",
		"budget.in_use_bytes: must be an integer in 0..1,125,899,906,842,624, got -1",
		"budget.in_use_bytes: must be an integer in 0..1,125,899,906,842,624, got -1",
		""},
	{"reserve_permille", "1000",
		"budget.reserve_permille: must be an integer in 0..999, got 1,000",
		"budget.reserve_permille: must be an integer in 0..999, got 1,000",
		""},
	{"safety_percent", "99",
		"budget.safety_percent: must be an integer in 100..1,000, got 99",
		"budget.safety_percent: must be an integer in 100..1,000, got 99",
		""},
	{"safety_percent", "1001",
		"budget.safety_percent: must be an integer in 100..1,000, got 1,001",
		"budget.safety_percent: must be an integer in 100..1,000, got 1,001",
		""},
	{"retained_per_row_bytes", "-1",
		"budget.retained_per_row_bytes: must be an integer in 0..1,125,899,906,842,624, got -1",
		"budget.retained_per_row_bytes: must be an integer in 0..1,125,899,906,842,624, got -1",
		""},
	{"allocator_round_bytes", "0",
		"allocator_round_bytes: must be an integer in 1..1,073,741,824, got 0",
		"allocator_round_bytes: must be an integer in 1..1,073,741,824, got 0",
		""},
	{"allocator_round_bytes", "1073741825",
		"allocator_round_bytes: must be an integer in 1..1,073,741,824, got 1,073,741,825",
		"allocator_round_bytes: must be an integer in 1..1,073,741,824, got 1,073,741,825",
		""},
	{"grad", "maybe",
		"request.grad: must be true or false, got \"maybe\"",
		"request.grad: must be true or false, got \"maybe\"",
		""},
	{"logprobs", "2",
		"request.outputs.logprobs: must be true or false, got \"2\"",
		"request.outputs.logprobs: must be true or false, got 2",
		""},
}

// jsonLiteral is text as a JSON value: itself when it is a valid JSON
// number or literal, else a JSON string holding it.
func jsonLiteral(text string) string {
	if strings.TrimSpace(text) != "" && json.Valid([]byte(text)) {
		return text
	}
	b, _ := json.Marshal(text)
	return string(b)
}

// nestJSON wraps value in the objects of a field's path.
func nestJSON(path, value string) string {
	parts := strings.Split(path, ".")
	body := value
	for i := len(parts) - 1; i >= 0; i-- {
		body = fmt.Sprintf("{%q: %s}", parts[i], body)
	}
	return body
}

func TestBadInputTable(t *testing.T) {
	if len(badInputs) < 40 {
		t.Fatalf("the table has %d rows; keep at least 40", len(badInputs))
	}
	for _, tt := range badInputs {
		f, ok := FieldByKey(tt.key)
		if !ok {
			t.Fatalf("no field %q", tt.key)
		}
		t.Run(tt.key+"="+tt.text, func(t *testing.T) {
			// The URL decoder keeps everything else and reports this field.
			cfg, errs := DecodeQuery(url.Values{tt.key: {tt.text}, "vocab_size_other": {"x"}})
			if errs.Error() != tt.urlMsg {
				t.Errorf("URL:  %q\nwant  %q", errs.Error(), tt.urlMsg)
			}
			if _, err := cfg.Resolve(); err != nil {
				t.Errorf("URL decoder returned an invalid config: %v", err)
			}
			// The estimator, for text that parses as an integer.
			if v, err := ParseInt(tt.text); err == nil && f.Kind == IntField {
				c := Default()
				f.SetInt(&c, v)
				_, err := Estimate(c)
				if err == nil || err.Error() != tt.urlMsg {
					t.Errorf("Estimate: %v\nwant      %q", err, tt.urlMsg)
				}
			}
			// The JSON config decoder.
			body := nestJSON(f.Path, jsonLiteral(tt.text))
			got, err := DecodeConfig([]byte(body))
			if err == nil || err.Error() != tt.jsonMsg {
				t.Errorf("JSON %s: %v\nwant  %q", body, err, tt.jsonMsg)
			}
			if err != nil && MarshalConfigString(got) != MarshalConfigString(Default()) {
				t.Errorf("JSON decoder changed the config on error")
			}
			// The HF importer, for model fields.
			if tt.hfMsg == "" {
				return
			}
			m := map[string]json.RawMessage{"vocab_size": json.RawMessage("151936"), "hidden_size": json.RawMessage("2048"), "num_hidden_layers": json.RawMessage("48")}
			m[tt.key] = json.RawMessage(jsonLiteral(tt.text))
			data, _ := json.Marshal(m)
			_, _, herr := ImportHF(Default().Model, data)
			if herr == nil || herr.Error() != tt.hfMsg {
				t.Errorf("HF: %v\nwant %q", herr, tt.hfMsg)
			}
		})
	}
}

// badObserved is the bad-input table of the observed points (docs/model.md §12):
// the JSON of the "observed" key and the exact message. Where the points
// parse, a Config holding them gives the same message from Estimate.
var badObserved = []struct {
	name, json, msg string
}{
	{"rows zero", `[{"rows": 0, "peak_bytes": 5}]`, "observed[0].rows: must be an integer in 1..2,147,483,647, got 0"},
	{"rows negative", `[{"rows": 1, "peak_bytes": 5}, {"rows": -3, "peak_bytes": 5}]`, "observed[1].rows: must be an integer in 1..2,147,483,647, got -3"},
	{"rows too many", `[{"rows": 2147483648, "peak_bytes": 5}]`, "observed[0].rows: must be an integer in 1..2,147,483,647, got 2,147,483,648"},
	{"rows fraction", `[{"rows": 1.5, "peak_bytes": 5}]`, "observed[0].rows: must be a whole number; must be an integer in 1..2,147,483,647, got 1.5"},
	{"rows string", `[{"rows": "64,902", "peak_bytes": 5}]`, `observed[0].rows: must be an integer in 1..2,147,483,647, got "64,902"`},
	{"rows missing", `[{"peak_bytes": 5}]`, "observed[0].rows: is required"},
	{"peak zero", `[{"rows": 1, "peak_bytes": 0}]`, "observed[0].peak_bytes: must be an integer in 1..1,125,899,906,842,624, got 0"},
	{"peak above 2^50", `[{"rows": 1, "peak_bytes": 1125899906842625}]`, "observed[0].peak_bytes: must be an integer in 1..1,125,899,906,842,624, got 1,125,899,906,842,625"},
	{"peak beyond int64", `[{"rows": 1, "peak_bytes": 1e30}]`, "observed[0].peak_bytes: is beyond the range of a 64-bit integer; must be an integer in 1..1,125,899,906,842,624, got 1e30"},
	{"peak exponent", `[{"rows": 1, "peak_bytes": 8.8e10}]`, "observed[0].peak_bytes: must be written as a whole number, without a fraction or exponent; must be an integer in 1..1,125,899,906,842,624, got 8.8e10"},
	{"peak missing", `[{"rows": 3}]`, "observed[0].peak_bytes: is required"},
	{"label too long", `[{"rows": 1, "peak_bytes": 1, "label": "` + strings.Repeat("x", 65) + `"}]`, "observed[0].label: must be at most 64 bytes, got 65"},
	{"label multibyte too long", `[{"rows": 1, "peak_bytes": 1, "label": "` + strings.Repeat("é", 33) + `"}]`, "observed[0].label: must be at most 64 bytes, got 66"},
	{"label number", `[{"rows": 1, "peak_bytes": 1, "label": 5}]`, "observed[0].label: must be a JSON string, got 5"},
	{"label null", `[{"rows": 1, "peak_bytes": 1, "label": null}]`, "observed[0].label: must be a JSON string, got null"},
	{"unknown key", `[{"rows": 1, "peak_bytes": 1, "gib": 2}]`, "observed[0].gib: is not a field of an observed point; allowed here: label, peak_bytes, rows"},
	{"empty key", `[{"rows": 1, "peak_bytes": 1, "": 2}]`, `observed[0] key "": is not a field of an observed point; allowed here: label, peak_bytes, rows`},
	{"point not an object", `[{"rows": 1, "peak_bytes": 1}, [1, 2]]`, "observed[1]: must be a JSON object"},
	{"not an array", `{"rows": 1, "peak_bytes": 1}`, `observed: must be a JSON array of points {"rows": n, "peak_bytes": B, "label": "..."}, got {"rows": 1, "peak_bytes": 1}`},
	{"65 points", "[" + strings.Repeat(`{"rows": 1, "peak_bytes": 1},`, 64) + `{"rows": 1, "peak_bytes": 1}]`, "observed: must hold at most 64 points, got 65"},
	{"two bad points", `[{"rows": 0, "peak_bytes": 1}, {"rows": 1, "peak_bytes": -1}]`, "observed[0].rows: must be an integer in 1..2,147,483,647, got 0; observed[1].peak_bytes: must be an integer in 1..1,125,899,906,842,624, got -1"},
}

func TestBadObserved(t *testing.T) {
	for _, tt := range badObserved {
		t.Run(tt.name, func(t *testing.T) {
			body := `{"observed": ` + tt.json + `}`
			got, err := DecodeConfig([]byte(body))
			if err == nil || err.Error() != tt.msg {
				t.Errorf("JSON: %v\nwant  %q", err, tt.msg)
			}
			if err != nil && MarshalConfigString(got) != MarshalConfigString(Default()) {
				t.Errorf("JSON decoder changed the config on error")
			}
			// The same points built in Go, where they parse.
			var pts []ObservedPoint
			if json.Unmarshal([]byte(tt.json), &pts) != nil || strings.Contains(tt.json, "null") || strings.Contains(tt.json, "gib") || strings.Contains(tt.json, `"": 2`) || strings.HasSuffix(tt.name, "missing") {
				return
			}
			c := Default()
			c.Observed = pts
			if _, err := Estimate(c); err == nil || err.Error() != tt.msg {
				t.Errorf("Estimate: %v\nwant      %q", err, tt.msg)
			}
		})
	}
}

// TestObservedAccepted: the ends of every range, a label of 64 bytes,
// null and [] as no points.
func TestObservedAccepted(t *testing.T) {
	for name, body := range map[string]string{
		"ends":  `[{"rows": 1, "peak_bytes": 1}, {"rows": 2147483647, "peak_bytes": 1125899906842624, "label": "` + strings.Repeat("x", 64) + `"}]`,
		"null":  `null`,
		"empty": `[]`,
	} {
		t.Run(name, func(t *testing.T) {
			c := mustDecode(t, []byte(`{"observed": `+body+`}`))
			res, err := Estimate(c)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Observed) != len(c.Observed) || (res.Fit != nil) != (len(c.Observed) > 0) {
				t.Errorf("%d points gave %d results, fit %v", len(c.Observed), len(res.Observed), res.Fit)
			}
		})
	}
}

// TestGroupedDigitsAccepted: a person may type 64,902 or 64_902.
func TestGroupedDigitsAccepted(t *testing.T) {
	for _, text := range []string{"64,902", "64_902", " 64902 ", "+64902", "64,9,02"} {
		cfg, errs := DecodeQuery(url.Values{"rows": {text}})
		if len(errs) > 0 || cfg.Request.Rows != 64902 {
			t.Errorf("rows=%q: rows %d, errors %v", text, cfg.Request.Rows, errs)
		}
	}
}

// setExtreme puts f at v in the default config, keeping cross-field limits
// satisfiable (in_use at most capacity, projected and target rows following
// rows).
func setExtreme(f *Field, v int64) Config {
	c := Default()
	f.SetInt(&c, v)
	return c
}

// TestFieldExtremes sets every integer field to its minimum and maximum:
// never a panic; either a result or an error naming the fields; one past
// either end is refused naming the field.
func TestFieldExtremes(t *testing.T) {
	for _, f := range Fields() {
		if f.Kind != IntField {
			continue
		}
		lo, hi := f.Min, f.Max
		for _, v := range []int64{lo, hi} {
			if f.OneOf != nil && v == hi {
				v = f.OneOf[len(f.OneOf)-1]
			}
			c := setExtreme(f, v)
			_, err := Estimate(c)
			if err != nil {
				var e *Error
				var list ErrorList
				if !errors.As(err, &e) && !errors.As(err, &list) {
					t.Errorf("%s=%d: error %T %v names no field", f.Path, v, err, err)
				}
				if !strings.Contains(err.Error(), ".") && !strings.Contains(err.Error(), "allocator_round_bytes") {
					t.Errorf("%s=%d: %v", f.Path, v, err)
				}
			}
		}
		for _, v := range []int64{lo - 1, hi + 1} {
			_, err := Estimate(setExtreme(f, v))
			if err == nil || !strings.HasPrefix(err.Error(), f.Path+": ") {
				t.Errorf("%s=%d: error %v, want one naming %s", f.Path, v, err, f.Path)
			}
		}
	}
}

// TestPairsOfMaxima sets every pair of integer fields to their maxima: an
// overflow is an *Error naming the fields of the product, never a wrapped
// number or a panic; a result that comes back has non-negative bytes.
func TestPairsOfMaxima(t *testing.T) {
	var ints []*Field
	for _, f := range Fields() {
		if f.Kind == IntField && f.OneOf == nil {
			ints = append(ints, f)
		}
	}
	overflows := 0
	for i, a := range ints {
		for _, b := range ints[i+1:] {
			c := Default()
			a.SetInt(&c, a.Max)
			b.SetInt(&c, b.Max)
			c.FC2.DtypeBytes = 8
			res, err := Estimate(c)
			if err != nil {
				var e *Error
				if errors.As(err, &e) && strings.Contains(e.Message, "overflows") {
					overflows++
					if !strings.Contains(e.Field, ".") {
						t.Errorf("%s, %s: overflow names no field: %v", a.Key, b.Key, err)
					}
				}
				continue
			}
			for _, o := range []Outcome{res.Baseline, res.Candidate} {
				if o.RequiredBytes < 0 || o.LowerBoundBytes < 0 || o.RetainedBytes < 0 || o.EphemeralBytes < 0 {
					t.Errorf("%s, %s: negative bytes %+v", a.Key, b.Key, o)
				}
			}
		}
	}
	if overflows == 0 {
		t.Error("no pair of maxima overflowed; the test no longer exercises overflow")
	}
	t.Logf("%d pairs of maxima overflow, each reported as an error", overflows)
}
