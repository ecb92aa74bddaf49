package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// profileGoldenConfigs are configs without terms, each priced under both
// profiles: terms under art must leave every one of them byte-identical.
var profileGoldenConfigs = []struct{ name, json string }{
	{"default", `{}`},
	{"pressure", `{"request": {"rows": 200000}, "budget": {"in_use_bytes": 68451041280}}`},
	{"nograd_topk", `{"request": {"rows": 30000, "sequence_rows": 3000, "grad": false, "outputs": {"logprobs": true, "topk": 5}}, "budget": {"in_use_bytes": 120000000000}}`},
	{"dense_logits", `{"model": {"num_experts_per_tok": 0, "linear_num_key_heads": 0, "intermediate_size": 8192}, "request": {"rows": 50000, "sequence_rows": 2048, "grad": false, "outputs": {"logprobs": false, "logits": true}}}`},
	{"warm", `{"request": {"rows": 90000, "sequence_rows": 4096}, "budget": {"in_use_bytes": 90000000000}, "profile_memory": {"bytes_per_token": 300000, "packed_tokens": 20000, "retained_compute_bytes_per_token": 100000}}`},
}

// TestProfileGoldenWithoutTerms pins, per config and profile, the estimate
// as JSON, text and Markdown and the sweeps along rows and capacity_bytes
// (go test ./app/cli -run Golden -update refreshes them).
func TestProfileGoldenWithoutTerms(t *testing.T) {
	dir := t.TempDir()
	for _, c := range profileGoldenConfigs {
		for _, profile := range []string{"seeds", "art"} {
			if c.name == "warm" && profile == "seeds" {
				continue // a learned profile needs an art revision
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(c.json), &m); err != nil {
				t.Fatal(err)
			}
			m["profile"] = profile
			data, _ := json.Marshal(m)
			cfg := writeTestFile(t, dir, c.name+"_"+profile+".json", data)
			var out strings.Builder
			for _, args := range [][]string{
				{"estimate", "-format", "json"},
				{"estimate", "-format", "text"},
				{"estimate", "-format", "md"},
				{"sweep", "-axis", "rows", "-from", "1000", "-to", "400000", "-points", "64"},
				{"sweep", "-axis", "capacity_bytes", "-from", "20000000000", "-to", "200000000000", "-points", "64"},
			} {
				code, stdout, stderr := runCmd(t, "", append(args, "-config", cfg)...)
				fmt.Fprintf(&out, "## %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
			}
			checkOwnGolden(t, "profile_"+c.name+"_"+profile+".golden.txt", []byte(out.String()))
		}
	}
}
