package estimator

import "testing"

// TestArtUnusedSegmentDoesNotOverflow: SEG, a GDN segment's bytes, enters
// the learned floor only under packed pricing (§13.7: pp x (6144 n + q x
// SEG)). A request that is never packed-priced (here no grad) never
// multiplies by it, so SEG's own overflow at the widest GDN geometry must
// not refuse the config: its price is exact and small.
func TestArtUnusedSegmentDoesNotOverflow(t *testing.T) {
	t.Parallel()
	c := mustDecode(t, []byte(`{"profile": "art",
		"model": {"linear_num_key_heads": 1048576, "linear_key_head_dim": 1048576,
		          "linear_num_value_heads": 1048576, "linear_value_head_dim": 1048576},
		"request": {"rows": 100, "sequence_rows": 100, "grad": false},
		"profile_memory": {"bytes_per_token": 1, "packed_tokens": 1}}`))
	res, err := Estimate(c)
	if err != nil {
		t.Fatalf("Estimate: %v (SEG is not priced without grad)", err)
	}
	if res.Candidate.Decision != Admit {
		t.Errorf("candidate %v, want admit", res.Candidate.Decision)
	}
	// With grad and logprobs only, 100-row sequences are packed-priced, and
	// then SEG's overflow is real and named.
	c.Request.Grad = true
	off := false
	c.Art.CheckpointFloor = &off
	if _, err := Estimate(c); err == nil {
		t.Errorf("Estimate with packed pricing: no overflow error")
	}
}

// TestArtPendingStateDoesNotOverflowThroughSEG: Pend charges one
// sequence's state, 4 Hv Dk Dv + 2 kap (w - 1), per sequence (§13.4); SEG
// is twice it and enters only a packed-priced learned floor. At the widest
// GDN geometry the state (2^62) fits and its double does not, so a cold
// single-row request is priced exactly, not refused for SEG's overflow.
func TestArtPendingStateDoesNotOverflowThroughSEG(t *testing.T) {
	t.Parallel()
	c := mustDecode(t, []byte(`{"profile": "art",
		"model": {"linear_num_key_heads": 1048576, "linear_key_head_dim": 1048576,
		          "linear_num_value_heads": 1048576, "linear_value_head_dim": 1048576,
		          "linear_conv_kernel_dim": 1},
		"request": {"rows": 1, "sequence_rows": 1}}`))
	res, err := Estimate(c)
	if err != nil {
		t.Fatalf("Estimate: %v", err)
	}
	// An independent reading of §13.4 prices it at these (G dominates).
	if res.Candidate.RequiredBytes != 5_072_871_552_992_116_126 || res.Baseline.RequiredBytes != 5_072_871_552_991_947_166 {
		t.Errorf("required %d / %d, want 5,072,871,552,992,116,126 / 5,072,871,552,991,947,166",
			res.Candidate.RequiredBytes, res.Baseline.RequiredBytes)
	}
	if res.Candidate.Decision != Refuse {
		t.Errorf("candidate %v, want refuse", res.Candidate.Decision)
	}
}
