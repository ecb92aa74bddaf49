package estimator_test

import (
	"fmt"
	"strings"

	"headroom/estimator"
)

// A workload replayed under the FC2 seed's pressure: 230,000 rows are
// admitted by the baseline and split by the candidate.
func ExampleReplay() {
	c, err := estimator.DecodeConfig([]byte(`{"budget": {"in_use_bytes": 68451041280}}`))
	if err != nil {
		panic(err)
	}
	workload := "id,rows,count,tenant\na,64902,10,chat\nb,230000,2,eval\nc,,1,chat\n"
	res, err := estimator.Replay(c, strings.NewReader(workload), nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Requests, "requests,", res.Rows, "rows; ignored", res.Ignored)
	for _, t := range res.Transitions {
		fmt.Println(t.Baseline, "->", t.Candidate, t.Requests, t.Rows)
	}
	for _, l := range res.Changed {
		fmt.Printf("line %d (%s): %s %d -> %s %d\n", l.Line, l.ID, l.Baseline, l.BaselineChildren, l.Candidate, l.CandidateChildren)
	}
	// Output:
	// 13 requests, 1173922 rows; ignored [tenant]
	// admit -> admit 11 713922
	// admit -> split 2 460000
	// line 3 (b): admit 1 -> split 2
}
