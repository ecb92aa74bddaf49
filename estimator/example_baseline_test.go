package estimator_test

import (
	"fmt"

	"headroom/estimator"
)

// A baseline of its own: the same model on an H100 80GB beside the H200,
// both with the three changes.
func ExampleRevisions() {
	c, err := estimator.DecodeConfig([]byte(`{"baseline": {
		"changes": {"head_eager_workspace": true, "fc2_known_storage": true, "gdn_early_release": true},
		"overrides": {"budget": {"capacity_bytes": 85020000000}}}}`))
	if err != nil {
		panic(err)
	}
	rv, err := c.ResolveRevisions()
	if err != nil {
		panic(err)
	}
	// A request of 300,000 rows, set in both revisions (P and T follow).
	if err := rv.Set("rows", 300_000); err != nil {
		panic(err)
	}
	pt := rv.Point()
	for rev, name := range []string{"H100", "H200"} {
		r := pt.Rev[rev]
		fmt.Printf("%s: %v into %d, %s available\n", name, r.Decision, r.Children, estimator.Group(r.AvailableBytes))
	}
	// Output:
	// H100: split into 4, 82,469,400,000 available
	// H200: admit into 1, 146,232,175,494 available
}
