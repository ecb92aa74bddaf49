package measured

import (
	"bytes"
	"strings"
	"testing"

	"headroom/estimator"
	"headroom/measure"
	"headroom/measure/snapgen"
)

// generatedRun writes a snapshot with snapgen and reads it as the page
// does, in slices through the feed.
func generatedRun(t *testing.T, name string, o snapgen.Options) *snapshotResult {
	t.Helper()
	var buf bytes.Buffer
	if _, err := snapgen.Write(&buf, o); err != nil {
		t.Fatal(err)
	}
	res, err := feedSlices(t, name, buf.Bytes(), 4096, -1)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// TestCompareRunsView: two generated runs side by side show measure's
// comparison: each run's allocated and reserved peaks and B − A, the
// start, the five groups' counts and bytes, the largest changes of each
// (at most changesShown, by top frame) and the windows by label; a run
// beside itself is all unchanged with no difference.
func TestCompareRunsView(t *testing.T) {
	t.Parallel()
	a := generatedRun(t, "a.pickle", snapgen.Options{Seed: 11, Allocs: 1500, AnnotateEvery: 400})
	b := generatedRun(t, "b.json", snapgen.Options{Seed: 12, Allocs: 1800, AnnotateEvery: 400, JSON: true})
	want := measure.CompareRuns(a.Devices, b.Devices)
	v := compareRuns(a, b)
	if v.FileA != "a.pickle" || v.FileB != "b.json" || len(v.Devices) != len(want) || len(want) != 1 {
		t.Fatalf("files %q %q, %d devices, want %d", v.FileA, v.FileB, len(v.Devices), len(want))
	}
	d, c := v.Devices[0], want[0]
	if c.PeakDeltaBytes == 0 {
		t.Fatal("the two generated runs have the same peak: the test compares nothing")
	}
	if len(d.Peaks) != 2 {
		t.Fatalf("%d peak rows", len(d.Peaks))
	}
	al, re := d.Peaks[0], d.Peaks[1]
	if al.ABytes != c.A.PeakBytes || al.BBytes != c.B.PeakBytes || al.DeltaBytes != c.PeakDeltaBytes ||
		al.Delta != estimator.Bytes(c.PeakDeltaBytes).DeltaString() || al.A != estimator.Bytes(c.A.PeakBytes).String() {
		t.Errorf("allocated: %+v, want A %d B %d delta %d", al, c.A.PeakBytes, c.B.PeakBytes, c.PeakDeltaBytes)
	}
	if c.A.ReservedPeakBytes == 0 || re.ABytes != c.A.ReservedPeakBytes || re.BBytes != c.B.ReservedPeakBytes ||
		re.DeltaBytes != c.ReservedDeltaBytes || re.Delta != estimator.Bytes(c.ReservedDeltaBytes).DeltaString() {
		t.Errorf("reserved: %+v, want A %d B %d delta %d", re, c.A.ReservedPeakBytes, c.B.ReservedPeakBytes, c.ReservedDeltaBytes)
	}
	if d.Start.Equal != c.EqualStart || !strings.Contains(d.Start.Text, estimator.Bytes(c.A.InitialBytes).String()) {
		t.Errorf("start %+v, want equal %v with %d bytes", d.Start, c.EqualStart, c.A.InitialBytes)
	}
	groups := []measure.BlockGroup{c.Unchanged, c.OnlyA, c.OnlyB, c.Grown, c.Shrunk}
	names := []string{"unchanged", "only in A", "only in B", "grown", "shrunk"}
	if len(d.Groups) != len(groups) {
		t.Fatalf("%d groups", len(d.Groups))
	}
	wantChanges := 0
	for i, g := range groups {
		r := d.Groups[i]
		wb := estimator.Bytes(g.Bytes).String()
		if i >= 3 {
			wb = estimator.Bytes(g.Bytes).DeltaString()
		}
		if r.Name != names[i] || r.Count != g.Count || r.Bytes != wb {
			t.Errorf("group %d: %+v, want %s %d %s", i, r, names[i], g.Count, wb)
		}
		wantChanges += min(len(g.Blocks), changesShown)
	}
	if c.OnlyA.Count+c.OnlyB.Count+c.Grown.Count+c.Shrunk.Count == 0 {
		t.Fatal("no block changed between the generated runs: the test compares nothing")
	}
	if len(d.Changes) != wantChanges {
		t.Errorf("%d changes listed, want %d", len(d.Changes), wantChanges)
	}
	// The first change listed is the largest of the first group listed.
	for i, g := range groups[1:] {
		if len(g.Blocks) == 0 {
			continue
		}
		first := d.Changes[0]
		if first.Group != names[i+1] || first.Frame != g.Blocks[0].Frame && !(g.Blocks[0].Frame == "" && first.Frame == "(no frame)") {
			t.Errorf("the first change is %+v, want %s at %q", first, names[i+1], g.Blocks[0].Frame)
		}
		break
	}
	if len(c.Windows) == 0 || len(d.Windows) != len(c.Windows) {
		t.Fatalf("%d windows, want %d (and some)", len(d.Windows), len(c.Windows))
	}
	for i, w := range c.Windows {
		r := d.Windows[i]
		if r.Label != w.Label {
			t.Errorf("window %d: %q, want %q", i, r.Label, w.Label)
		}
		if w.A != nil && w.B != nil && r.Delta != estimator.Bytes(w.DeltaBytes).DeltaString() {
			t.Errorf("window %q: B − A %q, want %d bytes", w.Label, r.Delta, w.DeltaBytes)
		}
		if (w.A == nil) != (r.A == "—") || (w.B == nil) != (r.B == "—") {
			t.Errorf("window %q: A %q B %q, want A present %v B present %v", w.Label, r.A, r.B, w.A != nil, w.B != nil)
		}
	}

	// A run beside itself: no difference, every block unchanged.
	same := compareRuns(a, a).Devices[0]
	if same.Peaks[0].DeltaBytes != 0 || same.Peaks[1].DeltaBytes != 0 || !same.Start.Equal || len(same.Changes) != 0 {
		t.Errorf("a run beside itself: %+v", same)
	}
	if same.Groups[0].Count != len(a.Devices[0].LiveAtPeak) || same.Groups[1].Count+same.Groups[2].Count+same.Groups[3].Count+same.Groups[4].Count != 0 {
		t.Errorf("a run beside itself: groups %+v, want %d unchanged", same.Groups, len(a.Devices[0].LiveAtPeak))
	}
}

// TestRunsPredictions: with a config that prices, both revisions'
// predictions sit beside both runs as measure.Compare makes them, made
// again when the config changes; without one, a note says why none is.
func TestRunsPredictions(t *testing.T) {
	t.Parallel()
	a := generatedRun(t, "a.pickle", snapgen.Options{Seed: 11, Allocs: 1500})
	b := generatedRun(t, "b.pickle", snapgen.Options{Seed: 12, Allocs: 1800})
	v := compareRuns(a, b)
	cfg := headConfig()
	preds := v.predictionsFor(a, b, cfg, true)
	if len(preds) != 1 || len(preds[0].Rows) != 2 || preds[0].Note != "" {
		t.Fatalf("predictions %+v", preds)
	}
	ma, errA := measure.Compare(cfg, &a.Devices[0])
	mb, errB := measure.Compare(cfg, &b.Devices[0])
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	for k, row := range preds[0].Rows {
		if row.ABytes != ma[k].PredictedBytes || row.BBytes != mb[k].PredictedBytes || !strings.HasPrefix(row.Name, ma[k].Revision+" predicts (") ||
			!strings.Contains(row.Delta, "A "+estimator.Bytes(ma[k].ResidualBytes).DeltaString()) {
			t.Errorf("row %d: %+v, want %d and %d predicted", k, row, ma[k].PredictedBytes, mb[k].PredictedBytes)
		}
	}
	bigger := cfg.Clone()
	bigger.Request.Rows *= 2
	if again := v.predictionsFor(a, b, bigger, true); again[0].Rows[0].ABytes == preds[0].Rows[0].ABytes && again[0].Rows[1].ABytes == preds[0].Rows[1].ABytes {
		t.Error("the predictions were not made again for a config with twice the rows")
	}
	if none := v.predictionsFor(a, b, cfg, false); len(none[0].Rows) != 0 || none[0].Note == "" {
		t.Errorf("not ready: %+v", none)
	}
}
