package estimator_test

import (
	"encoding/json"
	"fmt"
	"headroom/estimator"
	"headroom/estimator/hfconfig"
	"headroom/estimator/urlquery"
	"net/url"
	"strings"
	"testing"
)

// The bad-input table is an external test: it feeds one text to the
// URL codec (estimator/urlquery) and the Hugging Face import
// (estimator/hfconfig), which import the estimator, as well as to the
// estimator's own decoder.

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
	t.Parallel()
	if len(badInputs) < 40 {
		t.Fatalf("the table has %d rows; keep at least 40", len(badInputs))
	}
	for _, tt := range badInputs {
		f, ok := estimator.FieldByKey(tt.key)
		if !ok {
			t.Fatalf("no field %q", tt.key)
		}
		t.Run(tt.key+"="+tt.text, func(t *testing.T) {
			// The URL decoder keeps everything else and reports this field.
			cfg, errs := urlquery.Decode(url.Values{tt.key: {tt.text}, "vocab_size_other": {"x"}})
			if errs.Error() != tt.urlMsg {
				t.Errorf("URL:  %q\nwant  %q", errs.Error(), tt.urlMsg)
			}
			if _, err := cfg.Resolve(); err != nil {
				t.Errorf("URL decoder returned an invalid config: %v", err)
			}
			// The estimator, for text that parses as an integer.
			if v, err := estimator.ParseInt(tt.text); err == nil && f.Kind == estimator.IntField {
				c := estimator.Default()
				f.SetInt(&c, v)
				_, err := estimator.Estimate(c)
				if err == nil || err.Error() != tt.urlMsg {
					t.Errorf("Estimate: %v\nwant      %q", err, tt.urlMsg)
				}
			}
			// The JSON config decoder.
			body := nestJSON(f.Path, jsonLiteral(tt.text))
			got, err := estimator.DecodeConfig([]byte(body))
			if err == nil || err.Error() != tt.jsonMsg {
				t.Errorf("JSON %s: %v\nwant  %q", body, err, tt.jsonMsg)
			}
			if err != nil && string(estimator.MarshalConfig(got)) != string(estimator.MarshalConfig(estimator.Default())) {
				t.Errorf("JSON decoder changed the config on error")
			}
			// The HF importer, for model fields.
			if tt.hfMsg == "" {
				return
			}
			m := map[string]json.RawMessage{"vocab_size": json.RawMessage("151936"), "hidden_size": json.RawMessage("2048"), "num_hidden_layers": json.RawMessage("48")}
			m[tt.key] = json.RawMessage(jsonLiteral(tt.text))
			data, _ := json.Marshal(m)
			_, _, herr := hfconfig.Import(estimator.Default(), data)
			if herr == nil || herr.Error() != tt.hfMsg {
				t.Errorf("HF: %v\nwant %q", herr, tt.hfMsg)
			}
		})
	}
}
