package estimator

// Revision names one of the two configs an estimate compares: the
// baseline (without the changes) and the candidate (with them). It indexes
// Point.Rev and the per-revision pairs of Map and Sweep.
type Revision int

// The two revisions. They are named BaselineRev and CandidateRev because
// Baseline is already the type of a baseline of the user's own.
const (
	// BaselineRev is the config without the changes (or the baseline of
	// its own, when the config has one).
	BaselineRev Revision = iota
	// CandidateRev is the config with the changes.
	CandidateRev
)

// String is "baseline" or "candidate", as the page's element ids and the
// JSON keys name the revision.
func (r Revision) String() string {
	if r == BaselineRev {
		return "baseline"
	}
	return "candidate"
}

// EveryRowTargeted reports whether every row is projected and has a
// target (P == N and T == N), so that P and T follow N wherever N goes.
func (r *Resolved) EveryRowTargeted() bool { return r.P == r.N && r.T == r.N }
