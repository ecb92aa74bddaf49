package measure

import (
	"strings"
	"testing"
)

// TestStrandedRoom: 24 MiB free in a 64 MiB segment, in two blocks of
// 12 MiB, and a request of 16 MiB that ran out of memory: the room is
// there in all, but no block holds it.
func TestStrandedRoom(t *testing.T) {
	const mib = 1 << 20
	data := `{"segments": [{"address": 0, "total_size": 67108864, "segment_type": "large", "blocks": [
	  {"address": 0, "size": 20971520, "requested_size": 20971520, "state": "active_allocated"},
	  {"address": 20971520, "size": 12582912, "state": "inactive"},
	  {"address": 33554432, "size": 20971520, "requested_size": 20971520, "state": "active_allocated"},
	  {"address": 54525952, "size": 12582912, "state": "inactive"}]}],
	 "device_traces": [[
	  {"action": "segment_alloc", "addr": 0, "size": 67108864},
	  {"action": "alloc", "addr": 0, "size": 20971520},
	  {"action": "alloc", "addr": 33554432, "size": 20971520},
	  {"action": "oom", "size": 16777216, "device_free": 1024}]]}`
	s, err := ReadSnapshot(strings.NewReader(data), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	devs, err := Analyze(s, 0)
	if err != nil {
		t.Fatal(err)
	}
	av := devs[0].Allocator
	if av.InitialReservedBytes != 0 || av.ReservedPeakBytes != 64*mib || av.ReservedPeakEvent != 0 {
		t.Errorf("reserved: initial %d, peak %d at %d", av.InitialReservedBytes, av.ReservedPeakBytes, av.ReservedPeakEvent)
	}
	for name, st := range map[string]SegmentState{"peak": av.AtPeak, "end": av.AtEnd} {
		if st.Segments != 1 || st.ReservedBytes != 64*mib || st.AllocatedBytes != 40*mib || st.FreeBytes != 24*mib ||
			st.FreeBlocks != 2 || st.LargestFreeBlock != 12*mib {
			t.Errorf("%s: %+v", name, st)
		}
		if st.NeedBytes != 16*mib || st.Fits || !st.Stranded || !strings.Contains(st.Need, "ran out of memory at entry 3") {
			t.Errorf("%s: need %d (%s), fits %v, stranded %v", name, st.NeedBytes, st.Need, st.Fits, st.Stranded)
		}
	}
	tl := devs[0].Timeline
	if tl[0].Reserved != 0 || tl[len(tl)-1].Reserved != 64*mib {
		t.Errorf("timeline %+v", tl)
	}
	if len(av.Markers) != 1 || av.Markers[0].Kind != "oom" || av.Markers[0].Event != 3 {
		t.Errorf("markers %+v", av.Markers)
	}
}
