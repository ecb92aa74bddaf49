package estimator

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The views of sections 5, 9, 10 and 12 on top of the art profile: sweep
// flips, map columns, replay lines and observed predictions agree with
// Estimate at the same points.

func artDecisions(t *testing.T, c Config) [2]Decision {
	t.Helper()
	res, err := Estimate(c)
	if err != nil {
		return [2]Decision{Invalid, Invalid}
	}
	return [2]Decision{res.Baseline.Decision, res.Candidate.Decision}
}

func TestArtSweepFlips(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(0xa47, 5))
	flips, sweeps := 0, propertyCount()/30
	for i := 0; i < sweeps; i++ {
		c := explicit(t, randomArtConfig(rng))
		axis, from, to := randomAxisRange(rng, c)
		res, err := Sweep(c, axis, from, to, 64)
		if err != nil {
			t.Fatal(err)
		}
		for rev, fl := range [][]Flip{res.Baseline.Flips, res.Candidate.Flips} {
			for _, f := range fl {
				flips++
				a, b := c, c
				setAxis(&a, axis, f.Last)
				setAxis(&b, axis, f.First)
				if f.First != f.Last+1 || artDecisions(t, a)[rev] != f.FromDecision || artDecisions(t, b)[rev] != f.ToDecision {
					t.Errorf("%s flip %+v of rev %d not confirmed by Estimate\n%s", axis, f, rev, MarshalConfig(c))
				}
			}
		}
	}
	if flips < sweeps/5 { // 20 of 100 sweeps; 2 of the 10 of -short
		t.Errorf("%d flips met in %d sweeps; want at least %d", flips, sweeps, sweeps/5)
	}
}

func TestArtDefaultViews(t *testing.T) {
	t.Parallel()
	c := artDefault()
	c.Request.SequenceRows = 16853
	m, err := Map(c, MapAxis{Axis: "rows", From: 1000, To: 400000}, MapAxis{Axis: "capacity_bytes", From: 10e9, To: 150e9}, 16)
	if err != nil {
		t.Fatal(err)
	}
	for _, col := range m.Columns {
		for rev, mr := range []MapRevision{col.Baseline, col.Candidate} {
			for _, f := range mr.Flips {
				for _, y := range []int64{f.Last, f.First} {
					cc := explicit(t, c)
					setAxis(&cc, "rows", col.X)
					setAxis(&cc, "capacity_bytes", y)
					want := f.FromDecision
					if y == f.First {
						want = f.ToDecision
					}
					if got := artDecisions(t, cc)[rev]; got != want {
						t.Errorf("map column %d, capacity %d, rev %d: %v, Estimate %v", col.X, y, rev, want, got)
					}
				}
			}
		}
	}
	csv := "rows,sequence_rows,count\n64902,,2\n200000,,1\n4096,4096,5\n300000,300000,1\n"
	res, err := Replay(c, strings.NewReader(csv), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 9 || len(res.Transitions) == 0 {
		t.Errorf("replay: %+v", res)
	}
	var fromEstimate int64
	for _, line := range []struct{ rows, seq, count int64 }{{64902, 16853, 2}, {200000, 16853, 1}, {4096, 4096, 5}, {300000, 300000, 1}} {
		cc := explicit(t, c)
		setAxis(&cc, "rows", line.rows)
		cc.Request.SequenceRows = line.seq
		if d := artDecisions(t, cc); d[0] != d[1] {
			fromEstimate += line.count
		}
	}
	if res.ChangedRequests != fromEstimate {
		t.Errorf("replay changed %d requests, Estimate line by line %d", res.ChangedRequests, fromEstimate)
	}
	// Observed peaks: ART's prediction before the safety factor (§13.8).
	c.Observed = []ObservedPoint{{Rows: 64902, PeakBytes: 50e9, Label: "whole"}, {Rows: 33706, PeakBytes: 30e9}}
	est, err := Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	r := mustResolve(t, c)
	e := newEvaluator(&r)
	var calc calc
	k := r.artKoef(&calc, r.candidateVariant())
	var ac artCost
	r.artPrice(&calc, &k, artPiece{q: 2, s: 16853, last: 16853}, false, nil, &ac)
	want := ac.out + max(ac.a, ac.m, ac.z, ac.xb)
	if got := int64(est.Observed[1].Candidate.PredictedBytes); got != want || e.artPredict(33706, r.candidateVariant()) != want {
		t.Errorf("predicted %d, want %d", got, want)
	}
	if r.withSafety(&calc, want) != ac.q {
		t.Errorf("safe(prediction) %d is not the piece's price %d", r.withSafety(&calc, want), ac.q)
	}
}
