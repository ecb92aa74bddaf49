package estimator

import "testing"

// TestNullableCounts: the optional counts of the model's architecture
// fields and of the resident group take a JSON integer or null (absent),
// and refuse anything else naming the field.
func TestNullableCounts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ json, want string }{
		{`{"model": {"head_dim": 1.5}}`, "model.head_dim: must be an integer or null, got 1.5"},
		{`{"model": {"num_experts": "512"}}`, `model.num_experts: must be an integer or null, got "512"`},
		{`{"resident": {"lora_rank": "8"}}`, `resident.lora_rank: must be an integer or null, got "8"`},
		{`{"resident": {"expert_align": true}}`, "resident.expert_align: must be an integer or null, got true"},
	} {
		if _, err := DecodeConfig([]byte(tc.json)); err == nil || err.Error() != tc.want {
			t.Errorf("DecodeConfig(%s):\n got %v\nwant %s", tc.json, err, tc.want)
		}
	}
	c := mustDecode(t, []byte(`{"model": {"head_dim": 128, "num_experts": null}, "fc2": {"expert_parallel": 8}, "resident": {"lora_rank": 16, "expert_align": null}}`))
	a, r := c.Model.ArchFields, c.Resident
	if a == nil || a.HeadDim == nil || *a.HeadDim != 128 || a.NumExperts != nil {
		t.Errorf("model arch fields %+v, want head_dim 128 and no num_experts", a)
	}
	if r == nil || r.LoRARank == nil || *r.LoRARank != 16 || r.ExpertAlign != nil || !r.set["expert_align"] {
		t.Errorf("resident %+v, want lora_rank 16 and expert_align given as null", r)
	}
}
