package estimator

import (
	"encoding/json"
	"strings"
	"testing"
)

// artTermConfig is the default config under art with terms.
func artTermConfig(terms ...Term) Config {
	c := Default()
	c.Profile = ProfileArt
	c.Terms = terms
	return c
}

// TestArtTermErrors: §13.13's error table, each message naming the term
// and its place.
func TestArtTermErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		profile string
		term    Term
		want    string
	}{
		{"unknown place", ProfileArt, Term{Name: "x", Place: "fc2", Bytes: "n"},
			`terms[0] (x): place "fc2": profile art has no such part of its price; places under art: outputs, activations, moe`},
		{"art place under seeds", "", Term{Name: "x", Place: "moe", Bytes: "n"},
			`terms[0] (x): place must be one of retained, activations, head, fc2, gdn, stage, got "moe"; "moe" is a part of ART's price, a place under profile art only`},
		{"variable the place lacks", ProfileArt, Term{Name: "x", Place: "moe", Bytes: "n * Dq"},
			`terms[0] (x): place moe: `},
		{"seeds variable art lacks", ProfileArt, Term{Name: "x", Place: "moe", Bytes: "R"},
			`terms[0] (x): place moe: `},
		{"overflow", ProfileArt, Term{Name: "x", Place: "workspace", Bytes: "n * n * n * n * n"},
			`terms[0] (x): place workspace: `},
		{"negative", ProfileArt, Term{Name: "x", Place: "input_gradient", Bytes: "n - 2 * N"},
			`terms[0] (x): place input_gradient: bytes is negative`},
		{"replace under seeds", "", Term{Name: "x", Place: "head", Mode: "replace", Bytes: "n"},
			`terms[0] (x): mode replace needs profile art`},
		{"replace a stage", ProfileArt, Term{Name: "x", Place: "stage", Mode: "replace", Bytes: "n"},
			`terms[0] (x): place stage: a stage of its own has no bytes of ART's to replace`},
		{"bad mode", ProfileArt, Term{Name: "x", Place: "head", Mode: "swap", Bytes: "n"},
			`terms[0] (x): mode must be one of add, replace (default add), got "swap"`},
		{"stage named checkpoint", ProfileArt, Term{Name: "checkpoint", Place: "stage", Bytes: "n"},
			`terms[0] (checkpoint): a term with place stage cannot be named "checkpoint"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := artTermConfig(tc.term)
			c.Profile = tc.profile
			_, err := Estimate(c)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v\nwant %s", err, tc.want)
			}
			t.Logf("%v", err)
		})
	}
}

// TestArtTermZeroAndPositive: a term of 0 bytes at any place, held by any
// revision, changes no estimate and no sweep; a positive term never
// lowers the price of any rung or the lower bound, nor makes a decision
// better.
func TestArtTermZeroAndPositive(t *testing.T) {
	rng := newRand()
	n := 150
	if testing.Short() {
		n = 25
	}
	for i := 0; i < n; i++ {
		c := randomArtConfig(rng)
		base, errBase := Estimate(c)
		place := ArtTermPlaces[rng.IntN(len(ArtTermPlaces))]
		rev := TermRevisions[rng.IntN(3)]
		name := "t" + place
		zero := c
		zero.Terms = []Term{{Name: name, Place: place, Revision: rev, Bytes: "0 * n"}}
		z, errZero := Estimate(zero)
		if (errBase == nil) != (errZero == nil) {
			t.Fatalf("config %d: errors %v, %v", i, errBase, errZero)
		}
		if errBase != nil {
			continue
		}
		if place != "stage" { // a stage of its own is listed, at 0 bytes
			if a, b := withoutTensors(t, base.Baseline)+withoutTensors(t, base.Candidate), withoutTensors(t, z.Baseline)+withoutTensors(t, z.Candidate); a != b {
				t.Fatalf("config %d: a 0-byte %s term changes the estimate\n%s\n%s", i, place, a, b)
			}
		} else if base.Candidate.RequiredBytes != z.Candidate.RequiredBytes || base.Baseline.RequiredBytes != z.Baseline.RequiredBytes ||
			base.Candidate.LowerBoundBytes != z.Candidate.LowerBoundBytes || base.Candidate.Decision != z.Candidate.Decision {
			t.Fatalf("config %d: a 0-byte stage changes the price", i)
		}
		for _, axis := range []string{"rows", "capacity_bytes", "sequence_rows", Axes()[rng.IntN(len(Axes()))]} {
			f, _ := FieldByKey(axis)
			v, _ := f.Int(&c)
			from, to := max(f.Min, v/4), min(f.Max, 4*v+10)
			ra, ea := Sweep(c, axis, from, to, 17)
			rb, eb := Sweep(zero, axis, from, to, 17)
			ja, _ := json.Marshal(ra)
			jb, _ := json.Marshal(rb)
			if (ea == nil) != (eb == nil) || string(ja) != string(jb) {
				t.Fatalf("config %d: a 0-byte %s term changes the sweep along %s:\n%s\n%s", i, place, axis, ja, jb)
			}
		}
		// A positive term never lowers a price: required, lower bound and
		// every stage's bytes of both revisions, at the whole and after.
		pos := c
		pos.Terms = []Term{{Name: name, Place: place, Revision: rev, Bytes: []string{"1", "n", "n * H", "D + q * 4096", "B / 3 + 7"}[rng.IntN(5)]}}
		ra, errA := c.Resolve()
		rb, errB := pos.Resolve()
		if errA != nil || errB != nil {
			t.Fatalf("config %d: %v, %v", i, errA, errB)
		}
		ea, eb := newEvaluator(&ra), newEvaluator(&rb)
		for _, v := range []variant{baselineVariant(), ra.candidateVariant()} {
			m := ra.sequences()
			for k := int64(1); ; k = min(m, 2*k) {
				a, b := ea.artRung(k, v, false).required, eb.artRung(k, v, false).required
				if eb.c.err != nil {
					break // a positive term may overflow where the config did not
				}
				if b < a {
					t.Fatalf("config %d rev %d rung %d: a positive %s term (%s) lowers the price %d -> %d", i, v.rev, k, place, pos.Terms[0].Bytes, a, b)
				}
				if k >= m {
					break
				}
			}
			if eb.c.err != nil {
				continue
			}
			la, lb := ea.artLowerBound(v), eb.artLowerBound(v)
			pa, pb := ea.artDecide(v, ea.artRung(1, v, false)), eb.artDecide(v, eb.artRung(1, v, false))
			if eb.c.err != nil {
				continue
			}
			if lb < la || pb.decision < pa.decision || pb.decision == Split && pa.decision == Split && pb.k < pa.k {
				t.Fatalf("config %d rev %d: a positive %s term improves the outcome: bound %d -> %d, %v/%d -> %v/%d", i, v.rev, place, la, lb, pa.decision, pa.k, pb.decision, pb.k)
			}
		}
	}
}

// TestArtTermVariableValues: the page's help under art: the variables of
// the default request as ART prices it, and a term's value.
func TestArtTermVariableValues(t *testing.T) {
	c := artTermConfig()
	vars, err := TermVariableValues(c)
	if err != nil {
		t.Fatal(err)
	}
	// B = 64,902 x 48 x 2,048 x 2 (§13.4's figure), 16 sequences, 512 head rows.
	for name, want := range map[string]int64{"n": 64902, "B": 12760252416, "q": 16, "h": 512, "Vp": 151936, "r": 649020, "cf": 1, "gf": 1, "pct": 110} {
		if vars[name] != want {
			t.Errorf("%s = %d, want %d", name, vars[name], want)
		}
	}
	if len(vars) != len(ArtTermVariables()) {
		t.Errorf("%d variables, want %d", len(vars), len(ArtTermVariables()))
	}
	if v, err := EvalTermBytes(c, "min(B, 2 * n * H)", 64902); err != nil || v != 64902*2*2048 {
		t.Errorf("EvalTermBytes = %d, %v", v, err)
	}
	if _, err := EvalTermBytes(c, "R", 64902); err == nil || !strings.Contains(err.Error(), `unknown variable "R"`) {
		t.Errorf("EvalTermBytes(R): %v", err)
	}
}

// TestArtTermsJSONAndObserved: a term's mode survives the JSON (export
// and import), and an observed peak's prediction under art moves by a
// term's bytes (docs/model.md §13.13).
func TestArtTermsJSONAndObserved(t *testing.T) {
	c := artTermConfig(Term{Name: "one_gradient", Place: "input_gradient", Mode: "replace", Bytes: "min(B, 2 * n * H)"},
		Term{Name: "own", Place: "stage", Revision: "both", Bytes: "n * 1_000_000"})
	c.Observed = []ObservedPoint{{Rows: 4096, PeakBytes: 90_000_000_000, Label: "a"}}
	back, err := DecodeConfig(MarshalConfig(c))
	if err != nil || !back.Equal(c) {
		t.Fatalf("round trip: %v\n%s", err, MarshalConfig(back))
	}
	with, err := Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	c.Terms = nil
	without, err := Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	// At 4,096 rows the stage of its own (4,096,000,000 bytes) is the
	// largest alternative: the prediction is in_use + Out + that stage.
	o := with.Observed[0]
	if o.Candidate.PredictedBytes != 4096*4+4096*1_000_000 || o.Baseline.PredictedBytes != o.Candidate.PredictedBytes {
		t.Errorf("predicted %d / %d, want %d", o.Baseline.PredictedBytes, o.Candidate.PredictedBytes, 4096*4+4096*1_000_000)
	}
	if without.Observed[0].Candidate.PredictedBytes >= o.Candidate.PredictedBytes {
		t.Errorf("without the terms %d, with %d", without.Observed[0].Candidate.PredictedBytes, o.Candidate.PredictedBytes)
	}
}

// TestArtTermsBreakdown: each term is listed once under the part it
// joined, after ART's tensor there; a replaced part's tensor is gone, and
// the parts ART has no bytes of (retained_floor, backward) list only
// their terms.
func TestArtTermsBreakdown(t *testing.T) {
	c := artTermConfig(
		Term{Name: "fl", Place: "retained_floor", Bytes: "n"},
		Term{Name: "bw", Place: "backward", Bytes: "2 * n"},
		Term{Name: "ig", Place: "input_gradient", Mode: "replace", Bytes: "3 * n"},
		Term{Name: "ws", Place: "workspace", Bytes: "4 * n"},
		Term{Name: "out", Place: "outputs", Bytes: "5 * n"},
	)
	res, err := Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tb := range res.Candidate.Stage("checkpoint").Tensors {
		names = append(names, tb.Name)
	}
	if got, want := strings.Join(names, " "), "boundaries fl workspace ws head gdn_floor ig adapter_gradients cold_transients bw"; got != want {
		t.Errorf("checkpoint tensors %q, want %q", got, want)
	}
	names = nil
	for _, tb := range res.Candidate.Stage("outputs").Tensors {
		names = append(names, tb.Name)
	}
	if got := strings.Join(names, " "); got != "logprobs out" {
		t.Errorf("outputs tensors %q", got)
	}
	if ws := res.Candidate.Stage("checkpoint").Tensors[3]; ws.Bytes != 4*64902 {
		t.Errorf("ws = %d", ws.Bytes)
	}
}

// TestArtTermStageLine: a stage of its own under art is on the chart's
// points, as under the seeds: the whole request's bytes, for the
// revisions that hold it.
func TestArtTermStageLine(t *testing.T) {
	c := artTermConfig(Term{Name: "own", Place: "stage", Revision: "baseline", Bytes: "n * 8"})
	s, err := NewSweeper(c, "rows")
	if err != nil {
		t.Fatal(err)
	}
	pts := s.AppendPoints(nil, []int64{1000, 64902})
	for _, p := range pts {
		if p.Rev[0].WholeTermStages[0] != 8*p.X || p.Rev[1].WholeTermStages[0] != 0 {
			t.Errorf("at %d: %d / %d", p.X, p.Rev[0].WholeTermStages[0], p.Rev[1].WholeTermStages[0])
		}
	}
}
