package estimator

import (
	"strings"
	"testing"
)

// TestResidentSweepCrossLimits: a sweep point is invalid where the config
// with that value is (docs/model.md §5). With a resident group, §14.1 asks
// 1 <= num_experts_per_tok <= num_experts of a MoE family, and §14.4
// framework_reserve_bytes <= capacity_bytes: a sweep along either moved
// field reports the points that break them as invalid, as Estimate
// refuses the config there.
func TestResidentSweepCrossLimits(t *testing.T) {
	t.Parallel()
	c := mustDecode(t, []byte(residentConfig(qwen3Next80B, 8, `{}`)))
	s, err := NewSweeper(c, "num_experts_per_tok")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int64{0, 513} {
		if p := s.Point(k); !strings.Contains(p.Error, "model.num_experts_per_tok") {
			t.Errorf("K = %d: %q, want invalid (model.num_experts_per_tok)", k, p.Error)
		}
	}
	if p := s.Point(10); p.Error != "" {
		t.Errorf("K = 10: %q", p.Error)
	}
	c, err = DecodeConfig([]byte(`{"model": {` + qwen3Next80B + `}, "fc2": {"expert_parallel": 8},
		"budget": {"in_use_bytes": 1000}, "resident": {"framework_reserve_bytes": 2000000000}}`))
	if err != nil {
		t.Fatal(err)
	}
	s, err = NewSweeper(c, "capacity_bytes")
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Point(1_000_000_000); !strings.Contains(p.Error, "resident.framework_reserve_bytes") {
		t.Errorf("capacity below the framework reserve: %q, want invalid (resident.framework_reserve_bytes)", p.Error)
	}
	if p := s.Point(3_000_000_000); p.Error != "" {
		t.Errorf("capacity above the framework reserve: %q", p.Error)
	}
}
