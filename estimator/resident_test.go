package estimator

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestResidentCases: §14.4's three cases of in_use_bytes.
func TestResidentCases(t *testing.T) {
	t.Parallel()
	// Case 1: no group, no block, in_use_bytes as given.
	c := mustDecode(t, []byte(`{"model": {`+qwen3Next80B+`}}`))
	res, err := Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := Estimate(Default())
	if res.Resident != nil || res.AvailableBytes != plain.AvailableBytes {
		t.Errorf("without a resident group: block %v, available %d, want none and %d", res.Resident, res.AvailableBytes, plain.AvailableBytes)
	}
	if b, _ := json.Marshal(res); strings.Contains(string(b), `"resident"`) {
		t.Error(`the JSON of a config without a resident group mentions "resident"`)
	}
	// Case 3: an explicit in_use_bytes wins, and has no capacity error of
	// its own (E = 1: the weights alone do not fit).
	c, err = DecodeConfig([]byte(`{"model": {` + qwen3Next80B + `}, "budget": {"in_use_bytes": 68451041280}, "resident": {}}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err = Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	if rr := res.Resident; rr.Source != "in_use_bytes" || rr.InUseBytes != 68_451_041_280 || rr.WeightsBytes != 159_348_824_064 {
		t.Errorf("case 3: %+v", rr)
	}
	if res.AvailableBytes != Bytes(H200CapacityBytes-68_451_041_280-H200CapacityBytes*30/1000) {
		t.Errorf("case 3 available %d", res.AvailableBytes)
	}
}

// TestResidentBaselineOverride: a baseline of its own computes its own
// resident memory ("Qwen3-30B at E = 1 against E = 8").
func TestResidentBaselineOverride(t *testing.T) {
	t.Parallel()
	src := `{"model": {` + qwen3_30B + `}, "fc2": {"expert_parallel": 8}, "resident": {"lora_rank": 16},
		"baseline": {"overrides": {"fc2": {"expert_parallel": 1}, "resident": {"lora_rank": 0}}}}`
	c, res := estimateResident(t, src)
	if res.Baseline.Resident.ResidentBytes != 61_064_269_824 || res.Candidate.Resident.ResidentBytes != 12_439_179_264 || res.Resident != res.Candidate.Resident {
		t.Errorf("baseline %d, candidate %d; want 61,064,269,824 and 12,439,179,264", res.Baseline.Resident.ResidentBytes, res.Candidate.Resident.ResidentBytes)
	}
	if *res.Baseline.AvailableBytes >= *res.Candidate.AvailableBytes {
		t.Error("the baseline holds more: it should have less available")
	}
	// The config reads back as it was written.
	back := mustDecode(t, MarshalConfig(c))
	if marshalConfigString(back) != marshalConfigString(c) || back.Baseline.Resident == nil || *back.Baseline.Resident.LoRARank != 0 {
		t.Errorf("round trip:\n%s\n%s", MarshalConfig(back), MarshalConfig(c))
	}
}

// TestResidentSweep: along hidden_size resident memory is recomputed at
// each point, and a point whose weights exceed the GPU is invalid with
// the message; along in_use_bytes the swept value holds (case 3).
func TestResidentSweep(t *testing.T) {
	t.Parallel()
	c := mustDecode(t, []byte(residentConfig(qwen3Next80B, 8, `{}`)))
	s, err := NewSweeper(c, "hidden_size")
	if err != nil {
		t.Fatal(err)
	}
	at := s.Point(2048)
	big := s.Point(16384)
	if at.Error != "" || at.AvailableBytes != 121_724_269_446 {
		t.Errorf("at 2048: %q, available %d", at.Error, at.AvailableBytes)
	}
	if !strings.HasPrefix(big.Error, "resident: the Qwen3NextForCausalLM weights are ") {
		t.Errorf("at 16384: %q, want the weights message", big.Error)
	}
	small := s.Point(1024)
	if small.Error != "" || small.AvailableBytes <= at.AvailableBytes {
		t.Errorf("at 1024: %q, available %d (at 2048 %d): a narrower model holds less", small.Error, small.AvailableBytes, at.AvailableBytes)
	}
	v, err := NewSweeper(c, "vocab_size")
	if err != nil {
		t.Fatal(err)
	}
	if p := v.Point(151936 * 2); p.Error != "" || p.AvailableBytes != at.AvailableBytes-151936*2048*2*2 {
		t.Errorf("vocab doubled: %q, available %d, want %d", p.Error, p.AvailableBytes, at.AvailableBytes-151936*2048*2*2)
	}
	u, err := NewSweeper(c, "in_use_bytes")
	if err != nil {
		t.Fatal(err)
	}
	if p := u.Point(0); p.Error != "" || p.AvailableBytes != Bytes(H200CapacityBytes-H200CapacityBytes*30/1000).int() {
		t.Errorf("in_use 0 swept: %q, available %d", p.Error, p.AvailableBytes)
	}
}

func (b Bytes) int() int64 { return int64(b) }

// TestResidentDefaults: a config without architectures is the Qwen3-Next
// preset, and a named dense Llama without num_experts_per_tok prices no
// fc2 stage and no GDN stage (§14.1).
func TestResidentDefaults(t *testing.T) {
	t.Parallel()
	c := mustDecode(t, []byte(`{"fc2": {"expert_parallel": 8}, "resident": {}}`))
	res, err := Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	if res.Resident.ResidentBytes != 24_507_906_048 || res.Resident.Architecture != "Qwen3NextForCausalLM" {
		t.Errorf("default: %d %s, want 24,507,906,048 Qwen3NextForCausalLM", res.Resident.ResidentBytes, res.Resident.Architecture)
	}
	l := mustDecode(t, []byte(residentConfig(llama31_8B, 1, `{}`)))
	if l.Model.NumExpertsPerTok != 0 || l.Model.LinearNumKeyHeads != 0 {
		t.Errorf("Llama: K %d, Hk %d, want 0 and 0", l.Model.NumExpertsPerTok, l.Model.LinearNumKeyHeads)
	}
	res, err = Estimate(l)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Candidate.Stages {
		if s.Name == "fc2" || s.Name == "gdn" {
			t.Errorf("Llama prices a %s stage", s.Name)
		}
	}
	if res.Resident.LoRA.Rank != 8 || res.Resident.LocalExperts != 0 {
		t.Errorf("Llama: rank %d, local experts %d; want 8 and 0", res.Resident.LoRA.Rank, res.Resident.LocalExperts)
	}
	back, err := DecodeConfig(MarshalConfig(l))
	if err != nil || marshalConfigString(back) != marshalConfigString(l) {
		t.Errorf("Llama round trip: %v", err)
	}
}

// TestResidentPointAllocatesNothing: a sweep point of a config with a
// resident group recomputes it without allocating, as every point does.
func TestResidentPointAllocatesNothing(t *testing.T) {
	c := mustDecode(t, []byte(residentConfig(qwen3Next80B, 8, `{"lora_rank": 16}`)))
	for _, axis := range []string{"rows", "hidden_size", "vocab_size"} {
		s, err := NewSweeper(c, axis)
		if err != nil {
			t.Fatal(err)
		}
		x := int64(1000)
		allocs := testing.AllocsPerRun(100, func() {
			x = x%3000 + 1000 + 7
			if pt := s.Point(x); pt.Error != "" {
				t.Fatalf("%s = %d: %s", axis, x, pt.Error)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per point", axis, allocs)
		}
	}
}

// TestResidentReplayLine: a workload line with its own in_use_bytes is
// §14.4's case 3 for that line; the others use the resident bytes.
func TestResidentReplayLine(t *testing.T) {
	t.Parallel()
	c := mustDecode(t, []byte(residentConfig(qwen3Next80B, 8, `{}`)))
	var lines []ReplayLine
	workload := "id,rows,in_use_bytes\nresident,64902,\nfull,64902,149000000000\n"
	_, err := Replay(c, strings.NewReader(workload), func(l ReplayLine) error {
		lines = append(lines, l)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 || lines[0].Candidate != Admit || lines[1].Candidate != Refuse {
		t.Errorf("lines %+v: want the first admitted on the resident bytes, the second refused on its own in_use_bytes", lines)
	}
}

// TestResidentMap: a map with hidden_size across recomputes resident
// memory per column: narrow models admit rows a wide one cannot hold, and
// beyond the width whose weights exceed the GPU every point is invalid.
func TestResidentMap(t *testing.T) {
	t.Parallel()
	c := mustDecode(t, []byte(residentConfig(qwen3Next80B, 8, `{}`)))
	res, err := Map(c, MapAxis{Axis: "hidden_size", From: 1024, To: 16384}, MapAxis{Axis: "rows", From: 1, To: 1000}, 16)
	if err != nil {
		t.Fatal(err)
	}
	first, last := res.Columns[0], res.Columns[len(res.Columns)-1]
	if first.Candidate.Start != Admit || last.Candidate.Start != Invalid || len(last.Candidate.Flips) != 0 {
		t.Errorf("first column %+v, last %+v: want admit at 1,024 and invalid at 16,384", first.Candidate, last.Candidate)
	}
}

// TestResidentExpertsPerToken: gpt-oss's experts_per_token alone sets the
// top-k the request prices, and the config reads back the same.
func TestResidentExpertsPerToken(t *testing.T) {
	t.Parallel()
	src := strings.Replace(gptOss120B, `"num_experts_per_tok": 4,`, "", 1)
	c := mustDecode(t, []byte(residentConfig(src, 8, `{}`)))
	if c.Model.NumExpertsPerTok != 4 {
		t.Errorf("num_experts_per_tok %d, want 4 from experts_per_token", c.Model.NumExpertsPerTok)
	}
	back, err := DecodeConfig(MarshalConfig(c))
	if err != nil || marshalConfigString(back) != marshalConfigString(c) {
		t.Errorf("round trip: %v", err)
	}
	res, err := Estimate(c)
	if err != nil || res.Resident.ResidentBytes == 0 {
		t.Fatalf("%v", err)
	}
}

// TestResidentMixtralExpertWidth: a named Mixtral without
// moe_intermediate_size prices its FC2 stage at its experts' width,
// intermediate_size, as the count does.
func TestResidentMixtralExpertWidth(t *testing.T) {
	t.Parallel()
	c := mustDecode(t, []byte(residentConfig(mixtral8x7B, 8, `{"lora_rank": 16}`)))
	r, err := c.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if c.Model.MoEIntermediateSize != 14336 || r.I != 14336 || r.K != 2 || r.Hk != 0 {
		t.Errorf("moe width %d, fc2 input %d, K %d, Hk %d; want 14,336, 14,336, 2, 0", c.Model.MoEIntermediateSize, r.I, r.K, r.Hk)
	}
}
