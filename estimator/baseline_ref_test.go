package estimator

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// The reference's reading of docs/model.md §11: the baseline's config is the
// config with the overrides' fields replaced (merged as JSON, with the
// standard library's decoder, not the package's), defaults resolved after
// them; each revision is priced on its own, and a sweep moves the field in
// both, rows carrying P and T from each revision's own N, P and T.

// refBaselineConfig applies c's baseline by merging its overrides into
// c's JSON: a null override deletes the key, so the default follows.
func refBaselineConfig(t *testing.T, c Config) Config {
	t.Helper()
	b := c.Baseline
	c.Baseline = nil
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var tree map[string]any
	if err := json.Unmarshal(data, &tree); err != nil {
		t.Fatal(err)
	}
	if b != nil {
		over, err := json.Marshal(b.Overrides)
		if err != nil {
			t.Fatal(err)
		}
		var o map[string]any
		if err := json.Unmarshal(over, &o); err != nil {
			t.Fatal(err)
		}
		mergeJSON(tree, o)
	}
	data, _ = json.Marshal(tree)
	var out Config
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	out.Changes = Changes{}
	if b != nil {
		out.Changes = b.Changes
	}
	return out
}

func mergeJSON(dst, src map[string]any) {
	for k, v := range src {
		sub, isObj := v.(map[string]any)
		switch {
		case v == nil:
			delete(dst, k)
		case isObj:
			d, ok := dst[k].(map[string]any)
			if !ok {
				d = map[string]any{}
				dst[k] = d
			}
			mergeJSON(d, sub)
		default:
			dst[k] = v
		}
	}
}

// refRev is one revision as the reference prices it on its own.
type refRev struct {
	m        refModel
	v        refVariant
	invalid  string // non-empty: a cross-field limit fails (the field's path)
	overflow bool
	avail    int64
	lower    int64
	out      refOutcome
}

// refCrossInvalid names the first cross-field limit m breaks, or "".
func refCrossInvalid(m *refModel) string {
	switch {
	case m.P < 1 || m.P > m.N:
		return "request.projected_rows"
	case m.T < 0 || m.T > m.P:
		return "request.target_rows"
	case m.InUse > m.Cap:
		return "budget.in_use_bytes"
	}
	return ""
}

func refPriceRev(m refModel, v refVariant) refRev {
	rr := refRev{m: m, v: v, invalid: refCrossInvalid(&m)}
	if rr.invalid != "" {
		return rr
	}
	rp := newRefPricer(&rr.m)
	rr.avail = rr.m.available()
	rr.lower = rp.rung(rr.m.sequences(), refLowerBound).required
	rr.out = rp.decide(v)
	rr.overflow = rp.a.overflow || m.termsBad
	return rr
}

// refRevisions are the two revisions of c: the baseline of its own and
// the candidate.
func refRevisions(t *testing.T, c Config) [2]refRev {
	bm := refFrom(refBaselineConfig(t, c))
	cm := refFrom(c)
	return [2]refRev{
		refPriceRev(bm, refVariant{bm.Eager, bm.FC2Known, bm.Release, "baseline"}),
		refPriceRev(cm, cm.candidate()),
	}
}

// refMoveAxis sets axis to x in m, as a sweep does: rows carries P and T
// from m's own N, P and T. It reports false when x is outside the field's
// range.
func refMoveAxis(m *refModel, axis string, x int64) bool {
	f, _ := FieldByKey(axis)
	if x < f.Min || x > f.Max {
		return false
	}
	switch axis {
	case "rows":
		m.P, m.T = ceilRef(x*m.P, m.N), ceilRef(x*m.T, m.N)
		m.N = x
	case "vocab_size":
		m.V = x
	case "chunk_rows":
		m.C = x
	case "num_experts_per_tok":
		m.K = x
	case "input_width":
		m.I = x
	case "output_width":
		m.O = x
	case "hidden_size":
		m.H = x
	case "sequence_rows":
		m.S = x
	case "capacity_bytes":
		m.Cap = x
	case "in_use_bytes":
		m.InUse = x
	case "num_hidden_layers":
		m.L = x
	case "moe_intermediate_size":
		m.M = x
	case "expert_parallel":
		m.EP = x
	}
	return true
}

// refDecisionAt is revision rr's decision with axis at x, Invalid when
// its config is invalid there or its plans overflow.
func refDecisionAt(rr refRev, axis string, x int64) (Decision, refRev) {
	m := rr.m
	if !refMoveAxis(&m, axis, x) {
		return Invalid, refRev{}
	}
	at := refPriceRev(m, rr.v)
	if at.invalid != "" || at.overflow {
		return Invalid, at
	}
	return at.out.decision, at
}

// randomBaseline gives c a random baseline of its own: random changes and
// a few overrides (a GPU, the budget placed near the baseline's own plans,
// rows, sequence length, model widths, outputs), kept valid.
func randomBaseline(t *testing.T, rng *rand.Rand, c Config) Config {
	b := &Baseline{Changes: Changes{rng.IntN(2) == 0, rng.IntN(2) == 0, rng.IntN(2) == 0}, Overrides: Overrides{}}
	c.Baseline = b
	if rng.IntN(8) == 0 {
		return c // overrides nothing: the changes alone
	}
	o := b.Overrides
	some := func() bool { return rng.IntN(3) == 0 }
	if some() {
		o["request.rows"] = Setting{Int: between(rng, 1, 2*c.Request.Rows)}
		o["request.projected_rows"] = Setting{Default: true}
		if rng.IntN(2) == 0 {
			o["request.target_rows"] = Setting{Default: true}
		} else {
			o["request.target_rows"] = Setting{Int: 0}
		}
	}
	if some() {
		o["request.sequence_rows"] = Setting{Int: between(rng, max(1, c.Request.SequenceRows/3), 3*c.Request.SequenceRows)}
	}
	if some() {
		o["model.hidden_size"] = Setting{Int: oneOf(rng, 1, 1024, 2048, 4096, between(rng, 1, 8192))}
	}
	if some() {
		o["model.vocab_size"] = Setting{Int: between(rng, 1, 300_000)}
	}
	if some() {
		o["model.num_experts_per_tok"] = Setting{Int: oneOf(rng, 0, 2, 8, 10)}
	}
	if some() {
		o["head.chunk_rows"] = Setting{Int: oneOf(rng, 1, 256, 1024, between(rng, 1, 4096))}
	}
	if some() {
		o["fc2.output_width"] = Setting{Default: true}
		o["budget.retained_per_row_bytes"] = Setting{Default: true}
	}
	if some() {
		o["request.grad"] = Setting{Bool: rng.IntN(2) == 0}
		o["request.outputs.logits"] = Setting{Bool: rng.IntN(2) == 0}
	}
	if some() {
		o["allocator_round_bytes"] = Setting{Int: oneOf(rng, 1, 512, 4096)}
	}
	// The budget: near one of the baseline's own plans, or a GPU's.
	bc := refBaselineConfig(t, c)
	switch rng.IntN(3) {
	case 0:
		placeBudget(rng, &bc)
		o["budget.capacity_bytes"] = Setting{Int: bc.Budget.CapacityBytes}
		o["budget.in_use_bytes"] = Setting{Int: bc.Budget.InUseBytes}
		o["budget.reserve_permille"] = Setting{Int: bc.Budget.ReservePermille}
	case 1:
		o["budget.capacity_bytes"] = Setting{Int: oneOf(rng, H100CapacityBytes, H200CapacityBytes)}
		o["budget.in_use_bytes"] = Setting{Int: between(rng, 0, H100CapacityBytes)}
	}
	return c
}

// checkBaselineAgainstRef compares Estimate(c) of a config with a baseline
// of its own with the reference, revision by revision, field by field. It
// returns the outcomes' decisions, and ok false when it reported an error.
func checkBaselineAgainstRef(t *testing.T, name string, c Config) (decisions [2]Decision, priced, ok bool) {
	t.Helper()
	revs := refRevisions(t, c)
	res, err := Estimate(c)
	switch {
	case revs[0].invalid != "" || revs[1].invalid != "":
		if err == nil || !strings.Contains(err.Error(), revs[0].invalid) {
			t.Errorf("%s: the reference finds %q invalid, Estimate says %v", name, revs[0].invalid+revs[1].invalid, err)
			return decisions, false, false
		}
		return decisions, false, true
	case revs[0].overflow || revs[1].overflow:
		if err == nil {
			t.Errorf("%s: the reference overflows, Estimate does not", name)
			return decisions, false, false
		}
		return decisions, false, true
	case err != nil:
		t.Errorf("%s: Estimate: %v", name, err)
		return decisions, false, false
	}
	ok = true
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%s: "+format, append([]any{name}, args...)...)
		ok = false
	}
	if res.AvailableBytes != Bytes(revs[1].avail) {
		fail("available_bytes %d, want the candidate's %d", res.AvailableBytes, revs[1].avail)
	}
	for rev, o := range []Outcome{res.Baseline, res.Candidate} {
		if o.AvailableBytes == nil || *o.AvailableBytes != Bytes(revs[rev].avail) {
			fail("revision %d: available_bytes %v, want %d", rev, o.AvailableBytes, revs[rev].avail)
		}
		checkOutcome(fail, []string{"baseline", "candidate"}[rev], o, revs[rev].out, revs[rev].lower, revs[rev].avail)
		decisions[rev] = o.Decision
	}
	return decisions, true, ok
}

// TestEstimateBaselineMatchesReference: random configs with random
// baselines of their own, each revision compared with the reference field
// by field, its own available bytes and lower bound included.
func TestEstimateBaselineMatchesReference(t *testing.T) {
	t.Parallel()
	rng := newRand()
	n := 1500
	if testing.Short() {
		n = 200
	}
	var count [2][3]int
	failures := 0
	for i := 0; i < n && failures < 10; i++ {
		c := randomBaseline(t, rng, randomConfig(rng))
		d, priced, ok := checkBaselineAgainstRef(t, fmt.Sprintf("config %d %s", i, MarshalConfig(c)), c)
		if !ok {
			failures++
			continue
		}
		if priced {
			count[0][d[0]]++
			count[1][d[1]]++
		}
	}
	for rev := range count {
		for d, k := range count[rev] {
			if k < n/25 {
				t.Errorf("revision %d: only %d of %d configs had decision %v", rev, k, n, Decision(d))
			}
		}
	}
	t.Logf("decisions (admit, split, refuse): baseline %v, candidate %v", count[0], count[1])
}

// FuzzEstimateBaseline: configs and baselines drawn from the fuzzer's
// seed by the property tests' generator; each agrees with the reference.
func FuzzEstimateBaseline(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(seed1), uint64(seed2))
	f.Fuzz(func(t *testing.T, s1, s2 uint64) {
		rng := rand.New(rand.NewPCG(s1, s2))
		c := randomBaseline(t, rng, randomConfig(rng))
		checkBaselineAgainstRef(t, string(MarshalConfig(c)), c)
	})
}

// TestSweepBaselineMatchesReference: sweeps of random configs with random
// baselines along every axis: each revision's flips are exactly where the
// reference's decisions change (every integer of a narrow range), and
// each flip of a wide range is confirmed by the reference at both ends;
// points carry each revision's own numbers.
func TestSweepBaselineMatchesReference(t *testing.T) {
	t.Parallel()
	rng := newRand()
	n := 300
	if testing.Short() {
		n = 60
	}
	flips, invalid := sweepBaselineAgainstRef(t, rng, n, randomConfig)
	// Some sweeps must take the baseline alone into invalid points (its
	// own in-use bytes above a swept capacity), or the per-revision
	// validity goes untested.
	if flips < n/2 || invalid < n/50 {
		t.Errorf("only %d flips, %d of the baseline into invalid, in %d sweeps", flips, invalid, n)
	}
	t.Logf("%d flips, %d of the baseline into invalid", flips, invalid)
}

// sweepBaselineAgainstRef sweeps n configs drawn by gen, each with a
// random baseline of its own, along every axis in turn, and compares each
// revision's flips and points with the reference. It counts the flips, and
// those that take the baseline alone into or out of invalid points. A
// config whose terms do not compile is skipped (the decoder's tests cover
// it).
func sweepBaselineAgainstRef(t *testing.T, rng *rand.Rand, n int, gen func(*rand.Rand) Config) (flips, invalid int) {
	t.Helper()
	for i := 0; i < n; i++ {
		c := randomBaseline(t, rng, gen(rng))
		if _, err := c.ResolveRevisions(); err != nil && strings.HasPrefix(err.Error(), "terms[") {
			continue
		}
		axis := Axes()[i%len(Axes())]
		ownInUse := axis == "capacity_bytes" && rng.IntN(2) == 0
		if ownInUse {
			// The baseline's own memory in use, more than the
			// candidate's: along capacity, just below it the candidate
			// decides and the baseline is invalid.
			bc := refBaselineConfig(t, c)
			lo := min(c.Budget.InUseBytes+1, bc.Budget.CapacityBytes)
			c.Baseline.Overrides["budget.in_use_bytes"] = Setting{Int: between(rng, lo, bc.Budget.CapacityBytes)}
		}
		revs := refRevisions(t, c)
		if revs[0].invalid != "" || revs[1].invalid != "" {
			continue
		}
		f, _ := FieldByKey(axis)
		v, ok := f.Int(&c)
		if !ok {
			v = 1000
		}
		var from, to int64
		if rng.IntN(2) == 0 { // narrow: every integer evaluated
			from, to = max(0, v-between(rng, 0, 50)), v+between(rng, 0, 80)
		} else {
			from, to = max(0, v/between(rng, 2, 8)), min(v*between(rng, 2, 8)+between(rng, 0, 100), f.Max+5)
		}
		if ownInUse {
			u := c.Baseline.Overrides["budget.in_use_bytes"].Int
			from, to = max(0, u-between(rng, 0, 60)), u+between(rng, 0, 60)
		}
		points := 200
		name := fmt.Sprintf("config %d along %s over [%d, %d]: %s", i, axis, from, to, MarshalConfig(c))
		res, err := Sweep(c, axis, from, to, points)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s, _ := NewSweeper(c, axis)
		for rev, got := range [][]Flip{res.Baseline.Flips, res.Candidate.Flips} {
			flips += len(got)
			if to-from+1 <= int64(points) {
				var want []string
				prev, _ := refDecisionAt(revs[rev], axis, from)
				for x := from + 1; x <= to; x++ {
					d, _ := refDecisionAt(revs[rev], axis, x)
					if d != prev {
						want = append(want, fmt.Sprintf("%v->%v@%d", prev, d, x))
					}
					prev = d
				}
				var gotS []string
				for _, f := range got {
					gotS = append(gotS, fmt.Sprintf("%v->%v@%d", f.FromDecision, f.ToDecision, f.First))
				}
				if strings.Join(gotS, " ") != strings.Join(want, " ") {
					t.Errorf("%s: revision %d flips %v, reference %v", name, rev, gotS, want)
				}
			}
			for _, f := range got {
				if rev == 0 && (f.ToDecision == Invalid && s.Point(f.First).Rev[1].Decision != Invalid ||
					f.FromDecision == Invalid && s.Point(f.Last).Rev[1].Decision != Invalid) {
					invalid++ // the baseline alone is invalid on one side
				}
				dl, _ := refDecisionAt(revs[rev], axis, f.Last)
				df, _ := refDecisionAt(revs[rev], axis, f.First)
				if f.First != f.Last+1 || dl != f.FromDecision || df != f.ToDecision {
					t.Errorf("%s: revision %d flip %+v, reference %v at %d, %v at %d", name, rev, f, dl, f.Last, df, f.First)
				}
				if (dl == Invalid || df == Invalid) && f.Message == "" {
					t.Errorf("%s: revision %d flip %+v carries no message", name, rev, f)
				}
			}
			// Points carry the revision's own numbers.
			for _, x := range []int64{from, to, from + (to-from)/2} {
				pr := s.Point(x).Rev[rev]
				d, at := refDecisionAt(revs[rev], axis, x)
				if pr.Decision != d {
					t.Errorf("%s: revision %d at %d: point %v, reference %v", name, rev, x, pr.Decision, d)
					continue
				}
				if d != Invalid && (pr.AvailableBytes != at.avail || pr.LowerBoundBytes != at.lower ||
					pr.RequiredBytes != at.out.rung.required || pr.Children != at.out.children) {
					t.Errorf("%s: revision %d at %d: available %d lower %d required %d children %d; reference %d %d %d %d",
						name, rev, x, pr.AvailableBytes, pr.LowerBoundBytes, pr.RequiredBytes, pr.Children,
						at.avail, at.lower, at.out.rung.required, at.out.children)
				}
				if (d == Invalid) != (pr.Error != "") {
					t.Errorf("%s: revision %d at %d: decision %v with error %q", name, rev, x, d, pr.Error)
				}
			}
		}
		if t.Failed() {
			return flips, invalid
		}
	}
	return flips, invalid
}
