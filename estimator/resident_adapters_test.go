package estimator

import "testing"

// TestAdaptersBytes: Qwen3-Next at E = 8, rank 1 (§14.6): the adapters
// and their optimizer state are the resident bytes less the weights,
// 24,507,906,048 - 24,057,354,240.
func TestAdaptersBytes(t *testing.T) {
	t.Parallel()
	c := Default()
	c.Resident = &ResidentConfig{}
	c.FC2.ExpertParallel = 8
	res, err := Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Resident.AdaptersBytes(); got != 450_551_808 {
		t.Errorf("AdaptersBytes = %v, want 450,551,808", got)
	}
}
