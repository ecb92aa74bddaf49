package page

import (
	"testing"

	"headroom/estimator"
)

// TestEstimatorAgainstGPUPathComparison: the Compare menu's "ART's
// estimator path against its GPU path" prices both revisions with ART's
// code, the baseline on the estimator path and the candidate on the GPU
// placement path (docs/model.md §15), and the link keeps it.
func TestEstimatorAgainstGPUPathComparison(t *testing.T) {
	list, _ := Presets()
	s := openLink(t, "preset=qwen3-next-80b-a3b&rows=300000")
	s.Apply(Edit{For: ForCompare, Kind: EditMenu, Key: KeyComparePreset, Text: ComparisonGPUPath}, list)
	if s.Cfg.Profile != estimator.ProfileArt || s.Cfg.Art.GPUPlacement == nil || !*s.Cfg.Art.GPUPlacement || len(s.Errs) != 0 {
		t.Fatalf("profile %q, gpu_placement %v, errors %v", s.Cfg.Profile, s.Cfg.Art.GPUPlacement, s.Errs)
	}
	if s.Result.Baseline.Placement != nil || s.Result.Candidate.Placement == nil {
		t.Fatalf("placements: baseline %v, candidate %v; want the candidate's only", s.Result.Baseline.Placement, s.Result.Candidate.Placement)
	}
	est := s.Cfg
	est.Baseline, est.Art.GPUPlacement = nil, nil
	want, err := estimator.Estimate(est)
	if err != nil {
		t.Fatal(err)
	}
	if s.Result.Baseline.RequiredBytes != want.Candidate.RequiredBytes || s.Result.Baseline.Decision != want.Candidate.Decision {
		t.Errorf("the baseline: %s at %d; the estimator path alone: %s at %d", s.Result.Baseline.Decision,
			s.Result.Baseline.RequiredBytes, want.Candidate.Decision, want.Candidate.RequiredBytes)
	}
	back := Decode(s.Query(list), list)
	if back.Result.Candidate.Placement == nil || back.Result.Baseline.Placement != nil ||
		back.Result.Candidate.RequiredBytes != s.Result.Candidate.RequiredBytes {
		t.Errorf("the link does not restore the comparison: %+v", back.Result.Candidate.Placement)
	}
}

// TestGPUPathUnderSeedsIsMarked: the path switch under the seeds' reading
// is an error on its field; the page keeps working.
func TestGPUPathUnderSeedsIsMarked(t *testing.T) {
	s := openLink(t, "preset=qwen3-next-80b-a3b&gpu_placement=true")
	if s.Errs["gpu_placement"] == "" {
		t.Errorf("errors %v: want gpu_placement marked", s.Errs)
	}
}
