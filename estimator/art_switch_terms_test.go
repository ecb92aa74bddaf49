package estimator

import (
	"encoding/json"
	"reflect"
	"testing"
)

// Each switch under art, written as its terms (SwitchTerms) on a revision
// without it, prices every config exactly as the switch does: the
// candidate's estimate (every figure, every stage's bytes) and its points
// and flips along every axis.

// switchPair is c with the switch on alone, and with every switch off and
// the switch's terms.
func switchPair(t *testing.T, c Config, change string) (on, terms Config) {
	t.Helper()
	on, terms = c, c
	on.Changes = Changes{}
	switch change {
	case "head_eager_workspace":
		on.Changes.HeadEagerWorkspace = true
	case "fc2_known_storage":
		on.Changes.FC2KnownStorage = true
	case "gdn_early_release":
		on.Changes.GDNEarlyRelease = true
	}
	terms.Changes = Changes{}
	ts, err := SwitchTerms(c, change)
	if err != nil {
		t.Fatalf("SwitchTerms(%s): %v", change, err)
	}
	terms.Terms = ts
	return on, terms
}

// withoutTensors is an outcome's JSON less its tensor lists, which name
// the terms where the switch names ART's own tensors.
func withoutTensors(t *testing.T, o Outcome) string {
	t.Helper()
	o.Retained.Tensors = nil
	st := make([]StageBytes, len(o.Stages))
	for i, s := range o.Stages {
		st[i] = StageBytes{Name: s.Name, Bytes: s.Bytes}
	}
	o.Stages = st
	data, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

var artSwitches = []string{"head_eager_workspace", "fc2_known_storage", "gdn_early_release"}

func TestSwitchTermsEstimateExactly(t *testing.T) {
	rng := newRand()
	n := 400
	if testing.Short() {
		n = 60
	}
	acting := map[string]int{}
	for i := 0; i < n; i++ {
		c := randomArtConfig(rng)
		for _, ch := range artSwitches {
			on, terms := switchPair(t, c, ch)
			a, errA := Estimate(on)
			b, errB := Estimate(terms)
			if (errA == nil) != (errB == nil) {
				t.Fatalf("config %d %s: switch error %v, terms error %v\n%s", i, ch, errA, errB, MarshalConfig(terms))
			}
			if errA != nil {
				continue
			}
			if ga, gb := withoutTensors(t, a.Candidate), withoutTensors(t, b.Candidate); ga != gb {
				t.Fatalf("config %d %s:\nswitch %s\nterms  %s\n%s", i, ch, ga, gb, MarshalConfig(terms))
			}
			off := on
			off.Changes = Changes{}
			if o, err := Estimate(off); err == nil && withoutTensors(t, o.Candidate) != withoutTensors(t, a.Candidate) {
				acting[ch]++
			}
		}
	}
	// The test means something only where the switch changes the price.
	for _, ch := range artSwitches[:2] {
		if acting[ch] < n/4 {
			t.Errorf("%s changes the candidate in %d of %d configs; the random configs miss it", ch, acting[ch], n)
		}
	}
	t.Logf("configs where the switch acts: %v of %d", acting, n)
}

func TestSwitchTermsSweepExactly(t *testing.T) {
	rng := newRand()
	n := 300
	if testing.Short() {
		n = 30
	}
	for i := 0; i < n; i++ {
		c := randomArtConfig(rng)
		for _, ch := range artSwitches[:2] {
			on, terms := switchPair(t, c, ch)
			for _, axis := range Axes() {
				f, _ := FieldByKey(axis)
				v, ok := f.Int(&c)
				if !ok {
					v = 1000
				}
				from, to := max(f.Min, v/between(rng, 1, 8)), min(f.Max, v*between(rng, 1, 8)+between(rng, 0, 64))
				sa, errA := NewSweeper(on, axis)
				sb, errB := NewSweeper(terms, axis)
				if (errA == nil) != (errB == nil) {
					t.Fatalf("config %d %s %s: sweeper errors %v, %v", i, ch, axis, errA, errB)
				}
				if errA != nil {
					continue
				}
				xs := Grid(from, to, 9)
				pa, pb := sa.AppendPoints(nil, xs), sb.AppendPoints(nil, xs)
				for j := range pa {
					a, b := pa[j], pb[j]
					if a.Error != "" || b.Error != "" {
						if (a.Error == "") != (b.Error == "") {
							t.Fatalf("config %d %s %s at %d: errors %q, %q", i, ch, axis, a.X, a.Error, b.Error)
						}
						continue
					}
					if a.LowerBoundBytes != b.LowerBoundBytes || !reflect.DeepEqual(a.Rev[1], b.Rev[1]) {
						t.Fatalf("config %d %s %s at %d:\nswitch %+v %d\nterms  %+v %d\n%s", i, ch, axis, a.X, a.Rev[1], a.LowerBoundBytes, b.Rev[1], b.LowerBoundBytes, MarshalConfig(terms))
					}
				}
				fa, fb := sa.FlipsFromPoints(nil, pa, CandidateRev), sb.FlipsFromPoints(nil, pb, CandidateRev)
				if !reflect.DeepEqual(fa, fb) {
					t.Fatalf("config %d %s %s: flips\nswitch %v\nterms  %v", i, ch, axis, fa, fb)
				}
			}
		}
	}
}
