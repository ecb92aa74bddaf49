package report

import (
	"slices"
	"strconv"
	"strings"

	"headroom/estimator"
)

// availableText is the bytes available, as a report's first line says
// them: one figure, or each revision's when the baseline has its own
// capacity or memory in use (a compare config printed only the
// candidate's).
func availableText(res estimator.Result) string {
	b, c := res.Baseline.AvailableBytes, res.Candidate.AvailableBytes
	if b == nil || c == nil || *b == *c {
		return res.AvailableBytes.String()
	}
	return b.String() + " to the baseline, " + c.String() + " to the candidate"
}

// setupDifference names how the baseline's setup differs from the
// candidate's, "on H200 against the baseline's H100 80GB", or "" when
// it does not (no baseline of its own, or one that changes only the
// switches or the model).
func setupDifference(cfg estimator.Config) string {
	if cfg.Baseline == nil {
		return ""
	}
	rv, err := cfg.ResolveRevisions()
	if err != nil {
		return ""
	}
	b, c := rv.Rev[0], rv.Rev[1]
	var cand, base []string
	if b.Capacity != c.Capacity {
		cand, base = append(cand, "on "+gpuName(c.Capacity)), append(base, gpuName(b.Capacity))
	}
	if b.InUse != c.InUse {
		cand, base = append(cand, "with "+estimator.Bytes(c.InUse).String()+" in use"), append(base, estimator.Bytes(b.InUse).String()+" in use")
	}
	if b.EP != c.EP {
		cand, base = append(cand, "at expert parallelism "+estimator.Group(c.EP)), append(base, "expert parallelism "+estimator.Group(b.EP))
	}
	if len(cand) == 0 {
		return ""
	}
	return strings.Join(cand, ", ") + " against the baseline's " + strings.Join(base, ", ")
}

// sameChanges reports whether the baseline runs the candidate's switches
// (a compare config that differs only in its setup).
func sameChanges(cfg estimator.Config) bool {
	if cfg.Baseline == nil {
		return false
	}
	b, err := cfg.BaselineConfig()
	return err == nil && b.Changes == cfg.Changes
}

// Dominates names what dominates a revision's required bytes, in the
// words of the page's decision panel ("What dominates"): the larger of
// the retained bytes of every child and the largest child's peak stage,
// with its share of the two, "retained checkpoints (61.5 %)" or "the peak
// stage, fc2 (70.2 %)"; a tie is the retained part's. Under ART's code
// (art) the retained part is the child's forward price. The page and the
// command line once named different parts for one config (the panel the
// retained checkpoints, the command line the peak stage alone).
func Dominates(o estimator.Outcome, art bool) string {
	retained := "retained checkpoints"
	if art {
		retained = "retained: the child's forward price"
	}
	stage := o.DominantStage
	if stage == "" {
		stage = "none"
	}
	var permille int64 // the retained part's share, in tenths of a percent (display only)
	if total := float64(o.RetainedBytes) + float64(o.EphemeralBytes); total > 0 {
		permille = int64(float64(o.RetainedBytes)/total*1000 + 0.5)
	}
	if o.EphemeralBytes > o.RetainedBytes {
		return "the peak stage, " + stage + " (" + permilleText(1000-permille) + ")"
	}
	return retained + " (" + permilleText(permille) + ")"
}

// permilleText writes tenths of a percent: 734 -> "73.4 %".
func permilleText(p int64) string {
	return strconv.FormatInt(p/10, 10) + "." + strconv.FormatInt(p%10, 10) + " %"
}

// revisionArt reports, per revision (baseline, candidate), whether ART's
// code prices it (docs/model.md §13).
func revisionArt(cfg estimator.Config) [2]bool {
	rv, err := cfg.ResolveRevisions()
	if err != nil {
		return [2]bool{}
	}
	return [2]bool{rv.Rev[0].Art, rv.Rev[1].Art}
}

// SplitInert splits the switches that are on but change nothing
// (estimator.ActingChanges' inert) by why: those that act under the
// seeds' reading change nothing because ART's code prices the candidate
// (it has no form of them: gdn_early_release on Qwen3-Next was said to
// change nothing "for this model"), the others because of the model.
func SplitInert(cfg estimator.Config, inert []string) (byProfile, byModel []string) {
	if cfg.Profile != estimator.ProfileArt || len(inert) == 0 {
		return nil, inert
	}
	seeds := cfg
	seeds.Profile = ""
	acting, _ := estimator.ActingChanges(seeds)
	for _, name := range inert {
		if slices.Contains(acting, name) {
			byProfile = append(byProfile, name)
		} else {
			byModel = append(byModel, name)
		}
	}
	return byProfile, byModel
}

// inertPhrase says that the switches list (written by list) are on but
// change nothing, and why: "for this model", or "under ART's code".
func inertPhrase(list string, n int, why string) string {
	if n > 1 {
		return list + " are on but change nothing " + why
	}
	return list + " is on but changes nothing " + why
}

// InertText is what a report says of the switches that change nothing,
// each list written by write: "`gdn_early_release` is on but changes
// nothing under ART's code", "; "-joined; "" when there are none.
func InertText(cfg estimator.Config, inert []string, write func([]string) string) string {
	byProfile, byModel := SplitInert(cfg, inert)
	var parts []string
	if len(byModel) > 0 {
		parts = append(parts, inertPhrase(write(byModel), len(byModel), "for this model"))
	}
	if len(byProfile) > 0 {
		parts = append(parts, inertPhrase(write(byProfile), len(byProfile), "under ART's code"))
	}
	return strings.Join(parts, "; ")
}

// SetupText names the setup an estimate prices, as the page's controls
// show it: the GPU, the expert parallelism and what is on the GPU before
// the request. The command line's {} and the page's default once gave
// different answers to one question with nothing saying why: "Setup:
// H200 (143,771 MiB), expert parallelism 1, nothing in use: the model's
// weights are not counted (no resident group)".
func SetupText(cfg estimator.Config, res estimator.Result) string {
	t := "Setup: " + gpuText(cfg.Budget.CapacityBytes) + ", expert parallelism " + estimator.Group(cfg.FC2.ExpertParallel)
	switch r := res.Candidate.Resident; {
	case r != nil && r.Source == "resident":
		t += ", in use " + r.InUseBytes.String() + ", the resident memory computed from the model"
	case r != nil:
		t += ", in use " + r.InUseBytes.String() + " as given (the resident memory computed: " + r.ResidentBytes.String() + ")"
	case cfg.Budget.InUseBytes == 0:
		t += ", nothing in use: the model's weights are not counted (no resident group)"
	default:
		t += ", in use " + estimator.Bytes(cfg.Budget.InUseBytes).String() + " as given (no resident group)"
	}
	return t
}
