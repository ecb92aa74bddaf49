package estimator

import "testing"

// TestRoutedExperts: the routed expert count the resident count divides
// among the GPUs, read from the model's fields without resolving it:
// the explorer's default, each name of the count, a dense family, and
// counts Resolve refuses.
func TestRoutedExperts(t *testing.T) {
	t.Parallel()
	n := func(v int64) *int64 { return &v }
	cases := []struct {
		name string
		a    *ArchFields
		x    int64
		ok   bool
	}{
		{"default", nil, 512, true},
		{"num_experts", &ArchFields{NumExperts: n(128)}, 128, true},
		{"num_local_experts", &ArchFields{Architectures: []string{"MixtralForCausalLM"}, NumLocalExperts: n(8)}, 8, true},
		{"n_routed_experts", &ArchFields{Architectures: []string{"DeepseekV3ForCausalLM"}, NRoutedExperts: n(256)}, 256, true},
		{"dense", &ArchFields{Architectures: []string{"LlamaForCausalLM"}, NumExperts: n(8)}, 0, false},
		{"disagree", &ArchFields{NumExperts: n(8), NRoutedExperts: n(16)}, 0, false},
		{"zero", &ArchFields{NumExperts: n(0)}, 0, false},
		{"too many", &ArchFields{NumExperts: n(65537)}, 0, false},
		{"named without", &ArchFields{Architectures: []string{"Qwen3MoeForCausalLM"}}, 0, false},
		{"unknown family", &ArchFields{Architectures: []string{"NoSuchForCausalLM"}}, 0, false},
	}
	resolved := 0
	for _, tc := range cases {
		c := Default()
		c.Resident = &ResidentConfig{}
		c.FC2.ExpertParallel = 8
		c.Model.ArchFields = tc.a
		x, ok := c.RoutedExperts()
		if x != tc.x || ok != tc.ok {
			t.Errorf("%s: (%d, %v), want (%d, %v)", tc.name, x, ok, tc.x, tc.ok)
		}
		if r, err := c.Resolve(); err == nil && ok {
			resolved++
			if r.X != x {
				t.Errorf("%s: %d, Resolve's %d", tc.name, x, r.X)
			}
		}
	}
	if resolved < 2 {
		t.Errorf("%d cases resolved: the comparison with Resolve tested little", resolved)
	}
}
