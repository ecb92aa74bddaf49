package measure

import "testing"

// TestCompareRuns: the blocks at each peak matched by frame and size, the
// windows by label, the peaks and starts compared.
func TestCompareRuns(t *testing.T) {
	a := []DeviceReport{{Device: 0, PeakBytes: 1000, InitialBytes: 100, Events: 10,
		Allocator: &AllocatorView{ReservedPeakBytes: 2048},
		LiveAtPeak: []LiveBlock{
			{Size: 512, Frame: "a.py:1:f"}, {Size: 512, Frame: "a.py:1:f"}, // one kept, one gone
			{Size: 1024, Frame: "b.py:2:g"}, // grows to 1536
			{Size: 4096, Frame: "c.py:3:h"}, // shrinks to 2048
			{Size: 300, Frame: "d.py:4:k"},  // only in A
		},
		Windows: []Window{{Label: "step 1", PeakBytes: 900}, {Label: "step 2", PeakBytes: 1000}, {Label: "only a", PeakBytes: 10}}}}
	b := []DeviceReport{{Device: 0, PeakBytes: 800, InitialBytes: 100, Events: 12,
		Allocator: &AllocatorView{ReservedPeakBytes: 2048},
		LiveAtPeak: []LiveBlock{
			{Size: 512, Frame: "a.py:1:f"}, {Size: 1536, Frame: "b.py:2:g"}, {Size: 2048, Frame: "c.py:3:h"},
			{Size: 777, Frame: "e.py:5:m"}, // only in B
		},
		Windows: []Window{{Label: "step 2", PeakBytes: 700}, {Label: "step 1", PeakBytes: 950}}},
		{Device: 1, PeakBytes: 5}}
	cs := CompareRuns(a, b)
	if len(cs) != 2 || cs[1].Device != 1 || cs[1].A.PeakBytes != 0 || cs[1].PeakDeltaBytes != 5 {
		t.Fatalf("devices %+v", cs)
	}
	c := cs[0]
	if c.PeakDeltaBytes != -200 || c.ReservedDeltaBytes != 0 || !c.EqualStart || c.A.Events != 10 || c.B.Events != 12 {
		t.Errorf("peaks %+v", c)
	}
	check := func(name string, g BlockGroup, count int, bytes int64) {
		t.Helper()
		if g.Count != count || g.Bytes != bytes {
			t.Errorf("%s: %d blocks, %d bytes; want %d, %d (%+v)", name, g.Count, g.Bytes, count, bytes, g.Blocks)
		}
	}
	check("unchanged", c.Unchanged, 1, 512)
	check("only in A", c.OnlyA, 2, 812)
	check("only in B", c.OnlyB, 1, 777)
	check("grown", c.Grown, 1, 512)
	check("shrunk", c.Shrunk, 1, -2048)
	if g := c.Grown.Blocks; len(g) != 1 || g[0].Frame != "b.py:2:g" || g[0].ABytes != 1024 || g[0].BBytes != 1536 {
		t.Errorf("grown %+v", g)
	}
	w := c.Windows
	if len(w) != 3 || w[0].Label != "step 1" || w[0].DeltaBytes != 50 || w[1].DeltaBytes != -300 || w[2].Label != "only a" || w[2].B != nil {
		t.Errorf("windows %+v", w)
	}
}
