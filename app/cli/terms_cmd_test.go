package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"headroom/estimator"
)

// TestTermsCommandLine: estimate, sweep and plot read configs with terms
// (docs/model.md §8) through the decoder; a bad term exits 2 with one line that
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
		{"sweep", "-config", examplePath("terms.json"), "-axis", "rows", "-from", "1", "-to", "1000000"},
		{"plot", "-config", examplePath("terms.json"), "-axis", "rows", "-from", "1", "-to", "1000000", "-o", "-"},
		{"estimate", "-config", examplePath("terms.json")},
	} {
		if code, stdout, stderr := runCmd(t, "", args...); code != 0 || stderr != "" || stdout == "" {
			t.Errorf("%s: exit %d, stderr %q", args[0], code, stderr)
		}
	}

	for _, tc := range []struct{ cmd, in, want string }{
		{"estimate", `{"terms":[{"name":"router_fp32","place":"head","bytes":"Q * 4"}]}`,
			`headroom estimate: terms[0] (router_fp32): unknown variable "Q"; known: n, p, t, r, D, Dt, N, P, T, s, V, H, L, K, M, I, O, b, E, C, k, g, Hk, Dk, Hv, Dv, X` + "\n"},
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

// TestTermsWithBaselineCommandLine: with a baseline of its own, estimate
// prices the baseline's terms with the baseline's own fields, and replay
// decides both revisions with their terms; a term that fails only in the
// baseline exits 2 naming the baseline and the term.
func TestTermsWithBaselineCommandLine(t *testing.T) {
	cfg := `{"terms": [{"name": "vocab_copy", "place": "stage", "revision": "both", "bytes": "V * 1000"}],
		"baseline": {"overrides": {"model": {"vocab_size": 1000}}}}`
	code, stdout, stderr := runCmd(t, cfg, "estimate", "-config", "-")
	if code != 0 || stderr != "" {
		t.Fatalf("estimate: exit %d, stderr %q", code, stderr)
	}
	var res estimator.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	d := estimator.Default()
	round := func(b int64) estimator.Bytes {
		r := d.AllocatorRoundBytes
		return estimator.Bytes((b + r - 1) / r * r)
	}
	if got, want := res.Baseline.Stage("vocab_copy").Bytes, round(1000*1000); got != want {
		t.Errorf("baseline vocab_copy %d, want %d (its own vocab_size)", got, want)
	}
	if got, want := res.Candidate.Stage("vocab_copy").Bytes, round(d.Model.VocabSize*1000); got != want {
		t.Errorf("candidate vocab_copy %d, want %d", got, want)
	}

	path := writeTestFile(t, t.TempDir(), "c.json", []byte(cfg))
	code, stdout, stderr = runCmd(t, "rows\n1000\n200000\n", "replay", "-config", path, "-workload", "-")
	var rep estimator.ReplayResult
	if code == 2 || stderr != "" || json.Unmarshal([]byte(stdout), &rep) != nil || rep.Requests != 2 {
		t.Errorf("replay: exit %d, stderr %q, stdout %q", code, stderr, stdout)
	}

	bad := `{"terms": [{"name": "shrink", "place": "stage", "revision": "baseline", "bytes": "1_000_000 - H"}],
		"baseline": {"overrides": {"model": {"hidden_size": 1048576}}}}`
	code, stdout, stderr = runCmd(t, bad, "estimate", "-config", "-")
	want := "headroom estimate: baseline: terms[0] (shrink): bytes is negative (-48,576) for a piece of 64,902 rows"
	if code != 2 || stdout != "" || !strings.HasPrefix(stderr, want) {
		t.Errorf("estimate: exit %d, stderr %q; want exit 2 and %q", code, stderr, want)
	}
}
