package estimator

import (
	"strings"
	"testing"
)

// TestImportHFResident: the import keeps the count's fields and turns
// resident memory on for a family it can price, and off (saying why) for
// one it cannot, even when the config had it on.
func TestImportHFResident(t *testing.T) {
	onBase := Default()
	onBase.Resident = &ResidentConfig{LoRARank: Int64(16)}
	onBase.FC2.ExpertParallel = 8
	tests := []struct {
		name, file string
		base       Config
		on         bool
		off        string // in ResidentOff
	}{
		{"named family", `{` + qwen3_30B + `}`, Default(), true, ""},
		{"keeps the config's group", `{` + qwen3_30B + `}`, onBase, true, ""},
		{"no family", `{"vocab_size": 1000, "hidden_size": 64, "num_hidden_layers": 2}`, onBase, false, "names no architectures"},
		{"no family, off before", `{"vocab_size": 1000, "hidden_size": 64, "num_hidden_layers": 2}`, Default(), false, ""},
		{"E does not divide the experts", `{` + qwen15MoE + `}`, onBase, false, "fc2.expert_parallel: 8 does not divide the 60 routed experts"},
		{"unknown family", `{"architectures": ["PhiForCausalLM"], "vocab_size": 1000, "hidden_size": 64, "num_hidden_layers": 2}`, Default(), false, `"PhiForCausalLM" has no resident formula`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, rep, err := ImportHFConfig(tt.base, []byte(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if (c.Resident != nil) != tt.on || (tt.off == "") != (rep.ResidentOff == "") || !strings.Contains(rep.ResidentOff, tt.off) {
				t.Errorf("resident %+v, off %q; want on %v, off %q", c.Resident, rep.ResidentOff, tt.on, tt.off)
			}
			if tt.on && tt.base.Resident != nil && c.Resident != tt.base.Resident {
				t.Error("the config's own resident group was replaced")
			}
		})
	}
	c, rep, err := ImportHFConfig(Default(), []byte(`{`+deepseekV3+`}`))
	if err != nil {
		t.Fatal(err)
	}
	if c.Model.KVLoRARank == nil || *c.Model.KVLoRARank != 512 || !containsName(rep.Kept, "kv_lora_rank") || containsName(rep.Ignored, "kv_lora_rank") {
		t.Errorf("kv_lora_rank not kept: %v", rep.Kept)
	}
	if p, err := Params(c); err != nil || p.Params.Total != 671_026_419_200 {
		t.Errorf("imported DeepSeek-V3 counts %+v, %v", p.Params, err)
	}
}
