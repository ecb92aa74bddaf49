package hfconfig

import (
	"headroom/estimator"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestImportHFRealConfigs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file string
		want estimator.ModelConfig
		// ignoredSome are keys that must be reported as ignored, keptSome
		// keys kept for the resident count
		ignoredSome, keptSome []string
		// experts is the expert-count note, "key=value" ("" for none)
		experts string
		// dtype is the file's dtype key ("" for none)
		dtype string
	}{
		{"qwen3-next-80b-a3b.json", estimator.Default().Model, []string{"rope_theta"}, []string{"head_dim", "architectures", "num_experts"}, "num_experts=512", "torch_dtype"},
		{"qwen3-30b-a3b.json", estimator.ModelConfig{VocabSize: 151936, HiddenSize: 2048, NumHiddenLayers: 48, NumExpertsPerTok: 8, MoEIntermediateSize: 768,
			LinearNumKeyHeads: 0, LinearKeyHeadDim: 128, LinearNumValueHeads: 32, LinearValueHeadDim: 128}, []string{"rope_theta"}, []string{"head_dim", "num_key_value_heads"}, "num_experts=128", "torch_dtype"},
		{"llama-3.1-8b.json", estimator.ModelConfig{VocabSize: 128256, HiddenSize: 4096, NumHiddenLayers: 32, NumExpertsPerTok: 0, MoEIntermediateSize: 512,
			LinearNumKeyHeads: 0, LinearKeyHeadDim: 128, LinearNumValueHeads: 32, LinearValueHeadDim: 128}, []string{"rope_scaling"}, []string{"num_attention_heads", "tie_word_embeddings"}, "", "torch_dtype"},
		{"deepseek-v3.json", estimator.ModelConfig{VocabSize: 129280, HiddenSize: 7168, NumHiddenLayers: 61, NumExpertsPerTok: 8, MoEIntermediateSize: 2048,
			LinearNumKeyHeads: 0, LinearKeyHeadDim: 128, LinearNumValueHeads: 32, LinearValueHeadDim: 128}, []string{"quantization_config"}, []string{"kv_lora_rank", "n_shared_experts", "q_lora_rank"}, "n_routed_experts=256", "torch_dtype"},
		{"gpt-oss-120b.json", estimator.ModelConfig{VocabSize: 201088, HiddenSize: 2880, NumHiddenLayers: 36, NumExpertsPerTok: 4, MoEIntermediateSize: 2880,
			LinearNumKeyHeads: 0, LinearKeyHeadDim: 128, LinearNumValueHeads: 32, LinearValueHeadDim: 128}, []string{"sliding_window"}, []string{"experts_per_token", "attention_bias"}, "num_local_experts=128", ""},
		{"mixtral-8x7b.json", estimator.ModelConfig{VocabSize: 32000, HiddenSize: 4096, NumHiddenLayers: 32, NumExpertsPerTok: 2, MoEIntermediateSize: 14336,
			LinearNumKeyHeads: 0, LinearKeyHeadDim: 128, LinearNumValueHeads: 32, LinearValueHeadDim: 128}, []string{"rope_theta"}, []string{"num_local_experts", "num_key_value_heads"}, "num_local_experts=8", "torch_dtype"},
		// text_config wins over the top level (whose vocab_size is the
		// vision tower's placeholder here).
		{"nested-text-config.json", estimator.ModelConfig{VocabSize: 248320, HiddenSize: 2048, NumHiddenLayers: 40, NumExpertsPerTok: 8, MoEIntermediateSize: 512,
			LinearNumKeyHeads: 16, LinearKeyHeadDim: 128, LinearNumValueHeads: 32, LinearValueHeadDim: 128}, []string{"vocab_size", "vision_config"}, []string{"text_config.num_experts"}, "text_config.num_experts=256", ""},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "hf", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			got, rep, err := importModel(estimator.Default().Model, data)
			if err != nil {
				t.Fatalf("importModel: %v", err)
			}
			if registryModel(got) != tt.want {
				t.Errorf("model = %+v\nwant    %+v", registryModel(got), tt.want)
			}
			for _, k := range tt.keptSome {
				if !contains(rep.Kept, k) {
					t.Errorf("%s not kept for the resident count: %v", k, rep.Kept)
				}
			}
			ignored := strings.Join(rep.Ignored, " ")
			for _, k := range tt.ignoredSome {
				if !contains(rep.Ignored, k) {
					t.Errorf("%s not reported as ignored: %s", k, ignored)
				}
			}
			for _, r := range rep.Recognised {
				if contains(rep.Ignored, r.Key) {
					t.Errorf("%s both recognised and ignored", r.Key)
				}
			}
			var notes []string
			for _, n := range rep.Notes {
				notes = append(notes, n.Key+"="+n.Value)
				if contains(rep.Ignored, n.Key) {
					t.Errorf("%s both noted for information and ignored", n.Key)
				}
			}
			if want := strings.Fields(tt.experts); strings.Join(notes, " ") != strings.Join(want, " ") {
				t.Errorf("notes %v, want %v", notes, want)
			}
			// The model-only import keeps a known dtype for the resident
			// count; Import also sets the element size from it.
			if tt.dtype != "" && !contains(rep.Kept, tt.dtype) {
				t.Errorf("%s not kept by importModel: %v", tt.dtype, rep.Kept)
			}
			// The imported model prices without error in the default request.
			c := estimator.Default()
			c.Model = got
			if _, err := estimator.Estimate(c); err != nil {
				t.Errorf("Estimate of imported model: %v", err)
			}
			// Import sets the same model, and the element size.
			full, frep, err := Import(estimator.Default(), data)
			if err != nil || !sameModel(full.Model, got) {
				t.Fatalf("Import: %+v, %v", full.Model, err)
			}
			// It turns resident memory on for a named family, or says why
			// not (this nested config lacks num_attention_heads).
			named := got.ArchFields != nil && (len(got.Architectures) > 0 || got.ModelType != "")
			why := frep.ResidentOff
			if on := full.Resident != nil; on != (named && why == "") || (tt.file == "nested-text-config.json") != (why != "") {
				t.Errorf("resident on %v for a named family %v; note %q", on, named, why)
			}
			if tt.dtype == "" {
				if full.FC2 != estimator.Default().FC2 || len(frep.Recognised) != len(rep.Recognised) {
					t.Errorf("no dtype, but Import set %+v, recognised %+v", full.FC2, frep.Recognised)
				}
				return
			}
			last := frep.Recognised[len(frep.Recognised)-1]
			if len(frep.Recognised) != len(rep.Recognised)+1 || last != (Field{Key: tt.dtype, Field: "fc2.dtype_bytes", Value: 2, Why: "bfloat16"}) {
				t.Errorf("Import recognised %+v", frep.Recognised)
			}
			if full.FC2.DtypeBytes != 2 || contains(frep.Ignored, tt.dtype) {
				t.Errorf("dtype_bytes %d, ignored %v", full.FC2.DtypeBytes, frep.Ignored)
			}
		})
	}
}

// registryModel is m without the fields outside the registry's plain
// integers (the optional widths and the resident count's fields).
func registryModel(m estimator.ModelConfig) estimator.ModelConfig {
	m.ArchFields, m.IntermediateSize, m.SharedExpertIntermediateSize, m.LinearConvKernelDim = nil, nil, nil, nil
	return m
}

// sameModel compares two models by their JSON.
func sameModel(a, b estimator.ModelConfig) bool {
	return string(estimator.MarshalConfig(estimator.Config{Model: a})) == string(estimator.MarshalConfig(estimator.Config{Model: b}))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestImportHFBadInput(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("[", 200000) + strings.Repeat("]", 200000)
	deepObj := `{"vocab_size": 1000, "hidden_size": 64, "num_hidden_layers": 2, "x": ` + deep + `}`
	big := `{"vocab_size": 1000, "hidden_size": 64, "num_hidden_layers": 2, "pad": "` + strings.Repeat("a", 10<<20) + `"}`
	tests := []struct {
		name, input, wantField, wantMsg string
	}{
		{"empty", "", "config.json", "is empty"},
		{"whitespace", "  \n ", "config.json", "is empty"},
		{"array", "[1, 2]", "config.json", "must be a JSON object"},
		{"null", "null", "config.json", "must be a JSON object"},
		{"truncated", `{"vocab_size": 151936, "hidden_size": 20`, "config.json", "is not valid JSON"},
		{"trailing", `{"vocab_size": 1} {}`, "config.json", "has more after"},
		{"string number", `{"vocab_size": "151936", "hidden_size": 2048, "num_hidden_layers": 48}`, "model.vocab_size (config.json vocab_size)", "must be an integer in 1..67,108,864"},
		{"bool", `{"vocab_size": 151936, "hidden_size": true, "num_hidden_layers": 48}`, "model.hidden_size (config.json hidden_size)", "must be an integer"},
		{"fraction", `{"vocab_size": 151936, "hidden_size": 2048.5, "num_hidden_layers": 48}`, "model.hidden_size (config.json hidden_size)", "got 2048.5"},
		{"huge", `{"vocab_size": 1e30, "hidden_size": 2048, "num_hidden_layers": 48}`, "model.vocab_size (config.json vocab_size)", "got 1e30"},
		{"negative", `{"vocab_size": 151936, "hidden_size": -1, "num_hidden_layers": 48}`, "model.hidden_size (config.json hidden_size)", "got -1"},
		{"zero vocab", `{"vocab_size": 0, "hidden_size": 2048, "num_hidden_layers": 48}`, "model.vocab_size (config.json vocab_size)", "got 0"},
		{"beyond int64", `{"vocab_size": 99999999999999999999, "hidden_size": 2048, "num_hidden_layers": 48}`, "model.vocab_size (config.json vocab_size)", "got 99999999999999999999"},
		{"object value", `{"vocab_size": {"a": 1}, "hidden_size": 2048, "num_hidden_layers": 48}`, "model.vocab_size (config.json vocab_size)", "must be an integer"},
		{"missing hidden", `{"vocab_size": 151936, "num_hidden_layers": 48}`, "model.hidden_size", "config.json has no hidden_size"},
		{"text_config not object", `{"text_config": 3, "vocab_size": 1, "hidden_size": 2, "num_hidden_layers": 3}`, "config.json text_config", "must be a JSON object"},
		{"topk out of range", `{"vocab_size": 151936, "hidden_size": 2048, "num_hidden_layers": 48, "num_experts_per_tok": 5000}`, "model.num_experts_per_tok (config.json num_experts_per_tok)", "0..1,024"},
		{"deep nesting", deepObj, "config.json", "is not valid JSON"},
		{"10 MB", big, "config.json", "is larger than 4,194,304 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := estimator.Default().Model
			got, _, err := importModel(base, []byte(tt.input))
			if err == nil {
				t.Fatalf("no error; model %+v", got)
			}
			e, ok := err.(*estimator.Error)
			if !ok {
				t.Fatalf("error %T %v, want *estimator.Error", err, err)
			}
			if e.Field != tt.wantField || !strings.Contains(e.Message, tt.wantMsg) {
				t.Errorf("error = %q: %q\nwant     %q: ...%q...", e.Field, e.Message, tt.wantField, tt.wantMsg)
			}
			if got != base {
				t.Errorf("on error the model changed: %+v", got)
			}
		})
	}
}

func TestImportHFIntegralFloatAndNull(t *testing.T) {
	t.Parallel()
	got, rep, err := importModel(estimator.Default().Model, []byte(`{"vocab_size": 32000.0, "hidden_size": 4096, "num_hidden_layers": 32, "num_experts_per_tok": null}`))
	if err != nil {
		t.Fatal(err)
	}
	if got.VocabSize != 32000 || got.NumExpertsPerTok != 0 {
		t.Errorf("got %+v", got)
	}
	if len(rep.Derived) != 2 {
		t.Errorf("derived = %+v, want num_experts_per_tok and linear_num_key_heads", rep.Derived)
	}
}

func FuzzImportHF(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "hf", "*.json"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"text_config": {"vocab_size": 5}}`))
	f.Add([]byte(`{"vocab_size": 1e400}`))
	f.Add(hfBody(`, "torch_dtype": "float8_e4m3fn", "num_local_experts": 8, "num_experts_per_tok": 2`))
	f.Add([]byte("{\n\"vocab_size\": 5,\n}"))
	// Every architecture key the import reads: a plain go test runs them.
	for _, k := range estimator.ArchKeys() {
		f.Add(hfBody(`, "` + k + `": 8`))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		base := estimator.Default().Model
		got, _, err := importModel(base, data)
		if err != nil {
			if got != base {
				t.Fatalf("error %v but the model changed", err)
			}
			return
		}
		c := estimator.Default()
		c.Model = got
		if _, err := c.Resolve(); err != nil {
			t.Fatalf("imported model does not validate: %v", err)
		}
		full, _, err := Import(estimator.Default(), data)
		if err != nil || !sameModel(full.Model, got) {
			t.Fatalf("Import: %v, model %+v; importModel gave %+v", err, full.Model, got)
		}
		// Valid, but for resident memory that does not fit the GPU.
		if _, err := full.Resolve(); err != nil {
			for _, e := range estimator.FieldErrors(err) {
				if e.Field != "resident" {
					t.Fatalf("imported config does not validate: %v", err)
				}
			}
		}
	})
}
