package report

import "headroom/estimator"

// PlacementSentence says, for a revision on ART's GPU placement path
// (docs/model.md §15), where the backward state and the outputs live,
// why, and the GPU and host bytes; "" on the estimator path.
func PlacementSentence(o estimator.Outcome) string {
	p := o.Placement
	if p == nil {
		return ""
	}
	return "On ART's GPU placement path: " + p.Why + ". GPU " + p.GPURequiredBytes.String() +
		"; host " + p.HostRequiredBytes.String() + " of " + p.HostAvailableBytes.String() + "."
}

// SourceSentence names the ART code a GPU-path result follows, "" when
// neither revision takes that path.
func SourceSentence(res estimator.Result) string {
	for _, o := range []estimator.Outcome{res.Baseline, res.Candidate} {
		if o.Placement != nil {
			return "ART's code followed: " + o.Placement.Source + "."
		}
	}
	return ""
}

// ReplayPlacementSentence counts where ART's GPU placement path ran the
// workload's requests, per revision; "" when neither takes that path.
func ReplayPlacementSentence(res estimator.ReplayResult) string {
	if res.Placements == nil {
		return ""
	}
	s := "On ART's GPU placement path,"
	for i, name := range []string{"the baseline", "the candidate"} {
		pc := res.Placements[i]
		if i == 1 {
			s += ";"
		}
		s += " " + name + " runs " + count(pc.OutputsOnHost) + " with the outputs on the host, " +
			count(pc.Offloaded) + " with the backward state offloaded and " +
			count(pc.Replayed) + " replayed"
	}
	return s + "."
}

// count is "1 request" or "n requests".
func count(n int64) string { return estimator.Group(n) + " " + plural(n, "request") }
