package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"headroom/estimator"
)

// TestTermsCommandLine: estimate, sweep and plot read configs with terms
// (section 8) through the decoder; a bad term exits 2 with one line that
// names it.
func TestTermsCommandLine(t *testing.T) {
	in := `{"terms":[{"name":"logits_fp32_copy","place":"head","bytes":"2 * D"}]}`
	code, stdout, stderr := runCmd(t, in, "estimate", "-config", "-")
	if code != 0 || stderr != "" {
		t.Fatalf("estimate: exit %d, stderr %q", code, stderr)
	}
	var res estimator.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	head := res.Candidate.Stage("head")
	if last := head.Tensors[len(head.Tensors)-1]; last != (estimator.TensorBytes{Name: "logits_fp32_copy", Bytes: 2 * 155_582_464}) {
		t.Errorf("candidate head ends with %+v", last)
	}
	for _, tb := range res.Baseline.Stage("head").Tensors {
		if tb.Name == "logits_fp32_copy" {
			t.Errorf("the baseline holds the candidate's term")
		}
	}

	for _, args := range [][]string{
		{"sweep", "-config", "../../examples/terms.json", "-axis", "rows", "-from", "1", "-to", "1000000"},
		{"plot", "-config", "../../examples/terms.json", "-axis", "rows", "-from", "1", "-to", "1000000", "-o", "-"},
		{"estimate", "-config", "../../examples/terms.json"},
	} {
		if code, stdout, stderr := runCmd(t, "", args...); code != 0 || stderr != "" || stdout == "" {
			t.Errorf("%s: exit %d, stderr %q", args[0], code, stderr)
		}
	}

	for _, tc := range []struct{ cmd, in, want string }{
		{"estimate", `{"terms":[{"name":"router_fp32","place":"head","bytes":"Q * 4"}]}`,
			`headroom estimate: terms[0] (router_fp32): unknown variable "Q"; known: n, p, t, r, D, Dt, N, P, T, s, V, H, L, K, M, I, O, b, E, C, k, g, Hk, Dk, Hv, Dv` + "\n"},
		{"sweep", `{"terms":[{"name":"x","place":"stage","bytes":"n % 2"}]}`, "headroom sweep: terms[0] (x): the operator \"%\" is not allowed"},
		{"plot", `{"terms":[{"name":"x","place":"nowhere","bytes":"n"}]}`, "headroom plot: terms[0] (x): place must be one of"},
		{"estimate", `{"terms":[{"name":"x","place":"head","bytes":"n - 100000"}]}`,
			"headroom estimate: terms[0] (x): bytes is negative (-35,098) for a piece of 64,902 rows; a tensor's bytes must be >= 0\n"},
	} {
		args := []string{tc.cmd, "-config", "-"}
		if tc.cmd != "estimate" {
			args = append(args, "-to", "1000")
		}
		if tc.cmd == "plot" {
			args = append(args, "-o", "-")
		}
		code, stdout, stderr := runCmd(t, tc.in, args...)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, strings.TrimSuffix(tc.want, "\n")) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.cmd, tc.in, code, stdout, stderr, tc.want)
		}
	}
}
