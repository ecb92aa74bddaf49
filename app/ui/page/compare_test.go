package page

import (
	"testing"

	"headroom/estimator"
)

func TestCompareMode(t *testing.T) {
	t.Parallel()
	list, _ := Presets()
	s := New()
	s.Cfg.Changes.GDNEarlyRelease = false
	s.ApplyCompare(Edit{Kind: EditMenu, Key: KeyCompare, Text: CompareSetup}, list)
	if s.Cfg.Baseline == nil || s.Cfg.Baseline.Changes != s.Cfg.Changes || len(s.Cfg.Baseline.Overrides) != 0 {
		t.Fatalf("another setup starts as the candidate: %+v", s.Cfg.Baseline)
	}
	s.ApplyCompare(Edit{Kind: EditText, Key: "b.sequence_rows", Text: "2048"}, list)
	s.ApplyCompare(Edit{Kind: EditCheck, Key: "b.fc2_known_storage", On: false}, list)
	shared := s.Cfg // a copy, as the shown config is: edits must not reach it
	s.ApplyCompare(Edit{Kind: EditMenu, Key: KeyBaseGPU, Text: "h100"}, list)
	if _, ok := shared.Baseline.Overrides["budget.capacity_bytes"]; ok {
		t.Error("an edit changed a copy of the config")
	}
	s.ApplyCompare(Edit{Kind: EditMenu, Key: KeyCompare, Text: CompareChangesOff}, list)
	if s.Cfg.Baseline != nil || s.Query(list).Get("b.changes") != "" {
		t.Fatalf("changes off: %+v", s.Cfg.Baseline)
	}
	s.ApplyCompare(Edit{Kind: EditMenu, Key: KeyCompare, Text: CompareSetup}, list)
	b := s.Cfg.Baseline
	if b == nil || b.Overrides["request.sequence_rows"].Int != 2048 || b.Changes.FC2KnownStorage ||
		b.Overrides["budget.capacity_bytes"].Int != estimator.H100CapacityBytes {
		t.Errorf("back to another setup, the last one: %+v", b)
	}
	s.ApplyCompare(Edit{Kind: EditMenu, Key: KeyCompare, Text: "nonsense"}, list)
	if s.InputErr[KeyCompare] == "" {
		t.Error("a bad mode is not marked")
	}
}
