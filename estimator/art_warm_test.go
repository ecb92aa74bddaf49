package estimator

import "testing"

// Warm admission (docs/model.md §13.7), with figures of ART's
// test_pending_no_grad_empty_mixed_and_learned_max: one grad request of 67
// rows asking for hidden states on the test rank. A profile whose retained
// rate is 1 byte a row leaves the child's retained part at
// int((outputs + boundaries) x 1.1); one of 10^9 bytes a row prices the
// request at int((outputs + 67 x 10^9) x 1.1).
func TestArtWarmProfile(t *testing.T) {
	t.Parallel()
	c := artTestRank()
	c.Request = RequestConfig{Rows: 67, SequenceRows: 67, Grad: true, Outputs: Outputs{HiddenStates: true}}
	c.ProfileMemory = &ProfileMemory{BytesPerToken: 1, PackedTokens: 67, RetainedComputeBytesPerToken: Int64(1)}
	out, boundaries := int64(67*2048*2), int64(67*40*2048*2)
	res, err := Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := int64(res.Candidate.RetainedBytes), (out+boundaries)*11/10; got != want {
		t.Errorf("warm retained %s, want int((%d + %d) x 1.1) = %s", Group(got), out, boundaries, Group(want))
	}
	c.ProfileMemory.BytesPerToken = 1e9
	res, err = Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := int64(res.Candidate.RequiredBytes), (out+67*1e9)*11/10; got != want || res.Candidate.DominantStage != "profile" {
		t.Errorf("learned floor: %s (%s), want %s (profile)", Group(got), res.Candidate.DominantStage, Group(want))
	}
	// Cold, the same request carries the 64 MiB of cold transients; warm
	// it does not.
	cold := c
	cold.ProfileMemory = nil
	rc := mustResolve(t, cold)
	rw := mustResolve(t, c)
	ec, ew := newEvaluator(&rc), newEvaluator(&rw)
	p := artPiece{q: 1, s: 67, last: 67}
	if a, b := ec.artCost(p, rc.candidateVariant(), false).k0, ew.artCost(p, rw.candidateVariant(), false).k0; a != 64<<20 || b != 0 {
		t.Errorf("cold transients cold %d, warm %d", a, b)
	}
}

// TestArtSplitFloor: a recorded split floor lifts exactly the rung whose
// children's rows it names, in cut order (§13.7 rule 3).
func TestArtSplitFloor(t *testing.T) {
	t.Parallel()
	c := artDefault()
	c.Request.SequenceRows = 16853
	c.ProfileMemory = &ProfileMemory{BytesPerToken: 0, PackedTokens: 64902}
	r := mustResolve(t, c)
	e := newEvaluator(&r)
	v := r.candidateVariant()
	plain := e.artRung(2, v, false).required
	phi := plain // safe(phi) = 1.1 x the rung's own price
	for _, tc := range []struct {
		rows   []int64
		lifted bool
	}{{[]int64{33706, 31196}, true}, {[]int64{31196, 33706}, false}, {[]int64{33706, 31197}, false}} {
		c2 := c
		pm := *c.ProfileMemory
		pm.SplitFloors = []SplitFloor{{ChildRows: tc.rows, ObservedBytes: phi}}
		c2.ProfileMemory = &pm
		r2 := mustResolve(t, c2)
		e2 := newEvaluator(&r2)
		got := e2.artRung(2, v, false).required
		want := plain
		if tc.lifted {
			want = phi * 11 / 10
		}
		if got != want {
			t.Errorf("floor for %v: rung priced %s, want %s", tc.rows, Group(got), Group(want))
		}
		if lb := e2.artLowerBound(v); lb > e2.artRung(r2.sequences(), v, false).required {
			t.Errorf("floor for %v: lower bound %d above the finest rung", tc.rows, lb)
		}
	}
}

// TestArtExpertParallelRefusal: under EP a request that does not fit whole
// is refused with ART's sentence, never split, and prices no GDN floor.
func TestArtExpertParallelRefusal(t *testing.T) {
	t.Parallel()
	c := artDefault()
	c.FC2.ExpertParallel = 2
	c.Request.Rows = 400_000
	res, err := Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	o := res.Candidate
	if o.Decision != Refuse || o.Children != 0 || o.ChildRows != 400_000 || o.Reason != artReasons[artExpertParallel] {
		t.Errorf("EP 2: %v %d children of %d rows: %q", o.Decision, o.Children, o.ChildRows, o.Reason)
	}
	if g := o.Stage("checkpoint"); len(g.Tensors) < 4 || g.Tensors[3].Name != "gdn_floor" || g.Tensors[3].Bytes != 0 {
		t.Errorf("EP 2 checkpoint tensors %+v", g.Tensors)
	}
	c.Request.SequenceRows = 400_000
	res, _ = Estimate(c)
	if res.Candidate.Reason != "forward is predicted to exceed available memory; a single request cannot be split" {
		t.Errorf("one sequence: %q", res.Candidate.Reason)
	}
}
