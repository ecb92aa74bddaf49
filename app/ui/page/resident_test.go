package page

import (
	"net/url"
	"strings"
	"testing"

	"headroom/estimator"
)

// TestDefaultIsResidentAtEP8: the page opens on the resident group at
// expert parallelism 8, valid, and its address is empty.
func TestDefaultIsResidentAtEP8(t *testing.T) {
	t.Parallel()
	s := New()
	if !s.Valid || s.Cfg.Resident == nil || s.Cfg.FC2.ExpertParallel != DefaultExpertParallel {
		t.Fatalf("default: valid %v, resident %v, E %d, errors %v", s.Valid, s.Cfg.Resident, s.Cfg.FC2.ExpertParallel, s.Errs)
	}
	rr := s.Result.Resident
	if rr == nil || rr.Source != "resident" || s.Cfg.Budget.InUseBytes != 0 || rr.InUseBytes != rr.ResidentBytes {
		t.Errorf("resident block %+v", rr)
	}
	list, _ := Presets()
	if q := s.Query(list); len(q) != 0 {
		t.Errorf("the default's address is ?%s", q.Encode())
	}
}

// TestResidentAddressRoundTrip: the group's keys and a preset's arch
// fields survive the address; a bad rank is marked and kept.
func TestResidentAddressRoundTrip(t *testing.T) {
	t.Parallel()
	list, err := Presets()
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{
		"resident=off",
		"expert_parallel=1&resident=off",
		"lora_rank=16&lora_targets=q_proj,experts",
		"preset=llama-3.1-8b&lora_rank=4&framework_reserve_bytes=1073741824",
		"preset=qwen3-30b-a3b&hidden_size=1024",
		`resident={"include_mtp":true}&preset=deepseek-v3&expert_parallel=32`,
		"lora_rank=-1",
		"lora_rank=x&arch=nope",
	} {
		q, _ := url.ParseQuery(raw)
		s := Decode(q, list)
		again := Decode(s.Query(list), list)
		if a, b := s.Query(list).Encode(), again.Query(list).Encode(); a != b {
			t.Errorf("%s: writes %s, which reads back as %s", raw, a, b)
		}
		if string(estimator.MarshalConfig(s.Cfg)) != string(estimator.MarshalConfig(again.Cfg)) {
			t.Errorf("%s: the config does not survive its address", raw)
		}
		if strings.Contains(raw, "=-1") || strings.Contains(raw, "=x") {
			if s.Errs[KeyLoRARank] == "" {
				t.Errorf("%s: no message beside lora_rank: %v", raw, s.Errs)
			}
			continue
		}
		if len(s.Errs) != 0 {
			t.Errorf("%s: errors %v", raw, s.Errs)
		}
	}
	q, _ := url.ParseQuery("preset=qwen3-30b-a3b&hidden_size=1024")
	s := Decode(q, list)
	if s.Result.Resident == nil || s.Result.Resident.Architecture != "Qwen3MoeForCausalLM" {
		t.Errorf("a preset's model with a field changed lost its family: %+v", s.Result.Resident)
	}
}

// TestWeightsDoNotFitSuggestsE: DeepSeek-V3 at the page's E = 8 is
// refused with the figure, and the smallest E dividing its 256 experts
// at which the weights fit is named.
func TestWeightsDoNotFitSuggestsE(t *testing.T) {
	t.Parallel()
	list, _ := Presets()
	s := Decode(url.Values{KeyPreset: {"deepseek-v3"}}, list)
	if s.Valid || s.WeightsDoNotFit() == "" {
		t.Fatalf("DeepSeek-V3 at E = 8: valid %v, errors %v", s.Valid, s.Errs)
	}
	e, _, ok := s.FitExpertParallel()
	if !ok || e != 16 {
		t.Errorf("fits at E = %d (%v), want 16", e, ok)
	}
	c := s.Cfg
	c.FC2.ExpertParallel = e
	if _, err := c.Resolve(); err != nil {
		t.Errorf("at E = %d: %v", e, err)
	}
}

// TestCompareModelResident: a model comparison with resident memory on
// gives the baseline that model's resident bytes, and names both.
func TestCompareModelResident(t *testing.T) {
	t.Parallel()
	list, _ := Presets()
	s := New()
	s.ApplyCompare(Edit{For: ForCompare, Kind: EditMenu, Key: KeyComparePreset, Text: ComparisonModel + "qwen3-30b-a3b"}, list)
	s.Validate()
	if !s.Valid {
		t.Fatalf("invalid: %v", s.Errs)
	}
	p, _ := FindPreset(list, "qwen3-30b-a3b")
	c := NewConfig()
	p.ApplyTo(&c)
	want, err := estimator.Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Result.Baseline.Resident.InUseBytes; got != want.Resident.ResidentBytes {
		t.Errorf("the baseline's in use %v, want Qwen3-30B's resident %v", got, want.Resident.ResidentBytes)
	}
	bc, _ := s.Cfg.BaselineConfig()
	if MatchModel(list, bc) != "qwen3-30b-a3b" {
		t.Errorf("the baseline's model is not named")
	}
}
