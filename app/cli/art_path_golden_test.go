package cli

import (
	"strings"
	"testing"
)

// artPathGoldenConfigs are art configs whose estimate and sweep outputs the
// estimator path (docs/model.md §13) must keep byte for byte now that the
// art profile has a second path: the default request, one ART splits, one
// it refuses, a warm one, and the seeds' reading against ART's code.
var artPathGoldenConfigs = []struct{ name, config string }{
	{"default", `{"profile": "art"}`},
	{"split", `{"profile": "art", "request": {"rows": 200000}}`},
	{"refused", `{"profile": "art", "request": {"rows": 300000}}`},
	{"warm", `{"profile": "art", "request": {"rows": 120000}, "profile_memory": {"bytes_per_token": 300000, "packed_tokens": 40000, "retained_compute_bytes_per_token": 20000}}`},
	{"resident", `{"profile": "art", "resident": {}, "fc2": {"expert_parallel": 8}, "request": {"rows": 150000}}`},
}

// TestArtEstimatorPathGolden: estimate (json, text, md) and a sweep of the
// art profile's estimator path, against files written before the GPU
// placement path existed (go test ./app/cli -run ArtEstimatorPathGolden
// -update rewrites them).
func TestArtEstimatorPathGolden(t *testing.T) {
	for _, c := range artPathGoldenConfigs {
		for _, format := range []string{"json", "text", "md"} {
			code, out, errOut := runCmd(t, c.config, "estimate", "-config", "-", "-format", format)
			if code != 0 {
				t.Fatalf("%s estimate -format %s: exit %d, %s", c.name, format, code, errOut)
			}
			checkOwnGolden(t, "art_path_"+c.name+".golden."+format, []byte(out))
		}
		code, out, errOut := runCmd(t, c.config, "sweep", "-config", "-", "-axis", "rows", "-from", "1", "-to", "400000")
		if code != 0 {
			t.Fatalf("%s sweep: exit %d, %s", c.name, code, errOut)
		}
		checkOwnGolden(t, "art_path_"+c.name+"_sweep.golden.json", []byte(out))
	}
	code, out, errOut := runCmd(t, "", "sweep", "-config", examplePath("seeds-vs-art.json"), "-axis", "in_use_bytes", "-from", "0", "-to", "120000000000")
	if code != 0 || !strings.Contains(out, "\n") {
		t.Fatalf("seeds-vs-art sweep: exit %d, %s", code, errOut)
	}
	checkOwnGolden(t, "art_path_seeds_vs_art_sweep.golden.json", []byte(out))
}
