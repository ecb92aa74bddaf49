package measure

import (
	"bytes"
	"testing"

	"headroom/measure/snapgen"
)

// generated writes a snapshot with snapgen and reads it back.
func generated(t *testing.T, o snapgen.Options) (snapgen.Stats, *Snapshot, []DeviceReport) {
	t.Helper()
	var buf bytes.Buffer
	st, err := snapgen.Write(&buf, o)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ReadSnapshot(&buf, ReadOptions{})
	if err != nil {
		t.Fatalf("reading the generated snapshot: %v", err)
	}
	devs, err := Analyze(s, 0)
	if err != nil {
		t.Fatal(err)
	}
	return st, s, devs
}

// TestGeneratedSnapshot: the replay finds, in both forms, the peak the
// generator's allocator reached, at the same entry, with the OOM and the
// windows it wrote.
func TestGeneratedSnapshot(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		o := snapgen.Options{Seed: 3, Devices: 2, Allocs: 3000, AnnotateEvery: 700, OOMAt: 1200, JSON: asJSON}
		st, s, devs := generated(t, o)
		if len(devs) != 2 || s.NumTraces() != 2 {
			t.Fatalf("json %v: %d devices, %d traces", asJSON, len(devs), s.NumTraces())
		}
		for i, d := range devs {
			want := st.Devices[i]
			if d.Events != want.Entries || d.PeakBytes != want.PeakAllocated || d.PeakEvent != want.PeakAllocatedAt {
				t.Errorf("json %v device %d: %d entries, peak %d at %d; want %d, %d at %d", asJSON, i,
					d.Events, d.PeakBytes, d.PeakEvent, want.Entries, want.PeakAllocated, want.PeakAllocatedAt)
			}
			if d.CurrentBytes != want.EndAllocated || d.InitialBytes != 0 {
				t.Errorf("json %v device %d: current %d (want %d), initial %d", asJSON, i, d.CurrentBytes, want.EndAllocated, d.InitialBytes)
			}
			if len(d.OOMs) != 1 || d.OOMs[0].Event != want.OOMEntry {
				t.Errorf("json %v device %d: OOMs %+v, want one at %d", asJSON, i, d.OOMs, want.OOMEntry)
			}
			if len(d.Windows) != want.Annotations+1 || d.Windows[1].Label != "step 1" {
				t.Errorf("json %v device %d: %d windows, want %d", asJSON, i, len(d.Windows), want.Annotations+1)
			}
			av := d.Allocator
			if av == nil || av.InitialReservedBytes != 0 || av.ReservedPeakBytes != want.PeakReserved {
				t.Fatalf("json %v device %d: allocator %+v, want reserved peak %d", asJSON, i, av, want.PeakReserved)
			}
			end := av.AtEnd
			if end.ReservedBytes != want.EndReserved || end.AllocatedBytes != want.EndAllocated || end.Segments != want.Segments ||
				end.FreeBlocks != want.FreeBlocks || end.LargestFreeBlock != want.LargestFreeBlock {
				t.Errorf("json %v device %d: at the end %+v, want %+v", asJSON, i, end, want)
			}
			pk := av.AtPeak
			if pk.AllocatedBytes != want.PeakAllocated || pk.Segments != want.PeakSegments || pk.FreeBlocks != want.PeakFreeBlocks ||
				pk.LargestFreeBlock != want.PeakLargestFreeBlock {
				t.Errorf("json %v device %d: at the peak %d allocated in %d segments, %d free blocks, largest %d; want %d, %d, %d, %d", asJSON, i,
					pk.AllocatedBytes, pk.Segments, pk.FreeBlocks, pk.LargestFreeBlock, want.PeakAllocated, want.PeakSegments, want.PeakFreeBlocks, want.PeakLargestFreeBlock)
			}
			if pk.NeedBytes != 80<<30 || pk.Fits || pk.Stranded {
				t.Errorf("json %v device %d: at the peak, need %d (%s), fits %v, stranded %v", asJSON, i, pk.NeedBytes, pk.Need, pk.Fits, pk.Stranded)
			}
			if len(av.Markers) != want.Annotations+1 || av.Markers[0].Kind != "oom" && av.Markers[1].Kind != "oom" {
				t.Errorf("json %v device %d: markers %+v", asJSON, i, av.Markers)
			}
			for _, b := range d.LiveAtPeak {
				if b.Frame == "" || !bytes.HasSuffix([]byte(b.Frame[:bytes.IndexByte([]byte(b.Frame), ':')]), []byte(".py")) {
					t.Errorf("json %v: live block %+v without its Python frame", asJSON, b)
					break
				}
			}
		}
	}
}
