package estimator

import (
	"os"
	"strings"
	"testing"
)

// TestNewAxes: sweeps (and so maps) go along the layer count, the expert
// FFN width and the expert parallelism too (num_hidden_layers,
// moe_intermediate_size, expert_parallel), which a trainer varies; each
// point is Estimate of the config with that field set. With a resident
// group that computes in_use_bytes, another layer count is an invalid
// point that says why; expert_parallel recounts the resident bytes.
func TestNewAxes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		axis     string
		from, to int64
	}{{"num_hidden_layers", 1, 200}, {"moe_intermediate_size", 64, 8192}, {"expert_parallel", 1, 64}} {
		cfg := Default()
		cfg.Budget.InUseBytes = 100 << 30
		res, err := Sweep(cfg, c.axis, c.from, c.to, 64)
		if err != nil {
			t.Fatalf("%s: %v", c.axis, err)
		}
		f, _ := FieldByKey(c.axis)
		for _, fl := range res.Candidate.Flips {
			for _, x := range []int64{fl.Last, fl.First} {
				at := cfg
				f.SetInt(&at, x)
				est, err := Estimate(at)
				if err != nil || est.Candidate.Decision != map[bool]Decision{true: fl.FromDecision, false: fl.ToDecision}[x == fl.Last] {
					t.Errorf("%s flip %+v: Estimate at %d says %v (%v)", c.axis, fl, x, est.Candidate.Decision, err)
				}
			}
		}
	}
	data, err := os.ReadFile("../examples/resident-qwen3-next-ep8.json")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := DecodeConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSweeper(cfg, "num_hidden_layers")
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Point(cfg.Model.NumHiddenLayers + 1); p.Rev[1].Decision != Invalid || !strings.Contains(p.Rev[1].Error, "give in_use_bytes") {
		t.Errorf("another layer count with a resident in_use: %v %q", p.Rev[1].Decision, p.Rev[1].Error)
	}
	s, err = NewSweeper(cfg, "expert_parallel")
	if err != nil {
		t.Fatal(err)
	}
	at := cfg
	at.FC2.ExpertParallel = 16
	want, err := Estimate(at)
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Point(16); p.Rev[1].Decision != want.Candidate.Decision || p.Rev[1].RequiredBytes != int64(want.Candidate.RequiredBytes) {
		t.Errorf("expert_parallel 16: %+v, Estimate %v %d", p.Rev[1], want.Candidate.Decision, want.Candidate.RequiredBytes)
	}
}
