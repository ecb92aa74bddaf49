package estimator

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// Golden files under testdata/golden: the JSON of docs/model.md §6 for a few
// configs, refreshed only with go test -run Golden -update ./estimator/
// (and then read by a person: every figure in them is also checked against
// the reference model by TestEstimateMatchesReference's machinery below).
var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

func goldenConfigs() map[string]Config {
	split := Default()
	split.Request.SequenceRows = 16853
	split.Budget.CapacityBytes, split.Budget.ReservePermille = 22_000_000_000, 0
	refuse := split
	refuse.Budget.CapacityBytes = 15_000_000_000
	pressure := Default() // the FC2 seed's pressure run held 63.75 GiB
	pressure.Budget.InUseBytes = 68_451_041_280
	pressure.Request.Outputs = Outputs{Logprobs: true, TopK: 20, Logits: true, HiddenStates: true}
	pressure.Request.ProjectedRows, pressure.Request.TargetRows = Int64(8192), Int64(4096)
	return map[string]Config{"admit": Default(), "split": split, "refuse": refuse, "pressure": pressure}
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; if the change is intended, rerun with -update and review the diff\n got: %s", path, got)
	}
}

func TestGoldenEstimates(t *testing.T) {
	t.Parallel()
	for name, c := range goldenConfigs() {
		res, err := Estimate(c)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkAgainstRef(t, name, c)
		data, err := json.MarshalIndent(struct {
			Config json.RawMessage `json:"config"`
			Result Result          `json:"result"`
		}{MarshalConfig(c), res}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, "estimate_"+name+".json", append(data, '\n'))
	}
}

func TestGoldenSweep(t *testing.T) {
	t.Parallel()
	res, err := Sweep(Default(), "rows", 1, 1_000_000, DefaultPoints)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.MarshalIndent(res, "", "  ")
	checkGolden(t, "sweep_default_rows.json", append(data, '\n'))
}

// TestResultJSONShape: the keys docs/model.md §6 names, in the result's JSON.
func TestResultJSONShape(t *testing.T) {
	t.Parallel()
	res, err := Estimate(Default())
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(res)
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"available_bytes", "baseline", "candidate"} {
		if _, ok := m[key]; !ok {
			t.Errorf("result has no %q: %s", key, data)
		}
	}
	for _, rev := range []string{"baseline", "candidate"} {
		var o map[string]json.RawMessage
		json.Unmarshal(m[rev], &o)
		for _, key := range []string{"decision", "children", "child_rows", "required_bytes", "lower_bound_bytes",
			"margin_bytes", "dominant_stage", "reason", "retained_bytes", "ephemeral_bytes", "stages"} {
			if _, ok := o[key]; !ok {
				t.Errorf("%s has no %q", rev, key)
			}
		}
		if string(o["decision"]) != `"admit"` {
			t.Errorf("%s decision %s", rev, o["decision"])
		}
		var stages []struct {
			Name    *string `json:"name"`
			Bytes   *int64  `json:"bytes"`
			Tensors []struct {
				Name  *string `json:"name"`
				Bytes *int64  `json:"bytes"`
			} `json:"tensors"`
		}
		if err := json.Unmarshal(o["stages"], &stages); err != nil || len(stages) != 4 {
			t.Fatalf("%s stages %s: %v", rev, o["stages"], err)
		}
		for _, s := range stages {
			if s.Name == nil || s.Bytes == nil || len(s.Tensors) == 0 {
				t.Errorf("%s: stage %s lacks name, bytes or tensors", rev, o["stages"])
			}
			for _, tn := range s.Tensors {
				if tn.Name == nil || tn.Bytes == nil {
					t.Errorf("%s: a tensor lacks name or bytes", rev)
				}
			}
		}
	}
}
