package estimator

import (
	"errors"
	"fmt"
	"testing"
)

// checkAgainstRef compares Estimate(c) with the reference model of
// ref_test.go, field by field. It returns false when it reported an error.
func checkAgainstRef(t *testing.T, name string, c Config) bool {
	t.Helper()
	want := refEstimate(c)
	got, err := Estimate(c)
	if want.overflow {
		var e *Error
		var list ErrorList // a term that does not compile
		if err == nil || !errors.As(err, &e) && !(len(c.Terms) > 0 && errors.As(err, &list)) {
			t.Errorf("%s: the reference overflows int64 or a term fails, Estimate returned err = %v (want an *Error)", name, err)
			return false
		}
		return true
	}
	if err != nil {
		t.Errorf("%s: Estimate: %v (the reference prices it fine)", name, err)
		return false
	}
	ok := true
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%s: "+format, append([]any{name}, args...)...)
		ok = false
	}
	if got.AvailableBytes != Bytes(want.available) {
		fail("available_bytes = %d, want %d", got.AvailableBytes, want.available)
	}
	for _, rev := range []struct {
		name string
		got  Outcome
		want refOutcome
	}{{"baseline", got.Baseline, want.base}, {"candidate", got.Candidate, want.cand}} {
		checkOutcome(fail, rev.name, rev.got, rev.want, want.lower, want.available)
	}
	return ok
}

// checkOutcome compares one revision's outcome with the reference's, given
// the revision's lower bound and available bytes; fail reports a mismatch.
func checkOutcome(fail func(string, ...any), name string, g Outcome, w refOutcome, lower, available int64) {
	if g.Decision != w.decision || g.Children != w.children || g.ChildRows != w.rung.largest ||
		g.RequiredBytes != Bytes(w.rung.required) {
		fail("%s: got %v children %d child_rows %d required %d; want %v children %d child_rows %d required %d",
			name, g.Decision, g.Children, g.ChildRows, g.RequiredBytes,
			w.decision, w.children, w.rung.largest, w.rung.required)
		return
	}
	if g.LowerBoundBytes != Bytes(lower) {
		fail("%s: lower_bound_bytes = %d, want %d", name, g.LowerBoundBytes, lower)
	}
	if g.MarginBytes != Bytes(available-w.rung.required) {
		fail("%s: margin_bytes = %d, want %d", name, g.MarginBytes, available-w.rung.required)
	}
	// retained_bytes is the plan's sum over children and ephemeral_bytes
	// its peak, so required = floor((retained + ephemeral) x safety /
	// 100); child_retained_bytes is the largest child's.
	if g.RetainedBytes != Bytes(w.rung.ret) || g.EphemeralBytes != Bytes(w.rung.eph) {
		fail("%s: retained_bytes %d ephemeral_bytes %d, want %d %d", name, g.RetainedBytes, g.EphemeralBytes, w.rung.ret, w.rung.eph)
	}
	pc := w.rung.piece
	if g.ChildRetainedBytes != Bytes(pc.ret) {
		fail("%s: child_retained_bytes %d, want %d", name, g.ChildRetainedBytes, pc.ret)
	}
	if g.DominantStage != pc.dominant() {
		fail("%s: dominant_stage = %q, want %q", name, g.DominantStage, pc.dominant())
	}
	if s := diffStages(g, pc); s != "" {
		fail("%s: %s", name, s)
	}
}

// diffStages compares the reported stages and retained tensors of the
// largest child with the reference's, in order, by name and bytes.
func diffStages(o Outcome, pc refPiece) string {
	var want []StageBytes
	for s := Stage(0); s < NumStages; s++ {
		if !pc.present[s] {
			continue
		}
		sb := StageBytes{Name: s.String(), Bytes: Bytes(pc.stage[s])}
		for _, t := range pc.stages[s] {
			sb.Tensors = append(sb.Tensors, TensorBytes{t.name, Bytes(t.bytes)})
		}
		want = append(want, sb)
	}
	for _, t := range pc.own {
		want = append(want, StageBytes{Name: t.name, Bytes: Bytes(t.bytes), Tensors: []TensorBytes{{t.name, Bytes(t.bytes)}}})
	}
	if got, w := fmt.Sprint(o.Stages), fmt.Sprint(want); got != w {
		return "stages\n got " + got + "\nwant " + w
	}
	ret := StageBytes{Name: "retained", Bytes: Bytes(pc.ret), Tensors: []TensorBytes{}}
	for _, t := range pc.retained {
		ret.Tensors = append(ret.Tensors, TensorBytes{t.name, Bytes(t.bytes)})
	}
	if got, w := fmt.Sprint(o.Retained), fmt.Sprint(ret); got != w {
		return "retained\n got " + got + "\nwant " + w
	}
	return ""
}

// TestEstimateMatchesReference compares the package with the reference
// model on thousands of random configs whose budgets sit near their plans.
func TestEstimateMatchesReference(t *testing.T) {
	t.Parallel()
	rng := newRand()
	n := 3000
	if testing.Short() {
		n = 300
	}
	var count [2][3]int // revision x decision
	failures := 0
	for i := 0; i < n && failures < 10; i++ {
		c := randomConfig(rng)
		if !checkAgainstRef(t, fmt.Sprintf("config %d %s", i, MarshalConfig(c)), c) {
			failures++
			continue
		}
		if res, err := Estimate(c); err == nil {
			count[0][res.Baseline.Decision]++
			count[1][res.Candidate.Decision]++
		}
	}
	// The generator must exercise every decision, or this test says little.
	for rev := range count {
		for d, k := range count[rev] {
			if k < n/20 {
				t.Errorf("revision %d: only %d of %d configs had decision %v", rev, k, n, Decision(d))
			}
		}
	}
	t.Logf("decisions (admit, split, refuse): baseline %v, candidate %v", count[0], count[1])
}
