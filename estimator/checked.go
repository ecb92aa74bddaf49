package estimator

// CheckedAdd returns a + b for a, b >= 0, and false when the sum does not
// fit in int64: the package's own overflow rule (docs/model.md §1),
// exported for the measure package, which sums bytes read from files.
func CheckedAdd(a, b int64) (int64, bool) {
	var c calc
	s := c.add(a, b, "")
	return s, c.err == nil
}
