package estimator

import (
	"strings"
	"testing"
)

// issue27Workload is issue 27's workload: eight lines, a tenant column.
const issue27Workload = `id,rows,sequence_rows,count,tenant
a,50000,,10,t1
b,150000,,5,t1
c,210000,4096,3,t2
d,220000,8192,2,t2
e,240000,,1,t3
f,300000,,1,t3
g,356000,,1,t3
h,400000,,1,t3
`

// TestReplayHoldCost: issue 27, the cost of a hold. The replay adds the
// extra forwards (count x (the candidate's children - the baseline's)
// over the requests neither refuses) and the rows each revision runs
// split, summed here from its own lines.
func TestReplayHoldCost(t *testing.T) {
	cfg := Default()
	cfg.Request.Rows = 200000
	cfg.Budget.InUseBytes = 68451041280
	var forwards, split [2]int64
	res, err := Replay(cfg, strings.NewReader(issue27Workload), func(l ReplayLine) error {
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
