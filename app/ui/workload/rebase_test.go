package workload

import (
	"os"
	"strings"
	"testing"

	"headroom/app/report"
)

// tenantsWorkload is the example workload (examples/tenants.csv): eight
// lines, a tenant column, and sequence_rows cells left empty so that
// they take the config's.
func tenantsWorkload(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../../examples/tenants.csv")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestWorkloadLoadDoesNotRebase: Pressing Load on
// line 5 made its sequence_rows 8192 the config's, the replay ran again,
// every line with an empty cell took 8192, and the verdict went from "1
// request would be refused" to "none would be refused" without a word.
// Loading a line keeps the replay; replaying against the explorer's
// config says which cells took its value and that the verdict moved.
func TestWorkloadLoadDoesNotRebase(t *testing.T) {
	cfg := workloadConfig()
	var s workloadState
	s.setConfig(cfg, keyOf(cfg))
	s.load("the pasted text", []byte(tenantsWorkload(t)))
	runToEnd(t, &s, 3)
	if s.shown == nil {
		t.Fatalf("no result: %s", s.status())
	}
	before := report.Sentence(s.shown.res)

	// Load line 5: the explorer's request becomes its shape.
	loaded := cfg
	loaded.Request.Rows, loaded.Request.SequenceRows = 220000, 8192
	s.pin(5)
	if gen := s.setConfig(loaded, keyOf(loaded)); gen != 0 || s.stale() || s.pending {
		t.Fatalf("loading a line re-bases the replay (gen %d, stale %v): %s", gen, s.stale(), s.status())
	}
	if got := report.Sentence(s.shown.res); got != before {
		t.Errorf("the verdict moved on a load: %q, was %q", got, before)
	}
	if st := s.status(); !strings.Contains(st, "does not re-base") {
		t.Errorf("the status does not say the replay stays: %s", st)
	}

	// Replaying against the explorer's config says what moved.
	gen := s.unpin()
	if gen == 0 || !s.settle(gen) {
		t.Fatalf("no rerun against the explorer's config: %s", s.status())
	}
	runToEnd(t, &s, 3)
	after := report.Sentence(s.shown.res)
	if after == before {
		t.Fatalf("fixture: the verdict does not move with sequence_rows 8192 (%q)", after)
	}
	for _, want := range []string{"The verdict moved", "6 lines with an empty sequence_rows cell took the config's 8,192 (was 4,096)", before} {
		if !strings.Contains(s.moved, want) {
			t.Errorf("the note %q lacks %q", s.moved, want)
		}
	}

	// After a load, an edit of another field replays against the page.
	s.pin(5)
	edited := loaded
	edited.Model.VocabSize++
	if gen := s.setConfig(edited, keyOf(edited)); gen == 0 || s.pinned != 0 {
		t.Errorf("an edit of vocab_size after a load does not replay (gen %d, pinned %d)", gen, s.pinned)
	}
}
