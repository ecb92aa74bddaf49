package hfconfig

import (
	"errors"
	"headroom/estimator"
	"strings"
	"testing"
)

// hfBody is a minimal config.json with extra keys.
func hfBody(extra string) []byte {
	return []byte(`{"vocab_size": 1000, "hidden_size": 64, "num_hidden_layers": 2` + extra + `}`)
}

func TestImportHFDtype(t *testing.T) {
	t.Parallel()
	base := estimator.Default()
	base.FC2.DtypeBytes = 8 // so that every dtype the file sets shows
	tests := []struct {
		name, extra string
		want        int64  // fc2.dtype_bytes after the import
		key         string // the key recognised, or noted and ignored
		why         string // the recognised entry's Why, "" when ignored
		note        string // the note when ignored
	}{
		{"bfloat16", `, "torch_dtype": "bfloat16"`, 2, "torch_dtype", "bfloat16", ""},
		{"float16 as dtype", `, "dtype": "float16"`, 2, "dtype", "float16", ""},
		{"float32", `, "torch_dtype": "float32"`, 4, "torch_dtype", "float32", ""},
		{"float8_e4m3fn", `, "torch_dtype": "float8_e4m3fn"`, 1, "torch_dtype", "float8_e4m3fn", ""},
		{"float8_e5m2", `, "dtype": "float8_e5m2"`, 1, "dtype", "float8_e5m2", ""},
		{"float8_e4m3fnuz", `, "dtype": "float8_e4m3fnuz"`, 1, "dtype", "float8_e4m3fnuz", ""},
		{"torch prefix and case", `, "torch_dtype": "torch.BFloat16"`, 2, "torch_dtype", "torch.BFloat16", ""},
		{"float64", `, "torch_dtype": "float64"`, 8, "torch_dtype", "float64", ""},
		{"dtype before torch_dtype", `, "torch_dtype": "bfloat16", "dtype": "float32"`, 4, "dtype", "float32", ""},
		{"text_config first", `, "torch_dtype": "bfloat16", "text_config": {"torch_dtype": "float32"}`, 4, "text_config.torch_dtype", "float32", ""},
		{"auto", `, "torch_dtype": "auto"`, 8, "torch_dtype", "",
			`ignored: "auto" is the weights' own dtype, which config.json does not name; fc2.dtype_bytes keeps 8`},
		{"int8", `, "torch_dtype": "int8"`, 8, "torch_dtype", "",
			"ignored: not a floating-point type of known size (bfloat16, float16, float32, float64, float8_*); fc2.dtype_bytes keeps 8"},
		{"number", `, "dtype": 16`, 8, "dtype", "", "ignored: not the name of a dtype; fc2.dtype_bytes keeps 8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, rep, err := Import(base, hfBody(tt.extra))
			if err != nil {
				t.Fatal(err)
			}
			if got.FC2.DtypeBytes != tt.want {
				t.Errorf("dtype_bytes %d, want %d", got.FC2.DtypeBytes, tt.want)
			}
			got.FC2.DtypeBytes = base.FC2.DtypeBytes
			if got.FC2 != base.FC2 || got.Request != base.Request || got.Budget != base.Budget {
				t.Errorf("more than the model and dtype_bytes changed: %+v", got)
			}
			if tt.why != "" {
				want := Field{Key: tt.key, Field: "fc2.dtype_bytes", Value: tt.want, Why: tt.why}
				if !hasField(rep.Recognised, want) || contains(rep.Ignored, tt.key) {
					t.Errorf("recognised %+v, ignored %v; want %+v", rep.Recognised, rep.Ignored, want)
				}
				return
			}
			if len(rep.Notes) != 1 || rep.Notes[0].Key != tt.key || rep.Notes[0].Note != tt.note {
				t.Fatalf("notes %+v\nwant %s: %q", rep.Notes, tt.key, tt.note)
			}
			if !contains(rep.Ignored, tt.key) {
				t.Errorf("%s not listed as ignored: %v", tt.key, rep.Ignored)
			}
		})
	}
	// DtypeBytes alone, for what the page may show.
	for name, want := range map[string]int64{"bfloat16": 2, "half": 2, "float": 4, "float8_e8m0fnu": 1, "fp8": 1, "double": 8} {
		if got, ok := DtypeBytes(name); !ok || got != want {
			t.Errorf("DtypeBytes(%q) = %d, %v; want %d", name, got, ok, want)
		}
	}
	for _, name := range []string{"auto", "int8", "uint8", "float4_e2m1fn_x2", "complex64", "", "bool"} {
		if got, ok := DtypeBytes(name); ok {
			t.Errorf("DtypeBytes(%q) = %d, want unknown", name, got)
		}
	}
}

func hasField(list []Field, f Field) bool {
	for _, x := range list {
		if x == f {
			return true
		}
	}
	return false
}

func TestImportHFExperts(t *testing.T) {
	t.Parallel()
	const info = "the number of experts: kept for the resident count (docs/model.md §14); the request's stages use the top-k (num_experts_per_tok)"
	tests := []struct {
		name, extra string
		notes       []Note
		ignored     []string
		errField    string
		errMsg      string
	}{
		{"mixtral", `, "num_local_experts": 8, "num_experts_per_tok": 2`,
			[]Note{{"num_local_experts", "8", info}}, nil, "", ""},
		{"deepseek", `, "n_routed_experts": 256, "num_experts_per_tok": 8`,
			[]Note{{"n_routed_experts", "256", info}}, nil, "", ""},
		{"qwen in text_config", `, "text_config": {"num_experts": 512}, "num_experts_per_tok": 10`,
			[]Note{{"text_config.num_experts", "512", info}}, nil, "", ""},
		{"first key wins", `, "num_local_experts": 8, "num_experts": 16, "num_experts_per_tok": 2`,
			[]Note{{"num_local_experts", "8", info}}, nil, "", ""}, // num_experts is kept too: the resident count finds the names disagree
		{"zero experts", `, "num_experts": 0, "num_experts_per_tok": 2`,
			[]Note{{"num_experts", "0", info}}, nil, "", ""},
		{"not a number", `, "num_local_experts": "eight"`,
			[]Note{{"num_local_experts", `"eight"`, `ignored: must be an integer in 0..1,048,576, got "eight"`}}, []string{"num_local_experts"}, "", ""},
		{"top-k above the experts", `, "num_experts": 8, "num_experts_per_tok": 10`, nil, nil,
			"model.num_experts_per_tok (config.json num_experts_per_tok)", "must be at most the number of experts (config.json num_experts = 8), got 10"},
		{"gpt-oss top-k above the experts", `, "num_local_experts": 2, "experts_per_token": 4`, nil, nil,
			"model.num_experts_per_tok (config.json experts_per_token)", "must be at most the number of experts (config.json num_local_experts = 2), got 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := estimator.Default().Model
			got, rep, err := importModel(base, hfBody(tt.extra))
			if tt.errMsg != "" {
				var e *estimator.Error
				if !errors.As(err, &e) || e.Field != tt.errField || e.Message != tt.errMsg {
					t.Fatalf("error %v\nwant  %s: %s", err, tt.errField, tt.errMsg)
				}
				if got != base {
					t.Errorf("the model changed on an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Notes) != len(tt.notes) {
				t.Fatalf("notes %+v\nwant  %+v", rep.Notes, tt.notes)
			}
			for i := range tt.notes {
				if rep.Notes[i] != tt.notes[i] {
					t.Errorf("note %+v\nwant %+v", rep.Notes[i], tt.notes[i])
				}
			}
			for _, n := range rep.Notes {
				if ign := contains(rep.Ignored, n.Key); ign != strings.HasPrefix(n.Note, "ignored") {
					t.Errorf("%s: ignored %v, note %q", n.Key, ign, n.Note)
				}
			}
			for _, k := range tt.ignored {
				if !contains(rep.Ignored, k) {
					t.Errorf("%s not ignored: %v", k, rep.Ignored)
				}
			}
		})
	}
}

func TestImportHFSyntaxPosition(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, input, msg string
	}{
		{"missing value", "{\"vocab_size\": 1,\n  \"hidden_size\": }",
			"is not valid JSON at line 2, column 18: invalid character '}' looking for beginning of value"},
		{"truncated", `{"vocab_size": 151936, "hidden_size": 20`,
			"is not valid JSON at line 1, column 41: unexpected end of JSON input"},
		{"characters, not bytes", "{\"é\": tru}",
			"is not valid JSON at line 1, column 10: invalid character '}' in literal true (expecting 'e')"},
		{"third line", "{\n\"a\": 1,\n\"b\" 2}",
			"is not valid JSON at line 3, column 5: invalid character '2' after object key"},
		{"leading blank lines", "\n\n{\"a\": 1,}",
			"is not valid JSON at line 3, column 9: invalid character '}' looking for beginning of object key string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Import(estimator.Default(), []byte(tt.input))
			var e *estimator.Error
			if !errors.As(err, &e) || e.Field != "config.json" || e.Message != tt.msg {
				t.Fatalf("error %v\nwant  config.json: %s", err, tt.msg)
			}
		})
	}
	if got := JSONErrorText(nil, errors.New("other")); got != "other" {
		t.Errorf("JSONErrorText of a non-syntax error = %q", got)
	}
}
