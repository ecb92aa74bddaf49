package estimator

import (
	"testing"
)

// TestResidentBaselineOverrideFields: §11's overrides hold "only the fields
// whose value differs for the baseline", and the baseline's config is the
// config with those fields replaced; a resident group under
// baseline.overrides is no different: the fields it does not name keep
// the config's values, they do not return to their defaults.
func TestResidentBaselineOverrideFields(t *testing.T) {
	t.Parallel()
	src := `{"model": {` + qwen3_30B + `}, "fc2": {"expert_parallel": 8},
		"resident": {"lora_rank": 16, "grad_bytes": 2, "lora_targets": ["q_proj", "experts"], "framework_reserve_bytes": 1000000000},
		"baseline": {"overrides": {"resident": {"lora_rank": 8, "framework_reserve_bytes": 0}}}}`
	c, res := estimateResident(t, src)
	cand, base := res.Candidate.Resident, res.Baseline.Resident
	if base.LoRA.Rank != 8 || cand.LoRA.Rank != 16 {
		t.Errorf("ranks: baseline %d, candidate %d; want 8 and 16", base.LoRA.Rank, cand.LoRA.Rank)
	}
	if len(base.LoRA.Targets) != 2 || base.LoRA.Targets[0] != "q_proj" || base.LoRA.Targets[1] != "experts" {
		t.Errorf("baseline targets %v, want the config's [q_proj experts]", base.LoRA.Targets)
	}
	// grad_bytes 2 holds in both: gradients are 2 bytes a LoRA parameter
	// (the dense and the expert buffer each rounded to 512).
	for name, r := range map[string]*ResidentResult{"baseline": base, "candidate": cand} {
		d, x := r.LoRA.Params-r.LoRA.ExpertParams, r.LoRA.ExpertParams
		if want := roundUpTest(2*d) + roundUpTest(2*x); int64(r.LoRA.GradBytes) != want {
			t.Errorf("%s grad_bytes %d, want %d (2 bytes a parameter)", name, r.LoRA.GradBytes, want)
		}
	}
	if base.FrameworkReserveBytes != 0 || cand.FrameworkReserveBytes != 1_000_000_000 {
		t.Errorf("framework reserve: baseline %d, candidate %d; want 0 (overridden) and 1,000,000,000", base.FrameworkReserveBytes, cand.FrameworkReserveBytes)
	}
	// The config reads back as it was written, the override's 0 included.
	back := mustDecode(t, MarshalConfig(c))
	res2, err := Estimate(back)
	if err != nil {
		t.Fatal(err)
	}
	if res2.Baseline.Resident.ResidentBytes != base.ResidentBytes || marshalConfigString(back) != marshalConfigString(c) {
		t.Errorf("round trip: baseline resident %d, want %d\n%s\n%s", res2.Baseline.Resident.ResidentBytes, base.ResidentBytes, MarshalConfig(back), MarshalConfig(c))
	}
}

func roundUpTest(n int64) int64 { return (n + 511) / 512 * 512 }
