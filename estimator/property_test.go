package estimator

import (
	"fmt"
	"slices"
	"testing"
)

// Properties over many random valid configs (gen_test.go, fixed seed).

func propertyCount() int {
	if testing.Short() {
		return 300
	}
	return 3000
}

// TestLowerBoundProperty: the lower bound never exceeds the required bytes
// of the one-sequence-per-child rung, for either revision.
func TestLowerBoundProperty(t *testing.T) {
	t.Parallel()
	rng := newRand()
	n := propertyCount()
	compared, estimated, refused, tight := 0, 0, 0, 0
	for i := 0; i < n; i++ {
		c := randomConfig(rng)
		r, err := c.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		var cl calc
		var pc piece
		lower := r.lowerBound(&cl, &pc)
		finest := r.sequences()
		base := r.requiredOf(&cl, finest, baselineVariant(), &pc).required
		cand := r.requiredOf(&cl, finest, r.candidateVariant(), &pc).required
		if cl.err != nil {
			continue
		}
		if lower > base || lower > cand {
			t.Fatalf("config %s: lower bound %d > finest rung (baseline %d, candidate %d)", MarshalConfig(c), lower, base, cand)
		}
		compared++
		if lower == min(base, cand) {
			tight++
		}
		if res, err := Estimate(c); err == nil {
			estimated++
			if res.Baseline.LowerBoundBytes != Bytes(lower) || res.Candidate.LowerBoundBytes != Bytes(lower) {
				t.Fatalf("lower bound in the result %d/%d, want %d", res.Baseline.LowerBoundBytes, res.Candidate.LowerBoundBytes, lower)
			}
			// When refused after one sequence per child, the lower bound
			// is at most the reported required bytes.
			for _, o := range []Outcome{res.Baseline, res.Candidate} {
				if o.Decision == Refuse && o.LowerBoundBytes > o.RequiredBytes {
					t.Fatalf("refused with required %d below the lower bound %d", o.RequiredBytes, o.LowerBoundBytes)
				}
				if o.Decision == Refuse {
					refused++
				}
			}
		}
	}
	// Guard against a vacuous pass (as map_terms_test.go does): most
	// configs are compared, some refusals checked, and some bounds meet
	// the finest rung exactly (the switches off), so the comparison is
	// not one a far lower number passes anyway.
	t.Logf("%d configs: %d compared with the finest rung (%d equal to it), %d estimated, %d refusals checked",
		n, compared, tight, estimated, refused)
	if compared < n*9/10 || estimated < n*9/10 || refused < n/10 || tight < n/4 {
		t.Fatalf("%d configs: %d compared, %d estimated, %d refusals, %d tight: the random configs test too little",
			n, compared, estimated, refused, tight)
	}
}

// TestMonotoneInRows: a piece's required bytes, its retained bytes and
// each of its stages are non-decreasing in its rows n, for every variant.
func TestMonotoneInRows(t *testing.T) {
	t.Parallel()
	rng := newRand()
	for i := 0; i < propertyCount()/3; i++ {
		c := randomConfig(rng)
		r, err := c.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		ns := []int64{1, 2, 3, r.N, max(1, r.N-1), r.S, min(r.N, r.S+1), min(r.N, r.C), min(r.N, r.C+1)}
		for j := 0; j < 40; j++ {
			x := between(rng, 1, r.N)
			ns = append(ns, x, min(x+1, r.N))
		}
		slices.Sort(ns)
		ns = slices.Compact(ns)
		for _, v := range []variant{baselineVariant(), r.candidateVariant(), lowerBoundVariant(), {eagerHead: true, fc2Known: true, gdnRelease: true}} {
			var prev piece
			var prevReq int64
			for k, n := range ns {
				var cl calc
				var pc piece
				r.price(&cl, n, v, &pc)
				req := r.withSafety(&cl, pc.retained+pc.ephemeral)
				if cl.err != nil {
					break
				}
				if k > 0 {
					bad := req < prevReq || pc.retained < prev.retained || pc.ephemeral < prev.ephemeral || pc.p < prev.p || pc.t < prev.t
					for s := range pc.stage {
						bad = bad || pc.stage[s] < prev.stage[s]
					}
					if bad {
						t.Fatalf("config %s, variant %+v: n %d -> %d: required %d -> %d, retained %d -> %d, stages %v -> %v",
							MarshalConfig(c), v, prev.n, n, prevReq, req, prev.retained, pc.retained, prev.stage, pc.stage)
					}
				}
				prev, prevReq = pc, req
			}
		}
	}
}

// TestCandidateNeverAdmitsMore: with gdn_early_release off, the other two
// changes only add storage: on every rung the candidate needs at least
// what the baseline needs, so it never admits what the baseline splits or
// refuses, and when both split it uses at least as many children.
func TestCandidateNeverAdmitsMore(t *testing.T) {
	t.Parallel()
	rng := newRand()
	var moved [3][3]int
	for i := 0; i < propertyCount(); i++ {
		c := randomShape(rng)
		c.Changes.GDNEarlyRelease = false
		placeBudget(rng, &c)
		r, err := c.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		var cl calc
		var pc piece
		m := r.sequences()
		ks := []int64{1}
		for k := int64(2); k < m; k *= 2 {
			ks = append(ks, k)
		}
		if m > 1 {
			ks = append(ks, m)
		}
		for _, k := range ks {
			b := r.requiredOf(&cl, k, baselineVariant(), &pc).required
			cd := r.requiredOf(&cl, k, r.candidateVariant(), &pc).required
			if cl.err == nil && cd < b {
				t.Fatalf("config %s: rung %d: candidate %d < baseline %d", MarshalConfig(c), k, cd, b)
			}
		}
		res, err := Estimate(c)
		if err != nil {
			continue
		}
		b, cd := res.Baseline, res.Candidate
		moved[b.Decision][cd.Decision]++
		if cd.Decision < b.Decision {
			t.Fatalf("config %s: candidate %v, baseline %v", MarshalConfig(c), cd.Decision, b.Decision)
		}
		if b.Decision == Split && cd.Decision == Split && cd.Children < b.Children {
			t.Fatalf("config %s: candidate splits into %d, baseline into %d", MarshalConfig(c), cd.Children, b.Children)
		}
	}
	// The candidate must sometimes decide differently, or the test is idle.
	if moved[Admit][Split]+moved[Admit][Refuse]+moved[Split][Refuse] == 0 {
		t.Errorf("the candidate never decided differently: %v", moved)
	}
	t.Logf("baseline (rows) x candidate (columns), admit/split/refuse: %v", moved)
}

// TestEarlyReleaseOnlyFrees: the released GDN form never needs more than
// the baseline's, whatever else the variant holds.
func TestEarlyReleaseOnlyFrees(t *testing.T) {
	t.Parallel()
	rng := newRand()
	for i := 0; i < propertyCount()/3; i++ {
		c := randomConfig(rng)
		r, _ := c.Resolve()
		var cl calc
		var pc piece
		for _, v := range []variant{{}, {eagerHead: true}, {fc2Known: true}, {eagerHead: true, fc2Known: true}} {
			rel := v
			rel.gdnRelease = true
			for _, k := range []int64{1, r.sequences()} {
				a := r.requiredOf(&cl, k, v, &pc).required
				b := r.requiredOf(&cl, k, rel, &pc).required
				if cl.err == nil && b > a {
					t.Fatalf("config %s, rung %d, %+v: released %d > held %d", MarshalConfig(c), k, v, b, a)
				}
			}
		}
	}
}

// TestResultInvariants: whatever the config, each outcome is consistent
// with its decision.
func TestResultInvariants(t *testing.T) {
	t.Parallel()
	rng := newRand()
	for i := 0; i < propertyCount(); i++ {
		c := randomConfig(rng)
		res, err := Estimate(c)
		if err != nil {
			continue
		}
		if msg := outcomeProblems(c, res); msg != "" {
			t.Fatalf("config %s: %s", MarshalConfig(c), msg)
		}
	}
}

// outcomeProblems checks the invariants of docs/model.md §4 that hold for any
// result, without a reference: "" when all hold.
func outcomeProblems(c Config, res Result) string {
	r, err := c.Resolve()
	if err != nil {
		return err.Error()
	}
	m := r.sequences()
	avail := res.AvailableBytes
	if avail < 0 || avail > Bytes(r.Capacity) {
		return fmt.Sprintf("available %d", avail)
	}
	for _, o := range []Outcome{res.Baseline, res.Candidate} {
		if o.MarginBytes != avail-o.RequiredBytes {
			return fmt.Sprintf("margin %d != %d - %d", o.MarginBytes, avail, o.RequiredBytes)
		}
		if o.RequiredBytes < 0 || o.RetainedBytes < 0 || o.EphemeralBytes < 0 || o.LowerBoundBytes < 0 {
			return fmt.Sprintf("negative bytes %+v", o)
		}
		if want := (o.RetainedBytes + o.EphemeralBytes) * Bytes(r.SafetyPercent) / 100; o.RequiredBytes != want &&
			o.RetainedBytes+o.EphemeralBytes < 1<<53 {
			return fmt.Sprintf("required %d, floor((%d + %d) x %d / 100) = %d", o.RequiredBytes, o.RetainedBytes, o.EphemeralBytes, r.SafetyPercent, want)
		}
		var stageMax Bytes
		for _, s := range o.Stages {
			stageMax = max(stageMax, s.Bytes)
			var sum Bytes
			for _, tn := range s.Tensors {
				sum += tn.Bytes
				if tn.Bytes%Bytes(r.Round) != 0 {
					return fmt.Sprintf("tensor %s/%s of %d bytes is not a multiple of %d", s.Name, tn.Name, tn.Bytes, r.Round)
				}
			}
			if sum != s.Bytes {
				return fmt.Sprintf("stage %s is %d, its tensors add up to %d", s.Name, s.Bytes, sum)
			}
			if s.Name == o.DominantStage && s.Bytes != o.EphemeralBytes {
				return fmt.Sprintf("dominant stage %s has %d bytes, the peak is %d", s.Name, s.Bytes, o.EphemeralBytes)
			}
		}
		if stageMax != o.EphemeralBytes {
			return fmt.Sprintf("largest stage %d, ephemeral %d", stageMax, o.EphemeralBytes)
		}
		switch o.Decision {
		case Admit:
			if o.Children != 1 || o.ChildRows != r.N || o.MarginBytes < 0 || o.RetainedBytes != o.ChildRetainedBytes {
				return fmt.Sprintf("admit: %d children of %d rows, margin %d", o.Children, o.ChildRows, o.MarginBytes)
			}
		case Split:
			if o.Children < 2 || o.Children > m || o.MarginBytes < 0 || o.ChildRows >= r.N || o.ChildRows < r.S && m > 1 && o.Children < m {
				return fmt.Sprintf("split: %d children of %d rows (m = %d), margin %d", o.Children, o.ChildRows, m, o.MarginBytes)
			}
			if k := o.Children; k != m && k&(k-1) != 0 {
				return fmt.Sprintf("split into %d children: not a rung of the ladder (m = %d)", k, m)
			}
		case Refuse:
			wantRows := r.N
			if m > 1 {
				wantRows = min(r.S, r.N)
			}
			if o.Children != 0 || o.MarginBytes >= 0 || o.ChildRows != wantRows {
				return fmt.Sprintf("refuse: %d children of %d rows (want %d), margin %d", o.Children, o.ChildRows, wantRows, o.MarginBytes)
			}
		default:
			return fmt.Sprintf("decision %v", o.Decision)
		}
	}
	return ""
}
