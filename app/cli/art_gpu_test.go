package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/estimator"
)

// TestArtGPUPathCommands: examples/art-estimator-vs-gpu.json puts ART's
// estimator path (the baseline) beside its GPU placement path (the
// candidate) at 300,000 rows, which the estimator path refuses and the GPU
// path splits with the backward state on the host (docs/model.md §15.7).
func TestArtGPUPathCommands(t *testing.T) {
	cfg := examplePath("art-estimator-vs-gpu.json")
	code, out, errOut := runCmd(t, "", "estimate", "-config", cfg)
	if code != 0 {
		t.Fatalf("estimate: exit %d, %s", code, errOut)
	}
	var res estimator.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	b, c := res.Baseline, res.Candidate
	if b.Decision != estimator.Refuse || b.Placement != nil {
		t.Errorf("the estimator path: %s, placement %v; want a refusal and no placement", b.Decision, b.Placement)
	}
	p := c.Placement
	if c.Decision != estimator.Split || c.Children != 2 || p == nil || p.BackwardState != "cpu" || p.OutputDevice != "model" ||
		p.GPURequiredBytes != c.RequiredBytes || len(p.Candidates) != 3 || !p.Candidates[2].Chosen ||
		p.Candidates[2].HostBytes != p.HostRequiredBytes || p.Candidates[0].GPUFits || !strings.Contains(p.Source, "70866802333") {
		t.Errorf("the GPU path: %s into %d, placement %+v", c.Decision, c.Children, p)
	}

	code, out, _ = runCmd(t, "", "estimate", "-config", cfg, "-format", "text")
	if code != 0 || !strings.Contains(out, "On ART's GPU placement path: the backward state is offloaded to the host") ||
		!strings.Contains(out, "ART's code followed:") {
		t.Errorf("estimate -format text:\n%s", out)
	}
	code, out, _ = runCmd(t, "", "estimate", "-config", cfg, "-format", "md")
	if code != 0 || !strings.Contains(out, "- **Candidate placement**: On ART's GPU placement path") {
		t.Errorf("estimate -format md:\n%s", out)
	}

	code, out, errOut = runCmd(t, "", "sweep", "-config", cfg, "-axis", "rows", "-from", "1", "-to", "600000")
	if code != 0 {
		t.Fatalf("sweep: exit %d, %s", code, errOut)
	}
	var sw estimator.SweepResult
	if err := json.Unmarshal([]byte(out), &sw); err != nil {
		t.Fatal(err)
	}
	if len(sw.Baseline.Flips) == 0 || len(sw.Candidate.Flips) == 0 || sw.Baseline.Flips[len(sw.Baseline.Flips)-1].First >= 300_000 {
		t.Errorf("sweep flips: estimator path %+v, GPU path %+v", sw.Baseline.Flips, sw.Candidate.Flips)
	}
	code, _, errOut = runCmd(t, "", "map", "-config", cfg, "-x", "rows", "-xfrom", "1", "-xto", "600000",
		"-y", "in_use_bytes", "-yfrom", "0", "-yto", "100000000000", "-columns", "8")
	if code != 0 {
		t.Errorf("map: exit %d, %s", code, errOut)
	}

	wl := filepath.Join(t.TempDir(), "w.csv")
	if err := os.WriteFile(wl, []byte("rows,count\n64902,3\n300000,2\n500000,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCmd(t, "", "replay", "-config", cfg, "-workload", wl)
	if code != 1 {
		t.Fatalf("replay: exit %d, %s", code, errOut)
	}
	var rr estimator.ReplayResult
	if err := json.Unmarshal([]byte(out), &rr); err != nil {
		t.Fatal(err)
	}
	if rr.Placements == nil || rr.Placements[0] != (estimator.PlacementCounts{}) ||
		rr.Placements[1] != (estimator.PlacementCounts{Offloaded: 2, Replayed: 1}) {
		t.Errorf("replay placements: %+v", rr.Placements)
	}
	code, out, _ = runCmd(t, "", "replay", "-config", cfg, "-workload", wl, "-format", "md")
	if code != 1 || !strings.Contains(out, "the candidate runs 0 requests with the outputs on the host, 2 requests with the backward state offloaded and 1 request replayed") {
		t.Errorf("replay -format md:\n%s", out)
	}
}

// TestArtGPUPathBadInput: exit 2, naming the field.
func TestArtGPUPathBadInput(t *testing.T) {
	for _, tc := range []struct{ config, field string }{
		{`{"art": {"gpu_placement": true}}`, "art.gpu_placement"},
		{`{"profile": "art", "art": {"gpu_placement": true, "backward_state": 4}}`, "art.backward_state"},
		{`{"profile": "art", "art": {"gpu_placement": true, "output_device": -1}}`, "art.output_device"},
		{`{"profile": "art", "art": {"gpu_placement": true, "host_ranks": 0}}`, "art.host_ranks"},
		{`{"profile": "art", "art": {"gpu_placement": true, "host_memory_bytes": -5}}`, "art.host_memory_bytes"},
		{`{"profile": "art", "art": {"gpu_placement": true, "backward_state": 3, "allow_replay": false}}`, "art.backward_state"},
		{`{"profile": "art", "art": {"gpu_placement": true, "replay": true}}`, "art.replay"},
	} {
		code, _, errOut := runCmd(t, tc.config, "estimate", "-config", "-")
		if code != 2 || !strings.Contains(errOut, tc.field+":") {
			t.Errorf("%s: exit %d, %q; want 2 naming %s", tc.config, code, errOut, tc.field)
		}
	}
}
