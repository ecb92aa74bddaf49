package estimator

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestArtErrors: the error table of docs/model.md §13.3 and §13.7, each
// error naming its field.
func TestArtErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ json, want string }{
		{`{"profile": "fast"}`, `profile: must be "seeds" or "art"`},
		{`{"profile": 2}`, `profile: must be "seeds" or "art"`},
		{`{"profile": "art", "fc2": {"dtype_bytes": 4}}`, "fc2.dtype_bytes: profile art models BF16 only; must be 2"},
		{`{"profile": "art", "terms": [{"name": "x", "place": "fc2", "bytes": "n"}]}`, `terms[0] (x): place "fc2": profile art has no such part of its price; places under art: outputs, activations, moe, dense_no_grad, stage, retained, retained_floor, workspace, head, head_bound, gdn_floor, input_gradient, adapter_gradients, cold_transients, backward`},
		{`{"terms": [{"name": "x", "place": "fc2", "revision": "both", "bytes": "n"}], "baseline": {"overrides": {"profile": "art"}}}`, `terms[0] (x): place "fc2": profile art has no such part of its price; places under art: outputs, activations, moe, dense_no_grad, stage, retained, retained_floor, workspace, head, head_bound, gdn_floor, input_gradient, adapter_gradients, cold_transients, backward`},
		{`{"profile_memory": {"bytes_per_token": 1, "packed_tokens": 1}}`, "profile_memory: requires profile art"},
		{`{"profile": "art", "art": {"gdn_out_proj_lora_rank": 65537}}`, "art.gdn_out_proj_lora_rank: must be an integer in 0..65,536, got 65,537"},
		{`{"profile": "art", "art": {"adapter_gradient_bytes_per_layer": -1}}`, "art.adapter_gradient_bytes_per_layer: must be an integer in 0..1,099,511,627,776, got -1"},
		{`{"profile": "art", "art": {"adapter_gradient_outside_bytes": 1099511627777}}`, "art.adapter_gradient_outside_bytes: must be an integer in 0..1,099,511,627,776"},
		{`{"profile": "art", "art": {"checkpoint_floor": 1}}`, "art.checkpoint_floor: must be true or false, got 1"},
		{`{"profile": "art", "art": {"floor": true}}`, "art.floor: is not a field of the config format; allowed here: adapter_gradient_bytes_per_layer, adapter_gradient_outside_bytes, allow_cpu_offload, allow_replay, backward_state, checkpoint_floor, gdn_out_proj_lora_rank, gpu_placement, gradient_correction, host_available_bytes, host_memory_bytes, host_ranks, lora_slot_bytes, output_device"},
		{`{"head": {"padded_vocab_multiple": 0}}`, "head.padded_vocab_multiple: must be an integer in 1..65,536, got 0"},
		{`{"head": {"stock": "yes"}}`, "head.stock: must be true or false"},
		{`{"fc2": {"fused_fc1": null}}`, "fc2.fused_fc1: must be true or false"},
		{`{"model": {"linear_conv_kernel_dim": 1025}}`, "model.linear_conv_kernel_dim: must be an integer in 1..1,024, got 1,025"},
		{`{"model": {"shared_expert_intermediate_size": -1}}`, "model.shared_expert_intermediate_size: must be an integer in 0..1,048,576"},
		{`{"model": {"intermediate_size": 1048577}}`, "model.intermediate_size: must be an integer in 0..1,048,576"},
		{`{"profile": "art", "profile_memory": {"packed_tokens": 5}}`, "profile_memory.bytes_per_token: is required"},
		{`{"profile": "art", "profile_memory": {"bytes_per_token": 1, "packed_tokens": 0}}`, "profile_memory.packed_tokens: must be an integer in 1..2,147,483,647, got 0"},
		{`{"profile": "art", "profile_memory": {"bytes_per_token": 1099511627777, "packed_tokens": 1}}`, "profile_memory.bytes_per_token: must be an integer in 0..1,099,511,627,776"},
		{`{"profile": "art", "profile_memory": {"bytes_per_token": 1, "packed_tokens": 1, "warm_bytes_per_token": 5}}`, "profile_memory.warm_packed_tokens: must be given together with warm_bytes_per_token"},
		{`{"profile": "art", "profile_memory": {"bytes_per_token": 1, "packed_tokens": 1, "split_floors": [{"child_rows": [5], "observed_bytes": 1}]}}`, "profile_memory.split_floors[0].child_rows: must hold 2..1,024 integers, got 1"},
		{`{"profile": "art", "profile_memory": {"bytes_per_token": 1, "packed_tokens": 1, "split_floors": [{"child_rows": [5, 0], "observed_bytes": 1}]}}`, "profile_memory.split_floors[0].child_rows[1]: must be an integer in 1..2,147,483,647, got 0"},
		{`{"profile": "art", "profile_memory": {"bytes_per_token": 1, "packed_tokens": 1, "split_floors": [{"child_rows": [5, 6]}]}}`, "profile_memory.split_floors[0].observed_bytes: is required"},
		{`{"profile": "art", "profile_memory": {"bytes_per_token": 1, "packed_tokens": 1, "rate": 2}}`, "profile_memory.rate: is not a field of a learned profile"},
		{`{"profile": "art", "profile_memory": {"bytes_per_token": 1, "packed_tokens": 1, "split_floors": {"child_rows": [5, 6]}}}`, `profile_memory.split_floors: must be a JSON array of {"child_rows": [...], "observed_bytes": B}, got {"child_rows": [5, 6]}`},
		{`{"profile": "art", "profile_memory": {"bytes_per_token": 1, "packed_tokens": 1, "split_floors": [` + strings.Repeat(`{"child_rows": [5, 6], "observed_bytes": 1},`, 64) + `{"child_rows": [5, 6], "observed_bytes": 1}]}}`, "profile_memory.split_floors: must hold at most 64 entries, got 65"},
		{`{"profile": "art", "profile_memory": {"bytes_per_token": 1, "packed_tokens": 1, "split_floors": [{"child_rows": [5, 6], "observed_bytes": 1}, 7]}}`, "profile_memory.split_floors[1]: must be a JSON object"},
		{`{"profile": "art", "profile_memory": {"bytes_per_token": 1, "packed_tokens": 1, "split_floors": [{"observed_bytes": 1}]}}`, "profile_memory.split_floors[0].child_rows: is required"},
		{`{"baseline": {"overrides": {"profile": "fast"}}}`, `baseline.overrides.profile: must be "seeds" or "art"`},
		{`{"baseline": {"overrides": {"profile_memory": {}}}}`, "baseline.overrides.profile_memory: cannot be overridden"},
		{`{"profile": "art", "baseline": {"overrides": {"profile": "seeds", "fc2": {"dtype_bytes": 4}}}, "fc2": {"dtype_bytes": 4}}`, "fc2.dtype_bytes: profile art models BF16 only; must be 2"},
	}
	for _, tc := range tests {
		_, err := DecodeConfig([]byte(tc.json))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("DecodeConfig(%s):\n got %v\nwant %s", tc.json, err, tc.want)
		}
	}
	// A Config built in Go is checked as a decoded one.
	c := Default()
	c.Profile = "ART"
	if _, err := c.Resolve(); err == nil || !strings.Contains(err.Error(), `profile: must be "seeds" or "art"`) {
		t.Errorf("Resolve of profile %q: %v", c.Profile, err)
	}
}

// TestArtAccepted: what §13.1 allows: the fields under seeds (ignored),
// a learned profile when only one revision uses art, "seeds" spelled out.
func TestArtAccepted(t *testing.T) {
	t.Parallel()
	for _, js := range []string{
		`{"profile": "seeds"}`,
		`{"profile": "art", "profile_memory": {"bytes_per_token": 1, "packed_tokens": 1, "retained_compute_bytes_per_token": null}}`,
		`{"profile_memory": {"bytes_per_token": 1, "packed_tokens": 1}, "baseline": {"overrides": {"profile": "art"}}}`,
		`{"profile": "art", "profile_memory": {"bytes_per_token": 1, "packed_tokens": 1}, "baseline": {"overrides": {"profile": "seeds"}}}`,
		`{"terms": [{"name": "x", "place": "head", "bytes": "n"}], "baseline": {"overrides": {"profile": "seeds"}}}`,
		`{"profile": "art", "fc2": {"dtype_bytes": 2}, "baseline": {"overrides": {"profile": "seeds", "fc2": {"dtype_bytes": 4}}}}`,
	} {
		if _, err := DecodeConfig([]byte(js)); err != nil {
			t.Errorf("DecodeConfig(%s): %v", js, err)
		}
	}
	// Under seeds the added fields change nothing.
	plain, _ := Estimate(Default())
	c := Default()
	no, rank := false, int64(7)
	c.FC2.FusedFC1, c.Head.Stock, c.Art.CheckpointFloor, c.Art.GDNOutProjLoRARank = &no, &no, &no, &rank
	c.Head.PaddedVocabMultiple = Int64(64)
	with, err := Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(plain)
	b, _ := json.Marshal(with)
	if string(a) != string(b) {
		t.Errorf("art fields moved a seeds estimate:\n%s\n%s", a, b)
	}
}

// TestArtConfigRoundTrip: an art config survives JSON and a URL, and a
// config without art fields marshals as before (no new keys).
func TestArtConfigRoundTrip(t *testing.T) {
	t.Parallel()
	if s := marshalConfigString(Default()); strings.Contains(s, "profile") || strings.Contains(s, `"art"`) ||
		strings.Contains(s, "stock") || strings.Contains(s, "fused_fc1") || strings.Contains(s, "padded") {
		t.Errorf("the default config marshals art keys:\n%s", s)
	}
	c := artRoundTripConfig()
	back := mustDecode(t, MarshalConfig(c))
	if marshalConfigString(back) != marshalConfigString(c) {
		t.Errorf("JSON round trip:\n%s\n%s", MarshalConfig(c), MarshalConfig(back))
	}
	// The URL's round trip is TestArtQueryRoundTrip (codec_roundtrip_test.go).
}

// artRoundTripConfig is an art config with every part of §13.3 set: its
// fields, a learned profile, and a baseline overriding the profile.
func artRoundTripConfig() Config {
	c := artTestRank()
	no := false
	c.FC2.SharedExpertGate, c.Head.Stock = &no, &no
	c.Art.AdapterGradientBytesPerLayer = Int64(1 << 20)
	c.ProfileMemory = &ProfileMemory{BytesPerToken: 350000, PackedTokens: 64902, WarmBytesPerToken: Int64(330000), WarmPackedTokens: Int64(33706),
		SplitFloors: []SplitFloor{{ChildRows: []int64{33706, 31196}, ObservedBytes: 9e10}}}
	c.Baseline = &Baseline{Overrides: Overrides{"profile": {Text: "seeds"}, "art.checkpoint_floor": {Bool: false}}}
	return c
}

// refCuts is ART's _split_chunks, written out as the loop it is, over the
// sequences' rows.
func refCuts(masses []int64, count int) [][]int64 {
	count = max(1, min(count, len(masses)))
	var total int64
	for _, m := range masses {
		total += m
	}
	var chunks [][]int64
	var cur []int64
	var cum int64
	for pos, m := range masses {
		cur = append(cur, m)
		cum += m
		remChunks := count - len(chunks) - 1
		remItems := len(masses) - pos - 1
		boundary := cum*int64(count) >= total*int64(len(chunks)+1)
		if remChunks > 0 && (boundary || remItems <= remChunks) {
			chunks = append(chunks, cur)
			cur = nil
		}
	}
	if len(cur) > 0 {
		chunks = append(chunks, cur)
	}
	return chunks
}

// TestArtCutsMatchLoop: the closed forms of art_cuts.go give ART's loop's
// chunks, in order (artCutRows) and as groups (artCuts).
func TestArtCutsMatchLoop(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(24, 13))
	for i := 0; i < 3000; i++ {
		s := between(rng, 1, 5000)
		m := between(rng, 1, 400)
		if i%3 == 0 {
			m = between(rng, 1, 12)
		}
		n := (m-1)*s + between(rng, 1, s)
		c := Default()
		c.Request.Rows, c.Request.SequenceRows = n, s
		r := mustResolve(t, c)
		masses := make([]int64, m)
		for j := range masses {
			masses[j] = s
		}
		masses[m-1] = n - (m-1)*s
		k := oneOf(rng, 1, 2, 3, 4, 8, m-1, m, m+3, between(rng, 1, m))
		want := refCuts(masses, int(max(k, 1)))
		var buf [1024]int64
		rows, ok := r.artCutRows(max(k, 1), buf[:])
		if !ok {
			continue
		}
		if len(rows) != len(want) {
			t.Fatalf("N %d s %d k %d: %d chunks, want %d", n, s, k, len(rows), len(want))
		}
		shapes := map[artPiece]int64{}
		for j, ch := range want {
			var sum int64
			for _, x := range ch {
				sum += x
			}
			if rows[j] != sum {
				t.Fatalf("N %d s %d k %d: chunk %d has %d rows, want %d (%v)", n, s, k, j, rows[j], sum, rows)
			}
			p := artPiece{q: int64(len(ch)), s: s, last: s}
			if j == len(want)-1 {
				p.last = masses[m-1]
			}
			shapes[p]++
		}
		gs, ng, kk := r.artCuts(max(k, 1))
		if kk != int64(len(want)) {
			t.Fatalf("N %d s %d k %d: k' %d, want %d", n, s, k, kk, len(want))
		}
		for _, g := range gs[:ng] {
			shapes[g.p] -= g.count
		}
		for p, left := range shapes {
			if left != 0 {
				t.Fatalf("N %d s %d k %d: shape %+v off by %d in %v", n, s, k, p, left, gs[:ng])
			}
		}
	}
}

// The default model under ART's own arithmetic (docs/model.md §13), the
// candidate's price beside the seeds' reading of the same request.
func Example_artProfile() {
	c := Default()
	c.Profile = ProfileArt
	art, _ := Estimate(c)
	seeds, _ := Estimate(Default())
	fmt.Println("art:  ", art.Candidate.Decision, art.Candidate.RequiredBytes, art.Candidate.DominantStage)
	fmt.Println("seeds:", seeds.Candidate.Decision, seeds.Candidate.RequiredBytes, seeds.Candidate.DominantStage)
	c.Request.Rows = 300_000
	art, _ = Estimate(c)
	fmt.Println(art.Candidate.Reason)
	// Output:
	// art:   admit 49,426,185,204 bytes (46.032 GiB) checkpoint
	// seeds: admit 23,540,293,427 bytes (21.924 GiB) fc2
	// forward is predicted to exceed available memory; unable to find a feasible split: every rung of the bounded ladder (2, 4, ..., one request per subforward) is predicted to exceed available memory once all returned graphs are live together
}
