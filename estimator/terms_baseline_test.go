package estimator

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// Terms (docs/model.md §8) with a baseline of its own (docs/model.md §11): the baseline
// holds the baseline and both terms, evaluated with its own variables; the
// candidate the candidate and both terms; each lower bound the both terms
// of its own config. Every test here prices against the reference (the
// big-integer tree walk of ref_terms_test.go over the JSON-merged
// baseline config of baseline_ref_test.go).

// randomTermsBaseline is a random config with random terms and a random
// baseline of its own.
func randomTermsBaseline(t *testing.T, rng *rand.Rand) Config {
	return randomBaseline(t, rng, randomTermsConfig(rng))
}

// refTermsRevisions are the reference's models and variants of c's two
// revisions: the baseline's own config and the candidate.
func refTermsRevisions(t *testing.T, c Config) ([2]refModel, [2]refVariant) {
	bm, cm := refFrom(refBaselineConfig(t, c)), refFrom(c)
	return [2]refModel{bm, cm}, [2]refVariant{{bm.Eager, bm.FC2Known, bm.Release, "baseline"}, cm.candidate()}
}

// TestTermsBaselineMatchesReference: Estimate of random configs with terms
// and baselines of their own, each revision field by field (stages and
// tensors included), and whether the config fails at all.
func TestTermsBaselineMatchesReference(t *testing.T) {
	t.Parallel()
	rng := newRand()
	n := 1500
	if testing.Short() {
		n = 200
	}
	var count [2][3]int
	failed, failures := 0, 0
	for i := 0; i < n && failures < 10; i++ {
		c := randomTermsBaseline(t, rng)
		d, priced, ok := checkBaselineAgainstRef(t, fmt.Sprintf("config %d %s", i, MarshalConfig(c)), c)
		switch {
		case !ok:
			failures++
		case !priced:
			failed++
		default:
			count[0][d[0]]++
			count[1][d[1]]++
		}
	}
	for rev := range count {
		for d, k := range count[rev] {
			if k < n/40 {
				t.Errorf("revision %d: only %d of %d configs had decision %v", rev, k, n, Decision(d))
			}
		}
	}
	if failed < n/50 || failed > n/2 {
		t.Errorf("%d of %d configs failed: the generator should make a few fail, not most", failed, n)
	}
	t.Logf("decisions (admit, split, refuse): baseline %v, candidate %v; %d failed", count[0], count[1], failed)
}

// TestTermsBaselineSweepMatchesReference: sweeps of random configs with
// terms and baselines of their own, along every axis (the variables follow
// the moved field in each revision's own config), flip by flip and point
// by point against the reference.
func TestTermsBaselineSweepMatchesReference(t *testing.T) {
	t.Parallel()
	rng := newRand()
	n := 300
	if testing.Short() {
		n = 60
	}
	flips, invalid := sweepBaselineAgainstRef(t, rng, n, randomTermsConfig)
	if flips < n/4 {
		t.Errorf("only %d flips in %d sweeps", flips, n)
	}
	t.Logf("%d flips, %d of the baseline into invalid", flips, invalid)
}

// TestTermsBaselineOwnVariables: a term is evaluated with the variables of
// the revision that holds it; both terms are in both revisions and in each
// revision's lower bound, the others in their revision alone.
func TestTermsBaselineOwnVariables(t *testing.T) {
	t.Parallel()
	c := Default()
	c.Terms = []Term{
		{Name: "vocab_copy", Place: "stage", Revision: "both", Bytes: "V * 1000"},
		{Name: "old_copy", Place: "head", Revision: "baseline", Bytes: "H * 7"},
		{Name: "new_copy", Place: "retained", Revision: "candidate", Bytes: "n * H"},
	}
	c.Baseline = &Baseline{Overrides: Overrides{"model.vocab_size": {Int: 1000}, "model.hidden_size": {Int: 4096}}}
	res, err := Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	round := func(b int64) Bytes {
		return Bytes((b + c.AllocatorRoundBytes - 1) / c.AllocatorRoundBytes * c.AllocatorRoundBytes)
	}
	has := func(o Outcome, name string) bool {
		for _, s := range o.Stages {
			for _, tb := range s.Tensors {
				if tb.Name == name {
					return true
				}
			}
		}
		for _, tb := range o.Retained.Tensors {
			if tb.Name == name {
				return true
			}
		}
		return false
	}
	for _, tc := range []struct {
		name      string
		o         Outcome
		vocab     Bytes
		held, not string
	}{
		{"baseline", res.Baseline, round(1000 * 1000), "old_copy", "new_copy"},
		{"candidate", res.Candidate, round(c.Model.VocabSize * 1000), "new_copy", "old_copy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.o.Stage("vocab_copy").Bytes; got != tc.vocab {
				t.Errorf("vocab_copy = %d, want %d", got, tc.vocab)
			}
			if !has(tc.o, tc.held) || has(tc.o, tc.not) {
				t.Errorf("holds %s: %v, holds %s: %v", tc.held, has(tc.o, tc.held), tc.not, has(tc.o, tc.not))
			}
		})
	}
	head := res.Baseline.Stage("head").Tensors
	if last := head[len(head)-1]; last != (TensorBytes{"old_copy", round(4096 * 7)}) {
		t.Errorf("the baseline's head ends with %+v, want old_copy of its own hidden_size", last)
	}
	// Each lower bound is its own config's finest rung with the both terms
	// only: the reference's, revision by revision.
	models, _ := refTermsRevisions(t, c)
	for rev, o := range []Outcome{res.Baseline, res.Candidate} {
		m := models[rev]
		want := newRefPricer(&m).rung(m.sequences(), refLowerBound).required
		if o.LowerBoundBytes != Bytes(want) {
			t.Errorf("revision %d: lower bound %d, want %d", rev, o.LowerBoundBytes, want)
		}
	}
}

// TestTermsBaselineErrorNames: a term that fails only with the baseline's
// own variables names the baseline and the term, in an estimate, a sweep,
// a replay and an observed point; the candidate still prices.
func TestTermsBaselineErrorNames(t *testing.T) {
	t.Parallel()
	c := Default()
	c.Terms = []Term{{Name: "shrink", Place: "stage", Revision: "baseline", Bytes: "1_000_000 - H"}}
	c.Baseline = &Baseline{Overrides: Overrides{"model.hidden_size": {Int: 1 << 20}}}
	const term = "terms[0] (shrink): bytes is negative (-48,576) for a piece of "
	_, err := Estimate(c)
	if err == nil || !strings.HasPrefix(err.Error(), "baseline: "+term) {
		t.Errorf("estimate: %v, want baseline: %s...", err, term)
	}

	s, err := NewSweeper(c, "capacity_bytes")
	if err != nil {
		t.Fatal(err)
	}
	pt := s.Point(c.Budget.CapacityBytes)
	if pt.Rev[0].Decision != Invalid || !strings.HasPrefix(pt.Rev[0].Error, "baseline: "+term) ||
		pt.Rev[1].Decision == Invalid || pt.Error != "" {
		t.Errorf("sweep point: baseline %v %q, candidate %v, point error %q", pt.Rev[0].Decision, pt.Rev[0].Error, pt.Rev[1].Decision, pt.Error)
	}

	_, err = Replay(c, strings.NewReader("rows\n1000\n"), nil)
	var le *LineError
	if !errors.As(err, &le) || le.Line != 2 || le.Field != "baseline" || !strings.HasPrefix(le.Message, term+"1,000 rows") {
		t.Errorf("replay: %v, want line 2 naming the baseline and the term", err)
	}

	// Negative for the baseline's pieces under 100 rows only: the request
	// prices, the observed point of 10 rows does not.
	c.Baseline.Overrides["model.hidden_size"] = Setting{Int: 1_000_000}
	c.Terms[0].Bytes = "n + H - 1_000_100"
	if _, err := Estimate(c); err != nil {
		t.Fatal(err)
	}
	c.Observed = []ObservedPoint{{Rows: 10, PeakBytes: 1 << 30}}
	_, err = Estimate(c)
	want := "observed[0].rows: a piece of 10 rows: baseline: terms[0] (shrink): bytes is negative (-90) for a piece of 10 rows"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("observed: %v, want %s...", err, want)
	}
}

// TestTermsBaselineReplayMatchesReference: random workloads against random
// configs with terms and baselines of their own. The reference sets each
// line's fields in each revision's own config (rows carrying that
// revision's P and T) and prices both revisions with the reference model.
func TestTermsBaselineReplayMatchesReference(t *testing.T) {
	t.Parallel()
	rng := newRand()
	runs := 200
	if testing.Short() {
		runs = 40
	}
	compared, refused := 0, 0
	for run := 0; run < runs; run++ {
		c := randomTermsBaseline(t, rng)
		if _, err := c.ResolveRevisions(); err != nil {
			continue // a term that does not compile, or the baseline invalid as drawn
		}
		lines := randomLines(rng, c, 1+rng.IntN(60), run%4 == 3)
		text, nos, ignored := renderWorkload(rng, lines, run%2 == 1)
		t.Run(fmt.Sprintf("run%d", run), func(t *testing.T) {
			want, badLine := refReplayBy(lines, nos, ignored, refRevisionsDecider(t, c))
			got, err := Replay(c, strings.NewReader(text), nil)
			if badLine != 0 {
				var le *LineError
				if !errors.As(err, &le) || le.Line != badLine {
					t.Fatalf("want an error on line %d, got %v\nconfig %s\n%s", badLine, err, MarshalConfig(c), text)
				}
				refused++
				return
			}
			if err != nil {
				t.Fatalf("%v\nconfig %s\n%s", err, MarshalConfig(c), text)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("config %s\nworkload:\n%s\ngot  %+v\nwant %+v", MarshalConfig(c), text, got, want)
			}
			compared++
		})
	}
	if compared < runs/3 || refused == 0 {
		t.Errorf("%d of %d runs compared, %d refused", compared, runs, refused)
	}
}

// refRevisionsDecider prices a workload line in each revision's own
// config, as docs/model.md §11 says a replay does: the line's fields set in both
// (an override of them does not hold), projected and target rows scaled
// from the revision's own N, P and T unless the line gives them.
func refRevisionsDecider(t *testing.T, c Config) func(refLine) (int64, [2]Outcome, bool) {
	models, variants := refTermsRevisions(t, c)
	return func(l refLine) (int64, [2]Outcome, bool) {
		var out [2]Outcome
		for rev, base := range models {
			m := base
			if l.rows >= 0 {
				m.N = l.rows
			}
			m.P, m.T = ceilRef(m.N*base.P, base.N), ceilRef(m.N*base.T, base.N)
			if l.p >= 0 {
				m.P = l.p
			}
			if l.t >= 0 {
				m.T = l.t
			}
			if l.seq >= 0 {
				m.S = l.seq
			}
			if l.inUse >= 0 {
				m.InUse = l.inUse
			}
			rr := refPriceRev(m, variants[rev])
			if rr.invalid != "" || rr.overflow {
				return 0, out, false
			}
			out[rev] = Outcome{Decision: rr.out.decision, Children: rr.out.children}
		}
		rows := models[1].N
		if l.rows >= 0 {
			rows = l.rows
		}
		return rows, out, true
	}
}

// TestTermsBaselineObservedMatchesReference: observed points of random
// configs with terms and baselines of their own: each revision's
// predictions (its own in-use bytes, variables and terms) and fit equal
// the reference's, and a failure is an error naming the point exactly
// when the reference fails.
func TestTermsBaselineObservedMatchesReference(t *testing.T) {
	t.Parallel()
	rng := newRand()
	checked, failedPoints := 0, 0
	for i := 0; i < propertyCount(); i++ {
		c := randomTermsBaseline(t, rng)
		if _, err := Estimate(c); err != nil {
			continue // the request itself fails: nothing to compare
		}
		randomObserved(rng, &c)
		models, variants := refTermsRevisions(t, c)
		wantObs, wantFit, ok := refObserveRevs(c, models, variants)
		res, err := Estimate(c)
		if !ok {
			if err == nil || !strings.HasPrefix(err.Error(), "observed[") {
				t.Fatalf("config %d: the reference fails; estimate gave %v\n%s", i, err, MarshalConfig(c))
			}
			failedPoints++
			continue
		}
		if err != nil {
			t.Fatalf("config %d: %v\n%s", i, err, MarshalConfig(c))
		}
		sameObserved(t, i, c, res, wantObs, wantFit)
		checked++
	}
	t.Logf("%d configs compared, %d fail at a point as the reference does", checked, failedPoints)
	if checked < propertyCount()/3 {
		t.Errorf("only %d of %d configs compared", checked, propertyCount())
	}
}

// FuzzEstimateTermsBaseline: configs with terms and baselines of their
// own drawn from the fuzzer's seed; each agrees with the reference.
func FuzzEstimateTermsBaseline(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(seed1), uint64(seed2))
	f.Fuzz(func(t *testing.T, s1, s2 uint64) {
		rng := rand.New(rand.NewPCG(s1, s2))
		c := randomTermsBaseline(t, rng)
		checkBaselineAgainstRef(t, string(MarshalConfig(c)), c)
	})
}
