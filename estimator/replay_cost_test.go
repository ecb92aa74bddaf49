package estimator

import (
	"os"
	"strings"
	"testing"
)

// tenantsWorkload is the example workload (examples/tenants.csv): eight
// lines, a tenant column, and sequence_rows cells left empty so that
// they take the config's.
func tenantsWorkload(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../examples/tenants.csv")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestReplayHoldCost: the cost of a hold. The replay adds the
// extra forwards (count x (the candidate's children - the baseline's)
// over the requests neither refuses) and the rows each revision runs
// split, summed here from its own lines.
func TestReplayHoldCost(t *testing.T) {
	t.Parallel()
	cfg := Default()
	cfg.Request.Rows = 200000
	cfg.Budget.InUseBytes = 68451041280
	var forwards, split [2]int64
	res, err := Replay(cfg, strings.NewReader(tenantsWorkload(t)), func(l ReplayLine) error {
		if l.Baseline != Refuse && l.Candidate != Refuse {
			forwards[0] += l.Count * l.BaselineChildren
			forwards[1] += l.Count * l.CandidateChildren
		}
		for i, d := range [2]Decision{l.Baseline, l.Candidate} {
			if d == Split {
				split[i] += l.Rows * l.Count
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExtraForwards != forwards[1]-forwards[0] || res.BaselineSplitRows != split[0] || res.CandidateSplitRows != split[1] {
		t.Errorf("extra forwards %d, split rows %d and %d; the lines give %d, %d and %d",
			res.ExtraForwards, res.BaselineSplitRows, res.CandidateSplitRows, forwards[1]-forwards[0], split[0], split[1])
	}
	if res.CandidateSplitRows == 0 {
		t.Errorf("no line splits: the workload tests nothing")
	}
	t.Logf("extra forwards %d, split rows %d and %d", res.ExtraForwards, res.BaselineSplitRows, res.CandidateSplitRows)
}
