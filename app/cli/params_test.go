package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/estimator"
)

// presetWithResident reads a preset's config and gives it a resident
// group and an expert parallelism, as the page will.
func presetWithResident(t *testing.T, id string, ep int64, resident string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "assets", "presets", id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Config map[string]json.RawMessage `json:"config"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	p.Config["resident"] = json.RawMessage(resident)
	p.Config["fc2"] = json.RawMessage(`{"expert_parallel": ` + estimator.Group(ep) + `}`)
	out, err := json.Marshal(p.Config)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func runParams(args []string, stdin string) (code int, stdout, stderr string) {
	return runMain(Params, stdin, args...)
}

// TestParamsPresets: every preset's model fields give the published
// parameter count (docs/model.md §14.5), in JSON and in text.
func TestParamsPresets(t *testing.T) {
	want := map[string]int64{
		"qwen3-next-80b-a3b": 79_674_391_296, "qwen3-30b-a3b": 30_532_122_624, "qwen3-235b-a22b": 235_093_634_560,
		"deepseek-v3": 671_026_419_200, "gpt-oss-120b": 116_829_156_672, "mixtral-8x7b": 46_702_792_704,
		"llama-3.1-8b": 8_030_261_248, "qwen3.5-moe": 34_660_610_688,
	}
	for id, total := range want {
		t.Run(id, func(t *testing.T) {
			code, out, errs := runParams([]string{"-config", "-", "-format", "json"}, presetWithResident(t, id, 1, `{}`))
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var rep estimator.ParamReport
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			if rep.Params.Total != total || rep.Resident == nil {
				t.Errorf("total %d, want %d; resident %v", rep.Params.Total, total, rep.Resident)
			}
			code, out, _ = runParams([]string{"-config", "-"}, presetWithResident(t, id, 1, `{}`))
			if code != 0 || !strings.Contains(out, estimator.Group(total)) {
				t.Errorf("text: exit %d, %s", code, out)
			}
		})
	}
}

// TestParamsText: the text report of Qwen3-Next at E = 8 (§14.6), and a
// config without a resident group prints the counts alone.
func TestParamsText(t *testing.T) {
	code, out, errs := runParams([]string{"-config", "-"}, presetWithResident(t, "qwen3-next-80b-a3b", 8, `{}`))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"Qwen3NextForCausalLM\n",
		"parameters                    79,674,391,296\n",
		"active per token               3,874,929,408\n",
		"resident on one GPU (fc2.expert_parallel 8, 64 local experts, 2-byte weights):\n",
		"  weights                     24,057,354,240 bytes (22.405 GiB)\n",
		"  LoRA parameters, rank 1         25,030,656 (23,592,960 expert): q_proj, k_proj, v_proj, o_proj, in_proj_qkv, in_proj_z, out_proj, experts, gate_proj, up_proj, down_proj\n",
		"  resident                    24,507,906,048 bytes (22.825 GiB)\n",
		"  in_use_bytes                24,507,906,048 (resident)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	code, out, _ = runParams([]string{"-config", "-"}, `{"model": {"architectures": ["LlamaForCausalLM"], "vocab_size": 128256, "hidden_size": 4096,
		"num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336}}`)
	if code != 0 || !strings.Contains(out, "8,030,261,248") || strings.Contains(out, "resident") {
		t.Errorf("no resident group: exit %d\n%s", code, out)
	}
	// Weights that do not fit are reported with the counts.
	code, out, _ = runParams([]string{"-config", "-"}, presetWithResident(t, "qwen3-next-80b-a3b", 1, `{}`))
	if code != 0 || !strings.Contains(out, "does not fit: resident: the Qwen3NextForCausalLM weights are 159,348,824,064 bytes") {
		t.Errorf("E = 1: exit %d\n%s", code, out)
	}
}

// TestParamsHF: -hf reads a config.json, and -expert_parallel divides
// the experts.
func TestParamsHF(t *testing.T) {
	hf := filepath.Join("..", "..", "estimator", "hfconfig", "testdata", "hf", "qwen3-30b-a3b.json")
	code, out, errs := runParams([]string{"-hf", hf, "-expert_parallel", "8", "-format", "json"}, "")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep estimator.ParamReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Params.Total != 30_532_122_624 || rep.Resident == nil || rep.Resident.LocalExperts != 16 {
		t.Errorf("got %+v", rep)
	}
}

// TestParamsBadInput: exit 2 with one line naming the field.
func TestParamsBadInput(t *testing.T) {
	hfDir := filepath.Join("..", "..", "estimator", "hfconfig", "testdata", "hf")
	for _, c := range []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{"unknown architecture", []string{"-config", "-"}, `{"model": {"architectures": ["FooForCausalLM"]}}`, `model.vocab_size: required for FooForCausalLM (resident parameter count, by the generic formula: FooForCausalLM has no formula of its own)`},
		{"required field", []string{"-config", "-"}, `{"model": {"architectures": ["MixtralForCausalLM"], "vocab_size": 32000, "hidden_size": 4096, "num_hidden_layers": 32, "intermediate_size": 14336, "num_local_experts": 8, "num_experts_per_tok": 2}}`,
			"model.num_attention_heads: required for MixtralForCausalLM"},
		{"expert names disagree", []string{"-config", "-"}, `{"model": {"architectures": ["MixtralForCausalLM"], "num_local_experts": 8, "num_experts": 4}}`, "model.num_local_experts: 8 disagrees with model.num_experts 4"},
		{"E does not divide X", []string{"-config", "-", "-expert_parallel", "3"}, `{"resident": {}}`, "fc2.expert_parallel: 3 does not divide the 512 routed experts"},
		{"unknown dtype", []string{"-config", "-"}, `{"model": {"torch_dtype": "float8_e4m3fn"}, "resident": {}}`, `model.torch_dtype: unknown dtype "float8_e4m3fn"`},
		{"bad format", []string{"-config", "-", "-format", "yaml"}, `{}`, "-format: must be text or json"},
		{"both inputs", []string{"-config", "-", "-hf", "x.json"}, `{}`, "-config and -hf"},
		{"no input", nil, "", "-config: is required"},
		{"hf without family", []string{"-hf", "-"}, `{"vocab_size": 1000, "hidden_size": 64, "num_hidden_layers": 2}`, "model.architectures: config.json names no architectures"},
		{"hf missing heads", []string{"-hf", filepath.Join(hfDir, "nested-text-config.json")}, "", "model.num_attention_heads: required for Qwen3_5MoeForConditionalGeneration"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := runParams(c.args, c.stdin)
			if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "headroom params: ") || !strings.Contains(errs, c.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and one line with %q", code, out, errs, c.want)
			}
		})
	}
}

// TestEstimatePrintsResident: estimate's JSON carries the resident block
// of a config with the group (docs/model.md §14.4), and the available
// bytes follow it.
func TestEstimatePrintsResident(t *testing.T) {
	code, out, errb := runMain(Estimate, presetWithResident(t, "qwen3-next-80b-a3b", 8, `{}`), "-config", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var res estimator.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Resident == nil || res.Resident.ResidentBytes != 24_507_906_048 || res.Resident.Params.Total != 79_674_391_296 || res.AvailableBytes != 121_724_269_446 {
		t.Errorf("resident %+v, available %d", res.Resident, res.AvailableBytes)
	}
	code, _, errb = runMain(Estimate, presetWithResident(t, "qwen3-next-80b-a3b", 1, `{}`), "-config", "-")
	if code != 2 || !strings.Contains(errb, "resident: the Qwen3NextForCausalLM weights are 159,348,824,064 bytes (148.405 GiB)") {
		t.Errorf("E = 1: exit %d, %s", code, errb)
	}
}

// TestResidentExamples: the examples the README cites price as it says.
func TestResidentExamples(t *testing.T) {
	code, out, errb := runMain(Estimate, "", "-config", examplePath("resident-qwen3-30b-ep1-vs-ep8.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var res estimator.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Baseline.Resident.ResidentBytes != 76_253_417_472 || res.Candidate.Resident.ResidentBytes != 12_439_179_264 {
		t.Errorf("E = 1 %d, E = 8 %d; want 76,253,417,472 and 12,439,179,264", res.Baseline.Resident.ResidentBytes, res.Candidate.Resident.ResidentBytes)
	}
	code, text, errs := runParams([]string{"-config", examplePath("resident-qwen3-next-ep8.json")}, "")
	if code != 0 || !strings.Contains(text, "  resident                    24,507,906,048 bytes (22.825 GiB)\n") {
		t.Errorf("exit %d %s\n%s", code, errs, text)
	}
}
