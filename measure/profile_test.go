package measure

import "testing"

// TestLearnedProfileAdd: the rate is the largest compute bytes per packed
// token, rounded up; a piece with nothing above the baseline learns 0;
// the tokens are the most any piece packed.
func TestLearnedProfileAdd(t *testing.T) {
	t.Parallel()
	var p LearnedProfile
	p.Add(1000, 3) // 333.3 -> 334
	p.Add(-50, 9)  // below the baseline: rate 0, but its tokens count
	p.Add(600, 2)  // 300, below 334
	p.Add(4096, 0) // no tokens: no rate
	if p.BytesPerToken != 334 || p.PackedTokens != 9 {
		t.Errorf("profile %+v, want 334 bytes per token over 9 tokens", p)
	}
}

// TestLearnedProfileMemory: profile_memory's JSON leaves the retained
// rate out when there is none, and writes it when there is.
func TestLearnedProfileMemory(t *testing.T) {
	t.Parallel()
	p := LearnedProfile{BytesPerToken: 334, PackedTokens: 9}
	got, err := p.ProfileMemory()
	if err != nil || string(got) != `{"bytes_per_token":334,"packed_tokens":9}` {
		t.Errorf("%s, %v", got, err)
	}
	r := int64(12)
	p.RetainedComputeBytesPerToken = &r
	got, err = p.ProfileMemory()
	if err != nil || string(got) != `{"bytes_per_token":334,"packed_tokens":9,"retained_compute_bytes_per_token":12}` {
		t.Errorf("%s, %v", got, err)
	}
}
