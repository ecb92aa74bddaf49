package cli

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"headroom/estimator"
)

// TestSetupFlags: the page's setup menus as flags. A config whose weights
// do not fit at expert parallelism 1 exited 2 with no flag to change it;
// -expert_parallel does, and the refusal names the smallest that fits.
// -preset, -gpu and -profile set what the page's menus set, over -config
// or over the default config.
func TestSetupFlags(t *testing.T) {
	code, _, errOut := runMain(Estimate, `{"resident": {}}`, "-config", "-")
	if code != 2 || !strings.Contains(errOut, "; -expert_parallel 2 fits (the smallest that divides the 512 experts and fits)") {
		t.Errorf("expert parallelism 1: exit %d, %q", code, errOut)
	}
	code, out, errOut := runMain(Estimate, `{"resident": {}}`, "-config", "-", "-expert_parallel", "8")
	if code != 0 {
		t.Fatalf("-expert_parallel 8: exit %d, %q", code, errOut)
	}
	var res estimator.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if r := res.Candidate.Resident; r == nil || r.ExpertParallel != 8 || r.LocalExperts != 64 {
		t.Errorf("resident %+v", r)
	}

	code, out, errOut = runMain(Estimate, "", "-preset", "qwen3-30b-a3b", "-gpu", "h100", "-profile", "art", "-format", "text")
	if code != 0 {
		t.Fatalf("-preset -gpu -profile without -config: exit %d, %q", code, errOut)
	}
	cfg := estimator.Default()
	setup := &setupFlags{preset: ptr("qwen3-30b-a3b"), gpu: ptr("h100"), profile: ptr("art"), ep: new(int64)}
	if err := setup.apply(&cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Budget.CapacityBytes != estimator.H100CapacityBytes || cfg.Profile != estimator.ProfileArt ||
		cfg.Model.HiddenSize != 2048 || cfg.Model.ArchFields == nil || cfg.Model.ArchFields.Architectures[0] != "Qwen3MoeForCausalLM" {
		t.Errorf("config %+v", cfg)
	}
	for _, bad := range []struct{ flag, value, msg string }{
		{"-preset", "nope", `-preset: no preset "nope"; the presets are deepseek-v3,`},
		{"-gpu", "v100", "-gpu:"},
		{"-profile", "megatron", `-profile: must be "seeds" or "art"`},
	} {
		code, _, errOut := runMain(Estimate, "", bad.flag, bad.value)
		if code != 2 || !strings.Contains(errOut, bad.msg) {
			t.Errorf("%s %s: exit %d, %q", bad.flag, bad.value, code, errOut)
		}
	}
	// Every command that reads a config takes them.
	for name, args := range map[string][]string{
		"sweep":  {"-expert_parallel", "8", "-to", "1000"},
		"plot":   {"-gpu", "h100", "-to", "1000", "-o", "-"},
		"map":    {"-gpu", "h100", "-x", "rows", "-xto", "1000", "-y", "in_use_bytes", "-yto", "1000", "-columns", "4"},
		"replay": {"-gpu", "h100", "-workload", "-"},
	} {
		cmd := map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{"sweep": Sweep, "plot": Plot, "map": Map, "replay": Replay}[name]
		code, _, errOut := runMain(cmd, "rows\n100\n", args...)
		if code != 0 && !(name == "replay" && code == 1) {
			t.Errorf("%s %v: exit %d, %q", name, args, code, errOut)
		}
	}
}

func ptr(s string) *string { return &s }
