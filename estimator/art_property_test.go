package estimator

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// Random configs under the art profile, with the budget placed near one
// of their own art plans, and the properties of docs/model.md §13.5
// checked against a reference written out here: every child priced one by
// one (artPrice, whose figures art_figures_test.go checks), cut by ART's
// loop (refCuts), combined by the sum rule, and the ladder walked in order.

func randomArtConfig(rng *rand.Rand) Config {
	c := randomShape(rng)
	c.Profile = ProfileArt
	c.FC2.DtypeBytes = 2
	c.Terms = nil
	if rng.IntN(3) == 0 { // the widths ART prices only when O = H
		c.FC2.OutputWidth = nil
	}
	m := &c.Model
	m.SharedExpertIntermediateSize = Int64(oneOf(rng, 0, 512, between(rng, 0, 4096)))
	m.LinearConvKernelDim = Int64(oneOf(rng, 4, between(rng, 1, 8)))
	m.IntermediateSize = Int64(oneOf(rng, 0, 0, 8192, between(rng, 0, 30000)))
	if rng.IntN(3) == 0 {
		m.LinearNumKeyHeads = oneOf(rng, 16, 8, 4) // Hv mod Hk = 0 more often
		m.LinearNumValueHeads = 32
	}
	b := func() *bool {
		v := rng.IntN(4) != 0
		return &v
	}
	c.FC2.FusedFC1, c.FC2.SharedExpertGate, c.Head.Stock, c.Art.CheckpointFloor = b(), b(), b(), b()
	c.Head.PaddedVocabMultiple = Int64(oneOf(rng, 128, 1, 64, between(rng, 1, 1<<16)))
	c.Art.AdapterGradientBytesPerLayer = Int64(oneOf(rng, 0, 0, 1<<20, between(rng, 0, 1<<32)))
	c.Art.AdapterGradientOutsideBytes = Int64(oneOf(rng, 0, 0, between(rng, 0, 1<<32)))
	c.Art.GDNOutProjLoRARank = Int64(oneOf(rng, 0, 1, 8, between(rng, 0, 1<<16)))
	if rng.IntN(3) == 0 {
		pm := &ProfileMemory{BytesPerToken: between(rng, 0, 500_000), PackedTokens: between(rng, 1, 2*c.Request.Rows)}
		if rng.IntN(2) == 0 {
			pm.RetainedComputeBytesPerToken = Int64(between(rng, 0, 400_000))
		}
		if rng.IntN(2) == 0 {
			pm.WarmBytesPerToken, pm.WarmPackedTokens = Int64(between(rng, 0, 500_000)), Int64(between(rng, 1, c.Request.Rows))
		}
		c.ProfileMemory = pm
	}
	placeArtBudget(rng, &c)
	return c
}

// placeArtBudget sets the budget (no reserve, nothing in use) at or near
// one of c's art plans: the whole request, a rung, the lower bound. A
// config that overflows keeps its budget.
func placeArtBudget(rng *rand.Rand, c *Config) {
	c.Budget.CapacityBytes, c.Budget.InUseBytes, c.Budget.ReservePermille = 1<<50, 0, 0
	r, err := c.Resolve()
	if err != nil {
		return
	}
	e := newEvaluator(&r)
	v := []variant{baselineVariant(), r.candidateVariant()}[rng.IntN(2)]
	m := r.sequences()
	targets := []int64{e.artRung(1, v, false).required, e.artLowerBound(v), e.artRung(m, v, false).required,
		e.artRung(between(rng, 2, max(2, m)), v, false).required}
	if e.c.err != nil {
		return
	}
	if pm := c.ProfileMemory; pm != nil && m >= 2 && rng.IntN(2) == 0 {
		var buf [maxFloorChildren]int64
		if rows, ok := r.artCutRows(min(m, 2), buf[:]); ok { // a floor the first rung matches
			pm.SplitFloors = []SplitFloor{{ChildRows: append([]int64(nil), rows...), ObservedBytes: between(rng, 0, targets[0])}}
		}
	}
	target := targets[rng.IntN(len(targets))]
	switch rng.IntN(3) {
	case 0:
		target += between(rng, -1, 1)
	case 1:
		target = target / 100 * between(rng, 80, 120)
	}
	c.Budget.CapacityBytes = min(max(target, 1), 1<<50)
}

// refArtRung prices the children of a rung one by one, each a piece of
// the sequences refCuts gives it, and combines them by §13.5's sum rule.
func refArtRung(e *evaluator, k int64, v variant, lower bool) (req, largest int64) {
	r, c := e.r, &e.c
	m := r.sequences()
	masses := make([]int64, m)
	for j := range masses {
		masses[j] = r.S
	}
	masses[m-1] = r.N - (m-1)*r.S
	k = max(1, k)
	if k > m {
		k = m
	}
	chunks := refCuts(masses, int(k))
	var sumRho, maxExtra, sumKeep, maxKws, maxKad int64
	anyIG := false
	rows := make([]int64, len(chunks))
	koef := r.artKoef(c, v)
	for i, ch := range chunks {
		p := artPiece{q: int64(len(ch)), s: r.S, last: ch[len(ch)-1]}
		var ac artCost
		r.artPrice(c, &koef, p, lower, nil, &ac)
		sumRho += ac.rho
		maxExtra = max(maxExtra, ac.q-ac.rho)
		sumKeep += ac.kret + ac.kig
		maxKws, maxKad = max(maxKws, ac.kws), max(maxKad, ac.kad)
		anyIG = anyIG || ac.kig > 0
		rows[i] = p.rows()
		largest = max(largest, rows[i])
	}
	req = sumRho + maxExtra
	if anyIG {
		req = max(req, r.withSafety(c, sumKeep+maxKws+maxKad))
	}
	if !lower {
		req = refSplitFloor(r, c, rows, req)
	}
	return req, largest
}

// refSplitFloor is the larger of req and every measured split floor (with
// the safety margin) whose children have exactly these rows; a single
// piece has no split floor. Both reference rungs read the floors so.
func refSplitFloor(r *Resolved, c *calc, rows []int64, req int64) int64 {
	if pm := r.art.mem; pm != nil && len(rows) >= 2 {
		for _, f := range pm.SplitFloors {
			if len(f.ChildRows) == len(rows) {
				same := true
				for i := range rows {
					same = same && rows[i] == f.ChildRows[i]
				}
				if same {
					req = max(req, r.withSafety(c, f.ObservedBytes))
				}
			}
		}
	}
	return req
}

// refArtDecide walks §13.5's decision with the reference rungs.
func refArtDecide(e *evaluator, v variant) (Decision, int64, int64, artRefusal) {
	r := e.r
	avail := r.available()
	whole, _ := refArtRung(e, 1, v, false)
	if whole <= avail {
		return Admit, 1, whole, artNotRefused
	}
	m := r.sequences()
	if m == 1 {
		return Refuse, 0, whole, artSingle
	}
	if r.EP > 1 {
		return Refuse, 0, whole, artExpertParallel
	}
	var req int64
	for k := int64(2); ; k = min(m, 2*k) {
		req, _ = refArtRung(e, k, v, false)
		if req <= avail {
			return Split, min(k, m), req, artNotRefused
		}
		if k >= m {
			return Refuse, 0, req, artLadder
		}
	}
}

func TestArtProperties(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(0xa47, 13))
	n := propertyCount() / 3
	decisions := map[Decision]int{}
	for i := 0; i < n; i++ {
		c := randomArtConfig(rng)
		if c.Request.Rows/c.Request.SequenceRows > 400 {
			continue
		}
		r, err := c.Resolve()
		if err != nil {
			t.Fatalf("config %d: %v", i, err)
		}
		res, err := Estimate(c)
		e := newEvaluator(&r)
		ref := newEvaluator(&r)
		if err != nil {
			refArtRung(ref, r.sequences(), r.candidateVariant(), false)
			if ref.c.err == nil {
				t.Fatalf("config %d: %v, the reference prices it\n%s", i, err, MarshalConfig(c))
			}
			continue
		}
		for rev, v := range []variant{baselineVariant(), r.candidateVariant()} {
			out := []Outcome{res.Baseline, res.Candidate}[rev]
			m := r.sequences()
			finest, _ := refArtRung(ref, m, v, false)
			lower := e.artLowerBound(v)
			if lower > finest {
				t.Errorf("config %d rev %d: lower bound %d above the finest rung %d", i, rev, lower, finest)
			}
			if int64(out.LowerBoundBytes) != lower {
				t.Errorf("config %d rev %d: lower_bound_bytes %d, want %d", i, rev, out.LowerBoundBytes, lower)
			}
			if got := e.artRung(m, v, false).required; got != finest {
				t.Errorf("config %d rev %d: finest rung %d, sum rule %d", i, rev, got, finest)
			}
			k := between(rng, 1, m+2)
			want, largest := refArtRung(ref, k, v, false)
			if got := e.artRung(k, v, false); got.required != want || got.largest != largest {
				t.Errorf("config %d rev %d: rung %d = %d (largest %d), reference %d (%d)", i, rev, k, got.required, got.largest, want, largest)
			}
			// artDecide's shortcut: no rung of the ladder is priced below
			// artLadderBound.
			bound := e.artLadderBound(v, e.artRung(1, v, false))
			for k := int64(2); m > 1; k = min(m, 2*k) {
				if req, _ := refArtRung(ref, k, v, false); req < bound {
					t.Errorf("config %d rev %d: rung %d priced %d, below the ladder bound %d\n%s", i, rev, k, req, bound, MarshalConfig(c))
				}
				if k >= m {
					break
				}
			}
			d, kids, req, why := refArtDecide(ref, v)
			decisions[d]++
			if out.Decision != d || out.Children != kids || int64(out.RequiredBytes) != req {
				t.Errorf("config %d rev %d: %v %d children %d bytes, reference %v %d %d\n%s", i, rev, out.Decision, out.Children, out.RequiredBytes, d, kids, req, MarshalConfig(c))
			}
			if d == Refuse && out.Reason != artReasons[why] {
				t.Errorf("config %d rev %d: reason %q", i, rev, out.Reason)
			}
			if out.MarginBytes != res.AvailableBytes-out.RequiredBytes {
				t.Errorf("config %d rev %d: margin %d", i, rev, out.MarginBytes)
			}
		}
		if ref.c.err != nil {
			t.Fatalf("config %d: the reference overflows where Estimate does not: %v", i, ref.c.err)
		}
	}
	if decisions[Admit] == 0 || decisions[Split] == 0 || decisions[Refuse] == 0 {
		t.Errorf("decisions met: %v; want all three", decisions)
	}
	t.Logf("decisions: %v", decisions)
}

// TestArtSweepMatchesEstimate: along every axis a sweep's points (which
// reuse pieces and paths between points) decide as Estimate does at the
// same x, and every flip is a change of Estimate's decision.
func TestArtSweepMatchesEstimate(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(0xa47, 24))
	for i := 0; i < propertyCount()/30; i++ {
		c := randomArtConfig(rng)
		if i%3 == 0 {
			c.Baseline = &Baseline{Changes: Changes{HeadEagerWorkspace: true}, Overrides: Overrides{"profile": {Text: ProfileSeeds}}}
		}
		if _, err := c.ResolveRevisions(); err != nil {
			continue
		}
		c.Request.ProjectedRows, c.Request.TargetRows = nil, nil
		if rng.IntN(2) == 0 {
			c.Request.TargetRows = Int64(between(rng, 0, c.Request.Rows))
		}
		c = explicit(t, c)
		sweepBesideEstimate(t, rng, c, 6, func(axis string, x int64, pt Point, cx Config, res Result, err error) {
			for rev, out := range []*Outcome{&res.Baseline, &res.Candidate} {
				if err != nil {
					if pt.Rev[rev].Decision != Invalid && (c.Baseline == nil || rev == 1) {
						t.Errorf("%s = %d: sweep %v, Estimate %v", axis, x, pt.Rev[rev].Decision, err)
					}
					continue
				}
				if pt.Rev[rev].Decision != out.Decision || pt.Rev[rev].RequiredBytes != int64(out.RequiredBytes) || pt.Rev[rev].LowerBoundBytes != int64(out.LowerBoundBytes) {
					t.Errorf("%s = %d rev %d: sweep %v %d (lb %d), Estimate %v %d (lb %d)\n%s", axis, x, rev, pt.Rev[rev].Decision, pt.Rev[rev].RequiredBytes, pt.Rev[rev].LowerBoundBytes,
						out.Decision, out.RequiredBytes, out.LowerBoundBytes, MarshalConfig(cx))
				}
			}
		})
	}
}

// TestArtExtremesNeverPanic: configs anywhere in the fields' ranges,
// extremes included, are priced under art or refused with an error naming
// what overflows; nothing panics, and a result's bytes are never negative.
func TestArtExtremesNeverPanic(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(0xa47, 99))
	pick := func(f *Field) int64 {
		switch rng.IntN(4) {
		case 0:
			return f.Min
		case 1:
			return f.Max
		}
		return between(rng, f.Min, f.Max)
	}
	for i := 0; i < propertyCount(); i++ {
		c := artDefault()
		for _, f := range append(Fields(), ArtFields()...) {
			if rng.IntN(3) != 0 || f.Path == "fc2.dtype_bytes" || f.Path == "budget.in_use_bytes" {
				continue
			}
			if f.Kind == BoolField {
				f.SetBool(&c, rng.IntN(2) == 0)
				continue
			}
			f.SetInt(&c, pick(f))
		}
		c.Request.ProjectedRows, c.Request.TargetRows = nil, nil
		if rng.IntN(2) == 0 {
			c.Request.TargetRows = Int64(between(rng, 0, c.Request.Rows))
		}
		if rng.IntN(3) == 0 {
			c.ProfileMemory = &ProfileMemory{BytesPerToken: oneOf(rng, 0, 1<<40), PackedTokens: oneOf(rng, 1, maxRows),
				RetainedComputeBytesPerToken: Int64(oneOf(rng, 0, 1<<40)), WarmBytesPerToken: Int64(1 << 40), WarmPackedTokens: Int64(maxRows)}
		}
		if _, err := c.Resolve(); err != nil {
			continue
		}
		res, err := Estimate(c)
		if err != nil {
			if !strings.Contains(err.Error(), "overflows") {
				t.Errorf("config %d: %v", i, err)
			}
			continue
		}
		for _, o := range []Outcome{res.Baseline, res.Candidate} {
			if o.RequiredBytes < 0 || o.LowerBoundBytes < 0 || o.RetainedBytes < 0 || o.EphemeralBytes < 0 {
				t.Errorf("config %d: negative bytes %+v\n%s", i, o, MarshalConfig(c))
			}
		}
		if _, err := Sweep(c, "rows", 1, 1<<31-1, 16); err != nil {
			t.Errorf("config %d: sweep %v", i, err)
		}
	}
}
