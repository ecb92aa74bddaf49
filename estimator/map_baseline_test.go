package estimator

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// ownBudget gives c's baseline a budget of its own, placed near one of the
// baseline's own plans (capacity, in-use and reserve overridden), so that
// the two revisions compare with different available bytes.
func ownBudget(t *testing.T, rng *rand.Rand, c *Config) {
	t.Helper()
	if c.Baseline == nil {
		c.Baseline = &Baseline{Overrides: Overrides{}}
	}
	if c.Baseline.Overrides == nil {
		c.Baseline.Overrides = Overrides{}
	}
	bc := refBaselineConfig(t, *c)
	placeBudget(rng, &bc)
	o := c.Baseline.Overrides
	o["budget.capacity_bytes"] = Setting{Int: bc.Budget.CapacityBytes}
	o["budget.in_use_bytes"] = Setting{Int: bc.Budget.InUseBytes}
	o["budget.reserve_permille"] = Setting{Int: bc.Budget.ReservePermille}
}

// budgetAxis reports whether axis is one along which only the available
// bytes move.
func budgetAxis(axis string) bool { return axis == "capacity_bytes" || axis == "in_use_bytes" }

// TestMapBaselineMatchesReference is the map's reference comparison with
// random baselines of their own (a third of them with a budget of their
// own and the budget across, so that each grid point is remembered per
// revision from column to column): every column's start and flips agree
// with the reference (baseline_ref_test.go), which sets x and y in each
// revision's own model, and every column equals the sweep along y of the
// revisions with x Set in both; along a narrow y every integer of the first column
// is checked.
func TestMapBaselineMatchesReference(t *testing.T) {
	t.Parallel()
	rng := newRand()
	n := 150
	if testing.Short() {
		n = 40
	}
	compared, flipsSeen, allInvalid, acrossRev, baselineOnly := 0, 0, 0, 0, 0
	for i := 0; i < n; i++ {
		c := randomBaseline(t, rng, randomConfig(rng))
		xa := axes[rng.IntN(len(axes))]
		ya := axes[rng.IntN(len(axes))]
		if i%3 == 0 {
			ownBudget(t, rng, &c)
			xa = []string{"capacity_bytes", "in_use_bytes"}[rng.IntN(2)]
			for budgetAxis(ya) {
				ya = axes[rng.IntN(len(axes))]
			}
		}
		for ya == xa {
			ya = axes[rng.IntN(len(axes))]
		}
		revs := refRevisions(t, c)
		if revs[0].invalid != "" || revs[1].invalid != "" {
			continue // refused as a bad config, as Estimate refuses it
		}
		x, y := randomMapRange(rng, c, xa), randomMapRange(rng, c, ya)
		cols := int(oneOf(rng, 2, 3, 7, 16, between(rng, 2, 40)))
		t.Run(fmt.Sprintf("%d_%s_%s", i, xa, ya), func(t *testing.T) {
			name := fmt.Sprintf("config %s, x %+v, y %+v, %d columns", MarshalConfig(c), x, y, cols)
			res, err := Map(c, x, y, cols)
			if err != nil {
				if fe := FieldErrors(err); len(fe) == 1 && fe[0].Field == "map" {
					checkAllInvalidRef(t, revs, x, y, cols)
					allInvalid++
					return
				}
				t.Fatalf("%s: %v", name, err)
			}
			if m, _ := NewMapper(c, x, y, cols); m.acrossRev != nil {
				acrossRev++
			}
			want := specColumns(x.From, x.To, cols)
			if len(res.Columns) != len(want) {
				t.Fatalf("%s: %d columns, want %d", name, len(res.Columns), len(want))
			}
			for j, col := range res.Columns {
				if col.X != want[j] {
					t.Fatalf("%s: column %d at x %d, want %d", name, j, col.X, want[j])
				}
				ref := j == 0 || j == len(res.Columns)/2 || j == len(res.Columns)-1
				compared += checkColumnRef(t, name, c, revs, x, y, col, ref)
				flipsSeen += len(col.Baseline.Flips) + len(col.Candidate.Flips)
				if (col.Baseline.Start == Invalid) != (col.Candidate.Start == Invalid) {
					baselineOnly++
				}
			}
		})
		if t.Failed() {
			return
		}
	}
	t.Logf("%d columns compared with a sweep, %d flips, %d maps all invalid, %d maps remembered per revision across columns, %d columns invalid in one revision only at the start",
		compared, flipsSeen, allInvalid, acrossRev, baselineOnly)
	if compared < n || flipsSeen < n || acrossRev < n/10 {
		t.Fatalf("only %d columns compared, %d flips, %d maps across the budget per revision: the random maps test too little", compared, flipsSeen, acrossRev)
	}
}

// refColumnDecision is the reference's decision of revision rr with x and
// then y set in its own model, Invalid where either is out of range, a
// limit breaks or the plans overflow.
func refColumnDecision(rr refRev, x MapAxis, xv int64, y MapAxis, yv int64) Decision {
	m := rr.m
	if !refMoveAxis(&m, x.Axis, xv) {
		return Invalid
	}
	d, _ := refDecisionAt(refRev{m: m, v: rr.v}, y.Axis, yv)
	return d
}

// checkColumnRef checks one column of a map of c against the sweep along
// y of the revisions with x Set in both, and, when ref is set, against the
// reference at its start and first flips (the reference prices every rung,
// too slowly for every column); 1 if it compared with a sweep.
func checkColumnRef(t *testing.T, name string, c Config, revs [2]refRev, x, y MapAxis, col MapColumn, ref bool) int {
	t.Helper()
	// Every integer of a narrow y, in the map's first column (the
	// reference is slow; sweeps check every integer on their own).
	narrow := y.To-y.From < 64 && col.X == x.From
	for rev := 0; rev < 2 && ref; rev++ {
		r := col.Rev(Revision(rev))
		// The sequences at the largest y the reference prices: a y range
		// may end past its field's maximum (invalid there), and the
		// reference still prices every rung of the maximum.
		yf, _ := FieldByKey(y.Axis)
		if m := revs[rev].m; refMoveAxis(&m, x.Axis, col.X) && refMoveAxis(&m, y.Axis, min(y.To, yf.Max)) && m.sequences() > 1<<12 {
			continue // the reference prices every rung: too slow here
		}
		dec := func(yv int64) Decision { return refColumnDecision(revs[rev], x, col.X, y, yv) }
		if d := dec(y.From); r.Start != d {
			t.Fatalf("%s: x %d rev %d: start %v, the reference %v", name, col.X, rev, r.Start, d)
		}
		prev := r.Start
		for k, f := range r.Flips {
			if k == 4 {
				break
			}
			a, b := dec(f.Last), dec(f.First)
			if f.FromDecision != prev || a != f.FromDecision || b != f.ToDecision || f.First != f.Last+1 {
				t.Fatalf("%s: x %d rev %d: flip %+v after %v; the reference %v at %d, %v at %d", name, col.X, rev, f, prev, a, f.Last, b, f.First)
			}
			if (a == Invalid || b == Invalid) && f.Message == "" {
				t.Fatalf("%s: x %d rev %d: flip %+v carries no message", name, col.X, rev, f)
			}
			prev = f.ToDecision
		}
		if narrow {
			var want, got []string
			p := dec(y.From)
			for yv := y.From + 1; yv <= y.To; yv++ {
				if d := dec(yv); d != p {
					want = append(want, fmt.Sprintf("%v->%v@%d", p, d, yv))
					p = d
				}
			}
			for _, f := range r.Flips {
				got = append(got, fmt.Sprintf("%v->%v@%d", f.FromDecision, f.ToDecision, f.First))
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s: x %d rev %d: flips %v, the reference %v", name, col.X, rev, got, want)
			}
		}
	}
	rv, err := c.ResolveRevisions()
	if err != nil {
		t.Fatal(err)
	}
	if rv.Set(x.Axis, col.X) != nil {
		return 0 // x outside its field: invalid throughout, checked above
	}
	s, err := rv.Sweeper(y.Axis)
	if err != nil {
		t.Fatal(err)
	}
	pts := s.AppendPoints(nil, Grid(y.From, y.To, DefaultPoints))
	for rev := 0; rev < 2; rev++ {
		want := s.FlipsFromPoints(nil, pts, Revision(rev))
		if got := col.Rev(Revision(rev)); got.Start != pts[0].Rev[rev].Decision || !reflect.DeepEqual(got.Flips, want) {
			t.Fatalf("%s: x %d rev %d: map column %+v\nsweep starts %v, flips %+v", name, col.X, rev, got, pts[0].Rev[rev].Decision, want)
		}
	}
	return 1
}

// checkAllInvalidRef: a map refused as all invalid is invalid for both
// revisions in each column at both ends of y and in the middle.
func checkAllInvalidRef(t *testing.T, revs [2]refRev, x, y MapAxis, cols int) {
	t.Helper()
	for _, xv := range specColumns(x.From, x.To, cols) {
		for _, yv := range []int64{y.From, y.From + (y.To-y.From)/2, y.To} {
			for rev := range revs {
				if d := refColumnDecision(revs[rev], x, xv, y, yv); d != Invalid {
					t.Fatalf("refused as all invalid, but (%d, %d) is %v for revision %d; x %+v y %+v", xv, yv, d, rev, x, y)
				}
			}
		}
	}
}

// TestSweepPathsMatchFreshPointsBaseline: with a baseline whose capacity,
// in-use and reserve differ from the candidate's, each revision remembers
// its own paths along capacity_bytes and in_use_bytes; every point, in
// grid order or at random, equals the point a new sweeper prices from
// nothing and Revisions.Point of the revisions with the axis Set, which
// never remembers anything.
func TestSweepPathsMatchFreshPointsBaseline(t *testing.T) {
	t.Parallel()
	rng := newRand()
	n := propertyCount() / 10
	remembered, bothValid, oneInvalid := 0, 0, 0
	for i := 0; i < n; i++ {
		c := randomBaseline(t, rng, randomConfig(rng))
		ownBudget(t, rng, &c)
		rv, err := c.ResolveRevisions()
		if err != nil {
			continue // a baseline whose own budget is bad
		}
		axis := []string{"capacity_bytes", "in_use_bytes"}[i%2]
		lo := min(*rv.Rev[0].AxisField(axis), *rv.Rev[1].AxisField(axis))
		hi := max(*rv.Rev[0].AxisField(axis), *rv.Rev[1].AxisField(axis))
		from := between(rng, 0, lo)
		to := hi + between(rng, 0, max(hi, 1<<20))
		s, err := NewSweeper(c, axis)
		if err != nil {
			t.Fatal(err)
		}
		xs := Grid(from, to, 64)
		for j := 0; j < 64; j++ {
			xs = append(xs, between(rng, from, to))
		}
		for _, x := range xs {
			got := s.Point(x)
			fresh, _ := NewSweeper(c, axis)
			if want := fresh.Point(x); got != want {
				t.Fatalf("config %s along %s at %d:\n got %+v\nwant %+v", MarshalConfig(c), axis, x, got, want)
			}
			at := rv
			if at.Set(axis, x) != nil {
				continue
			}
			want := at.Point()
			want.X = x
			if got != want {
				t.Fatalf("config %s along %s at %d:\n got %+v\nRevisions.Point %+v", MarshalConfig(c), axis, x, got, want)
			}
			switch {
			case got.Rev[0].Error == "" && got.Rev[1].Error == "":
				bothValid++
			case got.Error == "":
				oneInvalid++
			}
		}
		remembered += s.cand.paths.n + s.own.paths.n
	}
	t.Logf("%d points valid in both, %d invalid in one revision only, %d paths remembered", bothValid, oneInvalid, remembered)
	if remembered == 0 || bothValid < n || oneInvalid == 0 {
		t.Fatalf("%d paths remembered, %d points valid in both, %d invalid in one: too little tested", remembered, bothValid, oneInvalid)
	}
}
