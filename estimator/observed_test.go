package estimator

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFitHandWorked: docs/model.md §12's fit on examples worked by hand.
func TestFitHandWorked(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                 string
		rows, residual, peak []int64
		static, perRow       int64
		before, after        float64
	}{
		// One point: r = 0, s = the residual; nothing is left after.
		{"one point", []int64{100}, []int64{50}, []int64{1000}, 50, 0, 5, 0},
		{"one negative point", []int64{7}, []int64{-300}, []int64{600}, -300, 0, 50, 0},
		// Equal rows: s = mean 7/3 = 2.33 -> 2; after: |1-2|, |2-2|, |4-2|.
		{"equal rows", []int64{10, 10, 10}, []int64{1, 2, 4}, []int64{100, 100, 100}, 2, 0, 4, 2},
		// Two points lie on their line: 5 = 2 + 3 x 1, 11 = 2 + 3 x 3.
		{"two points exact", []int64{1, 3}, []int64{5, 11}, []int64{50, 110}, 2, 3, 10, 0},
		// m = 4, Sx = 10, Sy = 20, Sxx = 30, Sxy = 61, d = 20:
		// r = 44/20 = 2.2 -> 2, s = -10/20 = -0.5 -> -1 (half away from
		// zero); after: 2+1-2, 4+1-4, 5+1-6, 9+1-8 = 1, 1, 0, 2.
		{"noisy points", []int64{1, 2, 3, 4}, []int64{2, 4, 5, 9}, []int64{100, 100, 100, 100}, -1, 2, 9, 2},
		// Means that are halves round away from zero.
		{"mean half up", []int64{5, 5}, []int64{1, 2}, []int64{10, 10}, 2, 0, 20, 10},
		{"mean half down", []int64{5, 5}, []int64{-1, -2}, []int64{10, 10}, -2, 0, 20, 10},
		{"mean one half", []int64{5, 5}, []int64{0, 1}, []int64{10, 10}, 1, 0, 10, 10},
		{"mean minus one half", []int64{5, 5}, []int64{-1, 0}, []int64{10, 10}, -1, 0, 10, 10},
		// Rows 1 and 3, residuals 0 and 1: r = 0.5 -> 1, s = -0.5 -> -1;
		// after: 0+1-1 = 0, 1+1-3 = -1.
		{"slope half", []int64{1, 3}, []int64{0, 1}, []int64{10, 10}, -1, 1, 10, 10},
		// The largest percent is of the point whose ratio is largest, not
		// of the largest residual: 10/20 > 30/1000.
		{"largest ratio", []int64{4, 4}, []int64{10, 30}, []int64{20, 1000}, 20, 0, 50, 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := fitResiduals(tt.rows, tt.residual, tt.peak)
			if err != nil {
				t.Fatal(err)
			}
			want := RevisionFit{Bytes(tt.static), Bytes(tt.perRow), tt.before, tt.after}
			if f != want {
				t.Errorf("fit %+v, want %+v", f, want)
			}
		})
	}
}

// TestFitBeyondInt64: sums beyond int64 are exact, and a coefficient
// beyond int64 is an error rather than a wrapped number.
func TestFitBeyondInt64(t *testing.T) {
	t.Parallel()
	const big31 = MaxObservedRows
	// Residuals -2^62 and 2^49 at rows 2^31-1 and 2^31-2: Sxy is about
	// 2^93. The line through them: r = -(2^49 + 2^62), s = 2^49 - r x
	// (2^31-2), beyond int64.
	if _, err := fitResiduals([]int64{big31, big31 - 1}, []int64{-1 << 62, 1 << 49}, []int64{1, 1 << 50}); err == nil {
		t.Error("a static beyond int64 gave no error")
	}
	// The same residuals at one row: s = their mean, exactly.
	f, err := fitResiduals([]int64{big31, big31}, []int64{-1 << 62, -1<<62 + 3}, []int64{1 << 50, 1 << 50})
	if err != nil {
		t.Fatal(err)
	}
	// The mean -2^62 + 1.5 is -(2^62 - 1.5): away from zero, -2^62 + 1;
	// what is left after is -1 and 2.
	if f.StaticBytes != -1<<62+1 || f.PerRowBytes != 0 {
		t.Errorf("fit %+v, want static %d", f, int64(-1<<62+1))
	}
	if f.ErrorPercentAfter != 200.0/(1<<50) {
		t.Errorf("after %v, want %v", f.ErrorPercentAfter, 200.0/(1<<50))
	}
}

// observedConfig is a small config whose whole request is admitted, so
// that a point at rows = N can be checked against the estimate itself.
func observedConfig() Config {
	c := Default()
	c.Request.Rows = 4096
	c.Budget.InUseBytes = 3 << 30
	c.Observed = []ObservedPoint{
		{Rows: 4096, PeakBytes: 20 << 30, Label: "whole"},
		{Rows: 1000, PeakBytes: 7 << 30, Label: "child"},
		{Rows: 9000, PeakBytes: 1, Label: "more rows than the request"},
	}
	return c
}

// TestObservedPredictsThePiece: a point at the request's own rows
// predicts in_use + retained + ephemeral of the whole request, the bytes
// the estimate reports before safety.
func TestObservedPredictsThePiece(t *testing.T) {
	t.Parallel()
	c := observedConfig()
	res, err := Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Observed) != 3 || res.Fit == nil {
		t.Fatalf("observed %d points, fit %v", len(res.Observed), res.Fit)
	}
	for i, o := range []Outcome{res.Baseline, res.Candidate} {
		if o.Decision != Admit {
			t.Fatalf("revision %d: %v, want admit", i, o.Decision)
		}
		want := c.Budget.InUseBytes + int64(o.RetainedBytes+o.EphemeralBytes)
		got := [2]Prediction{res.Observed[0].Baseline, res.Observed[0].Candidate}[i]
		if int64(got.PredictedBytes) != want || int64(got.ResidualBytes) != 20<<30-want {
			t.Errorf("revision %d: %+v, want predicted %d", i, got, want)
		}
	}
	last := res.Observed[2]
	if last.Label != "more rows than the request" || last.Candidate.ResidualBytes != 1-last.Candidate.PredictedBytes {
		t.Errorf("point 2: %+v", last)
	}
	// Without points the result is what it was: no observed, no fit.
	c.Observed = nil
	plain, _ := Estimate(c)
	data, _ := json.Marshal(plain)
	if strings.Contains(string(data), "observed") || strings.Contains(string(data), `"fit"`) {
		t.Errorf("a config without points printed %s", data)
	}
}

// refObserve is the reference's docs/model.md §12: the reference model's pieces
// (ref_test.go) and a least-squares line written from its centred form,
// r = sum (x - mean x)(y - mean y) / sum (x - mean x)^2, s = mean y - r x
// mean x, in rationals.
func refObserve(c Config) ([]ObservedResult, *Fit, bool) {
	m := refFrom(c)
	return refObserveRevs(c, [2]refModel{m, m}, [2]refVariant{refBaseline, m.candidate()})
}

// refObserveRevs is refObserve with each revision's own model and
// variant (its own variables, terms and in-use bytes).
func refObserveRevs(c Config, models [2]refModel, variants [2]refVariant) ([]ObservedResult, *Fit, bool) {
	out := make([]ObservedResult, len(c.Observed))
	var fit Fit
	for k, v := range variants {
		m := &models[k]
		rp := newRefPricer(m)
		xs := make([]*big.Rat, len(c.Observed))
		ys := make([]*big.Rat, len(c.Observed))
		mx, my := new(big.Rat), new(big.Rat)
		for i, pt := range c.Observed {
			pc := rp.piece(pt.Rows, v)
			pred := rp.a.add(rp.a.add(m.InUse, pc.ret), pc.ephemeral)
			p := Prediction{Bytes(pred), Bytes(pt.PeakBytes - pred)}
			out[i].Rows, out[i].PeakBytes, out[i].Label = pt.Rows, Bytes(pt.PeakBytes), pt.Label
			if k == 0 {
				out[i].Baseline = p
			} else {
				out[i].Candidate = p
			}
			xs[i] = new(big.Rat).SetInt64(pt.Rows)
			ys[i] = new(big.Rat).SetInt64(pt.PeakBytes - pred)
			mx.Add(mx, xs[i])
			my.Add(my, ys[i])
		}
		if rp.a.overflow {
			return nil, nil, false
		}
		cnt := new(big.Rat).SetInt64(int64(len(xs)))
		mx.Quo(mx, cnt)
		my.Quo(my, cnt)
		num, den := new(big.Rat), new(big.Rat)
		for i := range xs {
			dx := new(big.Rat).Sub(xs[i], mx)
			dy := new(big.Rat).Sub(ys[i], my)
			num.Add(num, dx.Mul(dx, dy))
			dx2 := new(big.Rat).Sub(xs[i], mx)
			den.Add(den, dx2.Mul(dx2, dx2))
		}
		r := new(big.Rat)
		if den.Sign() != 0 {
			r.Quo(num, den)
		}
		s := new(big.Rat).Sub(my, new(big.Rat).Mul(r, mx))
		sr, rr := refRound(s), refRound(r)
		before, after := new(big.Rat), new(big.Rat)
		for i := range xs {
			e := new(big.Rat).Abs(ys[i])
			e.Mul(e, big.NewRat(100, c.Observed[i].PeakBytes))
			if e.Cmp(before) > 0 {
				before = e
			}
			a := new(big.Rat).Sub(ys[i], new(big.Rat).SetInt(sr))
			a.Sub(a, new(big.Rat).Mul(new(big.Rat).SetInt(rr), xs[i]))
			a.Abs(a).Mul(a, big.NewRat(100, c.Observed[i].PeakBytes))
			if a.Cmp(after) > 0 {
				after = a
			}
		}
		bf, _ := before.Float64()
		af, _ := after.Float64()
		f := RevisionFit{Bytes(sr.Int64()), Bytes(rr.Int64()), bf, af}
		if k == 0 {
			fit.Baseline = f
		} else {
			fit.Candidate = f
		}
	}
	return out, &fit, true
}

// refRound is floor(|q| + 1/2) with q's sign: halves away from zero.
func refRound(q *big.Rat) *big.Int {
	a := new(big.Rat).Abs(q)
	a.Add(a, big.NewRat(1, 2))
	z := new(big.Int).Quo(a.Num(), a.Denom())
	if q.Sign() < 0 {
		z.Neg(z)
	}
	return z
}

// randomObserved gives c one to eight points: some at the request's rows
// or a child's, some beyond N, some sharing rows; peaks near the
// candidate's prediction or anywhere in range.
func randomObserved(rng *rand.Rand, c *Config) {
	pts := make([]ObservedPoint, 1+rng.IntN(8))
	n := c.Request.Rows
	for i := range pts {
		var rows int64
		switch rng.IntN(5) {
		case 0:
			rows = n
		case 1:
			rows = between(rng, 1, n)
		case 2:
			rows = between(rng, 1, min(2*n, MaxObservedRows))
		case 3:
			rows = between(rng, 1, MaxObservedRows)
		default:
			rows = pts[rng.IntN(i+1)].Rows // maybe the same as before
			if rows == 0 {
				rows = n
			}
		}
		pts[i] = ObservedPoint{Rows: rows, PeakBytes: between(rng, 1, MaxObservedPeakBytes), Label: fmt.Sprint("p", i)}
	}
	if rng.IntN(3) == 0 { // every point at one row count
		for i := range pts {
			pts[i].Rows = pts[0].Rows
		}
	}
	c.Observed = pts
	if pr, err := NewPredictor(*c); err == nil && rng.IntN(2) == 0 {
		for i := range pts { // near the prediction: small residuals
			if peaks, err := pr.Peaks(pts[i].Rows); err == nil && peaks[1] < MaxObservedPeakBytes/2 {
				pts[i].PeakBytes = max(1, peaks[1]+between(rng, -peaks[1]/10, peaks[1]/10))
			}
		}
	}
}

// TestObservedReference: on random configs with 1 to 8 points, the
// estimate's observed points and fits equal the reference's, and a
// prediction beyond int64 is an error exactly when the reference
// overflows.
func TestObservedReference(t *testing.T) {
	t.Parallel()
	rng := newRand()
	checked, overflows := 0, 0
	for i := 0; i < propertyCount(); i++ {
		c := randomConfig(rng)
		randomObserved(rng, &c)
		wantObs, wantFit, ok := refObserve(c)
		res, err := Estimate(c)
		plain := c
		plain.Observed = nil
		_, perr := Estimate(plain)
		if perr != nil {
			continue // the request itself overflows: nothing to compare
		}
		if !ok {
			if err == nil || !strings.HasPrefix(err.Error(), "observed[") {
				t.Fatalf("config %d: the reference overflows; estimate gave %v", i, err)
			}
			overflows++
			continue
		}
		if err != nil {
			t.Fatalf("config %d: %v\n%s", i, err, MarshalConfig(c))
		}
		sameObserved(t, i, c, res, wantObs, wantFit)
		checked++
	}
	t.Logf("%d configs compared, %d overflow as the reference does", checked, overflows)
	if checked < propertyCount()/2 {
		t.Errorf("only %d of %d configs compared", checked, propertyCount())
	}
}

// TestObservedOverflowNamesThePoint: a piece too big for int64 is an
// error naming the point, not a wrapped prediction.
func TestObservedOverflowNamesThePoint(t *testing.T) {
	t.Parallel()
	c := Default()
	c.Request.Rows = 1000
	c.Budget.RetainedPerRowBytes = Int64(1 << 50)
	c.Budget.CapacityBytes = 1 << 50
	c.Observed = []ObservedPoint{{Rows: 10, PeakBytes: 1}, {Rows: MaxObservedRows, PeakBytes: 1}}
	_, err := Estimate(c)
	if err == nil || !strings.HasPrefix(err.Error(), "observed[1].rows: a piece of 2,147,483,647 rows: ") {
		t.Fatalf("got %v", err)
	}
	// The predictor says so every time, and still prices the next piece.
	pr, err := NewPredictor(c)
	if err != nil {
		t.Fatal(err)
	}
	small, err := pr.Peaks(10)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if peaks, err := pr.Peaks(MaxObservedRows); err == nil {
			t.Errorf("try %d: %v, want an overflow", i, peaks)
		}
		if again, err := pr.Peaks(10); err != nil || again != small {
			t.Errorf("try %d: after an overflow, %v %v, want %v", i, again, err, small)
		}
	}
}

// BenchmarkEstimateObserved: the estimate of the default config with the
// most points allowed, against BenchmarkEstimate without.
func BenchmarkEstimateObserved(b *testing.B) {
	c := Default()
	for i := range MaxObserved {
		c.Observed = append(c.Observed, ObservedPoint{Rows: int64(1000 + 997*i), PeakBytes: int64(80+i) << 30})
	}
	for b.Loop() {
		if _, err := Estimate(c); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPredictorPeaks: the predictor gives the points' predictions and
// refuses rows out of range.
func TestPredictorPeaks(t *testing.T) {
	t.Parallel()
	c := observedConfig()
	res, err := Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := NewPredictor(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Observed {
		peaks, err := pr.Peaks(o.Rows)
		if err != nil || peaks != [2]int64{int64(o.Baseline.PredictedBytes), int64(o.Candidate.PredictedBytes)} {
			t.Errorf("rows %d: %v %v, want %+v", o.Rows, peaks, err, o)
		}
	}
	for _, n := range []int64{0, -1, MaxObservedRows + 1, math.MinInt64} {
		if _, err := pr.Peaks(n); err == nil {
			t.Errorf("Peaks(%d) gave no error", n)
		}
	}
}

// sameObserved fails the test when config i's estimate does not carry
// exactly the reference's observed points and fit.
func sameObserved(t *testing.T, i int, c Config, res Result, wantObs []ObservedResult, wantFit *Fit) {
	t.Helper()
	type observed struct {
		O []ObservedResult
		F *Fit
	}
	got, _ := json.Marshal(observed{res.Observed, res.Fit})
	want, _ := json.Marshal(observed{wantObs, wantFit})
	if string(got) != string(want) {
		t.Fatalf("config %d:\n got %s\nwant %s\n%s", i, got, want, MarshalConfig(c))
	}
}
