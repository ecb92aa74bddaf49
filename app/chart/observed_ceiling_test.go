package chart

import (
	"math"
	"testing"

	"headroom/estimator"
)

// TestObservedCeilingSharesTheBaseline: the predicted-peak lines count the
// memory in use and the "available" line does not, so with resident
// memory on a candidate's predicted peak crossed "available" near 170,000
// rows while it admitted up to 279,234. The observed layer draws the
// ceiling the peaks are read against, available + in use, and a request
// the candidate admits never has its predicted peak above it.
func TestObservedCeilingSharesTheBaseline(t *testing.T) {
	cfg, err := estimator.DecodeConfig([]byte(`{"resident": {}, "fc2": {"expert_parallel": 8},
		"observed": [{"rows": 65536, "peak_bytes": 60000000000, "label": "a"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	rv, err := cfg.ResolveRevisions()
	if err != nil {
		t.Fatal(err)
	}
	inUse := rv.Rev[1].InUse
	if inUse < 20<<30 {
		t.Fatalf("in use %d: the test needs resident memory counted", inUse)
	}
	in, err := Build(cfg, "rows", 1, 400_000, 256)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in.AddObserved(cfg); err != nil {
		t.Fatal(err)
	}
	o := in.observed
	if o == nil || len(o.ceiling) != len(in.Points) {
		t.Fatal("no ceiling")
	}
	crossedAvailable := false
	for i, p := range in.Points {
		if want := gib(p.Rev[1].AvailableBytes + inUse); o.ceiling[i] != want {
			t.Fatalf("x %d: ceiling %v, want %v", p.X, o.ceiling[i], want)
		}
		if p.Rev[1].Decision != estimator.Admit || math.IsNaN(o.predicted[1][i]) {
			continue
		}
		if o.predicted[1][i] > o.ceiling[i] {
			t.Errorf("x %d: the candidate admits, but its predicted peak %.3f GiB is above the ceiling %.3f GiB", p.X, o.predicted[1][i], o.ceiling[i])
		}
		crossedAvailable = crossedAvailable || o.predicted[1][i] > gib(p.Rev[1].AvailableBytes)
	}
	if !crossedAvailable {
		t.Error("no admitted request's predicted peak is above \"available\": the test shows nothing")
	}
}
