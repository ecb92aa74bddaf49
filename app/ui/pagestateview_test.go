package ui

import (
	"net/url"
	"strings"
	"testing"

	"headroom/app/ui/page"
	"headroom/estimator"
)

// TestGPUMenu: the menu, the URL and the capacity agree, from the
// estimator's one table.
func TestGPUMenu(t *testing.T) {
	opts := gpuOptions()
	if len(opts) != len(estimator.GPUs()) || len(opts) < 10 {
		t.Fatalf("the menu has %d entries, the estimator's table %d", len(opts), len(estimator.GPUs()))
	}
	for i, g := range estimator.GPUs() {
		if opts[i].Value != g.ID || opts[i].Label != g.Label() {
			t.Errorf("menu entry %d = %+v, want %s %q", i, opts[i], g.ID, g.Label())
		}
		if g.ID == page.GPUCustom {
			continue
		}
		t.Run(g.ID, func(t *testing.T) {
			if got, err := page.GPUCapacity(g.ID); err != nil || got != g.CapacityBytes {
				t.Errorf("GPUCapacity(%q) = %d, %v; want %d", g.ID, got, err, g.CapacityBytes)
			}
			if got := page.GPUFor(g.CapacityBytes); got != g.ID {
				t.Errorf("GPUFor(%d) = %q, want %q", g.CapacityBytes, got, g.ID)
			}
			s := page.Decode(url.Values{"gpu": {g.ID}}, nil)
			if s.Cfg.Budget.CapacityBytes != g.CapacityBytes || s.GPU != g.ID {
				t.Errorf("?gpu=%s: capacity %d, menu %q", g.ID, s.Cfg.Budget.CapacityBytes, s.GPU)
			}
		})
	}
	if opts[0].Label != "H100 80GB (about 81,081 MiB)" || opts[1].Label != "H200 (143,771 MiB)" {
		t.Errorf("the first entries read %q, %q", opts[0].Label, opts[1].Label)
	}
	t.Run("custom", func(t *testing.T) {
		if got := page.GPUFor(12345 << 20); got != page.GPUCustom {
			t.Errorf("GPUFor(a custom capacity) = %q, want custom", got)
		}
		s := page.New()
		s.SetMenu(page.KeyGPU, page.GPUCustom, nil)
		if s.GPU != page.GPUCustom || s.Cfg.Budget.CapacityBytes != estimator.Default().Budget.CapacityBytes {
			t.Errorf("custom: menu %q, capacity %d; want custom, the capacity unchanged", s.GPU, s.Cfg.Budget.CapacityBytes)
		}
	})
	t.Run("bad", func(t *testing.T) {
		_, e := estimator.GPUByID("a100")
		want := e.Error()
		if !strings.Contains(want, "a100-40gb") {
			t.Fatalf("GPUByID(a100): %q does not list the IDs", want)
		}
		if _, err := page.GPUCapacity("a100"); err == nil || err.Error() != want {
			t.Errorf("GPUCapacity(a100): %v, want %s", err, want)
		}
		s := page.Decode(url.Values{"gpu": {"a100"}}, nil)
		if s.InputErr[page.KeyGPU] != want {
			t.Errorf("?gpu=a100: error %q, want %q", s.InputErr[page.KeyGPU], want)
		}
	})
}
