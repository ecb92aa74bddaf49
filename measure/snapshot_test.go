package measure

import (
	"os"
	"path/filepath"
	"testing"

	"headroom/estimator"
)

// Qwen3-Next defaults: D is one chunk of BF16 logits, 512 x 151,936 x 2
// bytes (docs/model.md §7).
const (
	figD       = 155_582_464
	figWeights = 3 << 30
)

func readFile(t *testing.T, name string) *Snapshot {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "snapshots", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := ReadSnapshot(f, ReadOptions{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

func analyze(t *testing.T, name string) DeviceReport {
	t.Helper()
	devs, err := Analyze(readFile(t, name), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(devs) != 1 {
		t.Fatalf("%s: %d devices, want 1", name, len(devs))
	}
	return devs[0]
}

func TestHeadChunkPeak(t *testing.T) {
	t.Parallel()
	// The same snapshot fed several ways: protocol 4 (as _dump_snapshot
	// writes it), 0, 2 and 5, and JSON.
	for _, name := range []string{"head.pickle", "head-protocol0.pickle", "head-protocol2.pickle", "head-protocol5.pickle", "head.json"} {
		d := analyze(t, name)
		// The weights, the scratch buffer (1,000 bytes in a 1,024-byte
		// block) and the head's 7D, all live after the fourth allocation.
		want := int64(figWeights + 1024 + 7*figD)
		if d.PeakBytes != want || d.PeakRequestedBytes != want-24 || d.RoundingBytes != 24 {
			t.Errorf("%s: peak %d (requested %d, rounding %d), want %d (%d, 24)", name, d.PeakBytes, d.PeakRequestedBytes, d.RoundingBytes, want, want-24)
		}
		if d.PeakEvent != 4 || d.PeakTimeUS != 1_700_000_000_000_000+5*17 {
			t.Errorf("%s: peak at event %d, time %d", name, d.PeakEvent, d.PeakTimeUS)
		}
		if d.InitialBytes != figWeights || d.InitialBlocks != 1 || d.FreeEvent != "free_requested" {
			t.Errorf("%s: initial %d in %d blocks, free event %s", name, d.InitialBytes, d.InitialBlocks, d.FreeEvent)
		}
		if len(d.LiveAtPeak) != 6 {
			t.Fatalf("%s: %d live at peak, want 6: %+v", name, len(d.LiveAtPeak), d.LiveAtPeak)
		}
		if b := d.LiveAtPeak[0]; b.Size != figWeights || b.Event != -1 || !b.SizeExact {
			t.Errorf("%s: largest live block %+v, want the weights from before the trace", name, b)
		}
		if b := d.LiveAtPeak[1]; b.Size != 2*figD || b.Frame != "/opt/art/src/art/trainer_rank/_head.py:212:chunk_logprobs" {
			t.Errorf("%s: second live block %+v", name, b)
		}
		if b := d.LiveAtPeak[5]; b.Size != 1024 || b.RequestedSize != 1000 || b.RoundingBytes != 24 || b.SizeExact {
			t.Errorf("%s: smallest live block %+v", name, b)
		}
		if d.CurrentBytes != figWeights {
			t.Errorf("%s: current %d", name, d.CurrentBytes)
		}
	}
}

func TestHeadChunkMatchesCandidateHead(t *testing.T) {
	t.Parallel()
	d := analyze(t, "head.pickle")
	c := estimator.Default()
	c.Request.Rows = 4096
	c.Request.SequenceRows = 4096
	m, err := Compare(c, &d)
	if err != nil {
		t.Fatal(err)
	}
	cand := m[1]
	if cand.Best.Stage != "head" || cand.Best.Found != 4 || cand.Best.Priced != 4 {
		t.Fatalf("candidate best %+v", cand.Best)
	}
	if want := "1 x D + 3 x 2D of the head, 4 of 4 priced tensors found"; cand.Best.Summary != want {
		t.Errorf("summary %q, want %q", cand.Best.Summary, want)
	}
	if m[0].Best.Stage == "head" && m[0].Best.Found == m[0].Best.Priced && m[0].Best.Priced == 4 {
		t.Errorf("baseline head should not price the eager workspace: %+v", m[0].Best)
	}
}
