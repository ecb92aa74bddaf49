package estimator

import (
	"strings"
	"testing"
)

// TestGPUMenu: every entry's capacity, label and source, and the two-way
// mapping between capacity and entry.
func TestGPUMenu(t *testing.T) {
	t.Parallel()
	want := []struct {
		id, label string
		capacity  int64
	}{
		{"h100", "H100 80GB (about 81,081 MiB)", 85_020_000_000},
		{"h200", "H200 (143,771 MiB)", 150_754_820_096},
		{"b200", "B200 (183,359 MiB)", 192_265_846_784},
		{"gb200", "GB200 (189,471 MiB)", 198_674_743_296},
		{"a100-40gb", "A100 40GB (40,536 MiB)", 42_505_076_736},
		{"a100-80gb", "A100 80GB (81,251 MiB)", 85_197_848_576},
		{"mi300x", "MI300X (196,592 MiB)", 206_141_652_992},
		{"l40s", "L40S (46,068 MiB)", 48_305_799_168},
		{"rtx4090", "RTX 4090 (24,564 MiB)", 25_757_220_864},
		{"custom", "custom bytes", 0},
	}
	menu := GPUs()
	if len(menu) != len(want) {
		t.Fatalf("%d entries, want %d", len(menu), len(want))
	}
	capacity, _ := FieldByKey("capacity_bytes")
	for i, w := range want {
		g := menu[i]
		t.Run(w.id, func(t *testing.T) {
			if g.ID != w.id || g.Label() != w.label || g.CapacityBytes != w.capacity {
				t.Fatalf("entry %d = %s %q %d, want %s %q %d", i, g.ID, g.Label(), g.CapacityBytes, w.id, w.label, w.capacity)
			}
			if len(g.Source) < 20 {
				t.Errorf("no source: %q", g.Source)
			}
			back, err := GPUByID(g.ID)
			if err != nil || back != g {
				t.Errorf("GPUByID(%q) = %+v, %v", g.ID, back, err)
			}
			if g.ID == CustomGPU {
				return
			}
			if got := GPUForCapacity(g.CapacityBytes); got != g {
				t.Errorf("GPUForCapacity(%d) = %s", g.CapacityBytes, got.ID)
			}
			// A menu capacity is a valid capacity_bytes.
			if g.CapacityBytes < capacity.Min || g.CapacityBytes > capacity.Max {
				t.Errorf("capacity %d outside %s", g.CapacityBytes, capacity.Allowed())
			}
		})
	}
	if H200CapacityBytes != 150_754_820_096 || H100CapacityBytes != 85_020_000_000 {
		t.Errorf("the H200 and H100 constants changed: existing links use them")
	}
	for _, c := range []int64{0, 1, H200CapacityBytes + 1, 80 << 30} {
		if got := GPUForCapacity(c); got.ID != CustomGPU {
			t.Errorf("GPUForCapacity(%d) = %s, want custom", c, got.ID)
		}
	}
	_, err := GPUByID("h300")
	const msg = `must be h100, h200, b200, gb200, a100-40gb, a100-80gb, mi300x, l40s, rtx4090 or custom, got "h300"`
	if err == nil || err.Error() != msg {
		t.Errorf("GPUByID(h300): %v\nwant %q", err, msg)
	}
	// The menu is a copy: changing it changes nothing.
	menu[0].CapacityBytes = 1
	if GPUs()[0].CapacityBytes != H100CapacityBytes {
		t.Errorf("GPUs returned the table itself")
	}
	ids := map[string]bool{}
	for _, g := range GPUs() {
		if ids[g.ID] || strings.ContainsAny(g.ID, " &=?#") {
			t.Errorf("ID %q repeated or not fit for a URL", g.ID)
		}
		ids[g.ID] = true
	}
}
