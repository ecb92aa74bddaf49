package estimator

import (
	"strings"
	"testing"
)

// TestGPUPathRepair: every error of the GPU path's fields (docs/model.md
// §15.6) is repaired by putting the field back, never by a panic, and the
// repaired config prices.
func TestGPUPathRepair(t *testing.T) {
	on, off := true, false
	cases := []func(c *Config){
		func(c *Config) { c.Art.GPUPlacement = &on },
		func(c *Config) { c.Profile, c.Art.GPUPlacement, c.Art.BackwardState = ProfileArt, &on, Int64(9) },
		func(c *Config) {
			c.Profile, c.Art.GPUPlacement, c.Art.BackwardState, c.Art.AllowCPUOffload = ProfileArt, &on, Int64(2), &off
		},
		func(c *Config) {
			c.Profile, c.Art.GPUPlacement, c.Art.HostRanks, c.Art.OutputDevice = ProfileArt, &on, Int64(0), Int64(7)
		},
	}
	for i, set := range cases {
		c := Default()
		set(&c)
		fixed, errs := Repair(c)
		if len(errs) == 0 {
			t.Errorf("case %d: Repair finds nothing to repair", i)
		}
		if _, err := Estimate(fixed); err != nil {
			t.Errorf("case %d: the repaired config does not price: %v", i, err)
		}
	}
}

// TestGPUPathEstimatorPathUnchanged: the GPU path's options on the
// estimator path change nothing (accepted and ignored, as §13.3's fields
// under the seeds' reading).
func TestGPUPathEstimatorPathUnchanged(t *testing.T) {
	plain, err := Estimate(gpuTestConfig(t, `{"profile": "art", "request": {"rows": 300000}}`))
	if err != nil {
		t.Fatal(err)
	}
	opts, err := Estimate(gpuTestConfig(t, `{"profile": "art", "request": {"rows": 300000}, "art": {"backward_state": 3, "output_device": 2, "host_ranks": 8, "lora_slot_bytes": 1000}}`))
	if err != nil {
		t.Fatal(err)
	}
	if mustJSONString(plain) != mustJSONString(opts) {
		t.Errorf("the options change the estimator path's result")
	}
	if strings.Contains(mustJSONString(plain), "placement") {
		t.Errorf("the estimator path's result has a placement block")
	}
}

func gpuTestConfig(t *testing.T, js string) Config {
	t.Helper()
	c, err := DecodeConfig([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustJSONString(v any) string { return string(mustJSON(v)) }
