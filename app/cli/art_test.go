package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"headroom/estimator"
)

// TestArtProfileCommands: a config with "profile": "art" goes through the
// commands: estimate prints ART's price and its refusal sentence, and
// sweep gives the README's table of examples/seeds-vs-art.json (the seeds'
// reading as the baseline, ART's code as the candidate).
func TestArtProfileCommands(t *testing.T) {
	code, out, errOut := runCmd(t, `{"profile": "art"}`, "estimate", "-config", "-")
	if code != 0 {
		t.Fatalf("estimate: exit %d, %s", code, errOut)
	}
	var res estimator.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Candidate.RequiredBytes != 49_426_185_204 || res.Baseline.RequiredBytes != 38_460_343_284 || res.Candidate.DominantStage != "checkpoint" {
		t.Errorf("estimate under art: %d / %d, %s", res.Candidate.RequiredBytes, res.Baseline.RequiredBytes, res.Candidate.DominantStage)
	}
	code, out, errOut = runCmd(t, `{"profile": "art", "request": {"rows": 300000}}`, "estimate", "-config", "-")
	if code != 0 || !strings.Contains(out, "unable to find a feasible split: every rung of the bounded ladder") {
		t.Errorf("estimate of 300,000 rows under art: exit %d %s\n%s", code, errOut, out)
	}

	code, out, errOut = runCmd(t, "", "sweep", "-config", examplePath("seeds-vs-art.json"), "-axis", "rows", "-from", "1", "-to", "1000000")
	if code != 0 {
		t.Fatalf("sweep: exit %d, %s", code, errOut)
	}
	var sw estimator.SweepResult
	if err := json.Unmarshal([]byte(out), &sw); err != nil {
		t.Fatal(err)
	}
	firsts := func(f estimator.Flips) []int64 {
		var xs []int64
		for _, fl := range f.Flips {
			xs = append(xs, fl.First)
		}
		return xs
	}
	if b, c := firsts(sw.Baseline), firsts(sw.Candidate); len(b) != 2 || b[0] != 403_171 || b[1] != 670_607 ||
		len(c) != 2 || c[0] != 192_211 || c[1] != 266_397 {
		t.Errorf("seeds splits and refuses from %v, ART from %v; the README says 403,171 / 670,607 and 192,211 / 266,397", b, c)
	}
}
