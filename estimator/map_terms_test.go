package estimator

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Maps and the budget's path cache with terms (docs/model.md §8): a term follows
// x and y as every other byte does, and a term the compiler cannot prove
// safe makes the ladder price every rung in order (evaluator.ladder),
// whose comparisons with the budget must narrow the path cache's range as
// decideFrom's do.

// unsafeTerms are terms that break the ladder's shortcuts: a peak that
// shrinks as rows grow, and retained bytes that a split rounds down.
var unsafeTerms = []Term{
	{Name: "dip", Place: "stage", Bytes: "max(0, 2_000_000_000 - n * 20_000)"},
	{Name: "half", Place: "retained", Revision: "both", Bytes: "n * H / 2"},
	{Name: "square", Place: "head", Revision: "baseline", Bytes: "n * n"},
}

// withUnsafeTerm adds one of unsafeTerms to c's terms, under a name of its
// own, unless c holds the most terms already.
func withUnsafeTerm(rng *rand.Rand, c *Config) {
	if len(c.Terms) >= MaxTerms {
		return
	}
	u := unsafeTerms[rng.IntN(len(unsafeTerms))]
	u.Name = "unsafe_" + u.Name
	c.Terms = append(append([]Term(nil), c.Terms...), u)
}

// unsafeRevisions reports whether a revision of c holds a term the
// compiler could not prove safe, so that its ladder prices every rung.
func unsafeRevisions(c Config) bool {
	rv, err := c.ResolveRevisions()
	if err != nil {
		return false
	}
	for _, r := range rv.Rev {
		if r.terms != nil && r.terms.unsafe != 0 {
			return true
		}
	}
	return false
}

// randomTermsMapConfig is a random config with random terms, half of them
// with an unsafe term added, half with a baseline of its own; the budget
// is placed again with the terms it ends with.
func randomTermsMapConfig(t *testing.T, rng *rand.Rand) Config {
	c := randomTermsConfig(rng)
	if rng.IntN(2) == 0 {
		withUnsafeTerm(rng, &c)
		placeBudget(rng, &c)
	}
	if rng.IntN(2) == 0 {
		c = randomBaseline(t, rng, c)
	}
	return c
}

// TestMapTermsMatchesReference: maps of random configs with random terms
// (some unsafe) and, half of them, random baselines of their own (a third
// of the maps with the budget across, so that each grid point is
// remembered from column to column, the baselines then with a budget of
// their own). Without a baseline of its own every column equals Sweep of
// the config with x written in, and its start and flips agree with
// Estimate there (both checked against the reference on their own: the
// two revisions are one config, invalid together where a term fails).
// With one, every column equals the sweep along y of the revisions with x
// Set in both, and the first, middle and last columns' starts and first
// flips agree with the reference, which evaluates the terms with each
// revision's own variables at (x, y), each revision valid on its own.
func TestMapTermsMatchesReference(t *testing.T) {
	t.Parallel()
	rng := newRand()
	n := 60
	if testing.Short() {
		n = 20
	}
	compared, flipsSeen, allInvalid, across, unsafe, tried := 0, 0, 0, 0, 0, 0
	for i := 0; i < n*3 && tried < n; i++ {
		c := randomTermsMapConfig(t, rng)
		xa := axes[rng.IntN(len(axes))]
		ya := axes[rng.IntN(len(axes))]
		if i%3 == 0 {
			if c.Baseline != nil {
				ownBudget(t, rng, &c)
			}
			xa = []string{"capacity_bytes", "in_use_bytes"}[rng.IntN(2)]
			for budgetAxis(ya) {
				ya = axes[rng.IntN(len(axes))]
			}
		}
		for ya == xa {
			ya = axes[rng.IntN(len(axes))]
		}
		if _, err := c.ResolveRevisions(); err != nil {
			continue // a bad baseline or a bad term: refused as Estimate refuses it
		}
		revs := refRevisions(t, c)
		if revs[0].invalid != "" || revs[1].invalid != "" {
			continue
		}
		tried++
		if unsafeRevisions(c) {
			unsafe++
		}
		x, y := randomMapRange(rng, c, xa), randomMapRange(rng, c, ya)
		cols := int(oneOf(rng, 2, 3, 7, 16, between(rng, 2, 40)))
		t.Run(fmt.Sprintf("%d_%s_%s", i, xa, ya), func(t *testing.T) {
			name := fmt.Sprintf("config %s, x %+v, y %+v, %d columns", MarshalConfig(c), x, y, cols)
			res, err := Map(c, x, y, cols)
			if err != nil {
				if fe := FieldErrors(err); len(fe) == 1 && fe[0].Field == "map" {
					if c.Baseline == nil {
						checkAllInvalid(t, c, x, y, cols)
					} else {
						checkAllInvalidRef(t, revs, x, y, cols)
					}
					allInvalid++
					return
				}
				t.Fatalf("%s: %v", name, err)
			}
			if m, _ := NewMapper(c, x, y, cols); m.across != nil || m.acrossRev != nil {
				across++
			}
			want := specColumns(x.From, x.To, cols)
			if len(res.Columns) != len(want) {
				t.Fatalf("%s: %d columns, want %d", name, len(res.Columns), len(want))
			}
			for j, col := range res.Columns {
				if col.X != want[j] {
					t.Fatalf("%s: column %d at x %d, want %d", name, j, col.X, want[j])
				}
				if c.Baseline == nil {
					compared += checkColumn(t, c, x, y, col)
				} else {
					ref := j == 0 || j == len(res.Columns)/2 || j == len(res.Columns)-1
					compared += checkColumnRef(t, name, c, revs, x, y, col, ref)
				}
				flipsSeen += len(col.Baseline.Flips) + len(col.Candidate.Flips)
			}
		})
		if t.Failed() {
			return
		}
	}
	t.Logf("%d maps, %d with an unsafe term, %d remembered across columns, %d all invalid; %d columns compared with a sweep, %d flips",
		tried, unsafe, across, allInvalid, compared, flipsSeen)
	if tried < n || compared < n || flipsSeen < n || across < n/10 || unsafe < n/4 {
		t.Fatalf("%d maps, %d columns compared, %d flips, %d across the budget, %d unsafe: the random maps test too little",
			tried, compared, flipsSeen, across, unsafe)
	}
}

// TestSweepPathsMatchFreshPointsTerms: along capacity_bytes and
// in_use_bytes, with random terms (half of the configs with an unsafe
// term, so that the ladder prices every rung) and baselines of their own
// (some with a budget of their own), every point a sweeper gives, in grid
// order or at random, equals the point a new sweeper prices from nothing,
// and, with a baseline of its own, Revisions.Point of the revisions with
// the axis Set, which remembers nothing.
func TestSweepPathsMatchFreshPointsTerms(t *testing.T) {
	t.Parallel()
	rng := newRand()
	n := propertyCount() / 10
	remembered, ladders, decisions := 0, 0, map[Decision]int{}
	for i := 0; i < n; i++ {
		c := randomTermsMapConfig(t, rng)
		if c.Baseline != nil && rng.IntN(2) == 0 {
			ownBudget(t, rng, &c)
		}
		rv, err := c.ResolveRevisions()
		if err != nil {
			continue
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
		unsafe := unsafeRevisions(c)
		for _, x := range xs {
			got := s.Point(x)
			fresh, _ := NewSweeper(c, axis)
			if want := fresh.Point(x); got != want {
				t.Fatalf("config %s along %s at %d:\n got %+v\nwant %+v", MarshalConfig(c), axis, x, got, want)
			}
			if rv.Own {
				at := rv
				if at.Set(axis, x) == nil {
					want := at.Point()
					want.X = x
					if got != want {
						t.Fatalf("config %s along %s at %d:\n got %+v\nRevisions.Point %+v", MarshalConfig(c), axis, x, got, want)
					}
				}
			}
			for _, pr := range got.Rev {
				decisions[pr.Decision]++
				if unsafe && pr.Decision != Admit && pr.Decision != Invalid {
					ladders++
				}
			}
		}
		remembered += s.cand.paths.n
		if s.own != nil {
			remembered += s.own.paths.n
		}
	}
	t.Logf("%d paths remembered, %d points past the whole request with an unsafe term, decisions %v", remembered, ladders, decisions)
	if remembered == 0 || ladders < n || decisions[Split] < n || decisions[Refuse] < n {
		t.Fatalf("%d paths remembered, %d unsafe ladders, decisions %v: too little tested", remembered, ladders, decisions)
	}
}

// TestSweepPathsUnsafeLadder: a U-shaped peak (a term that shrinks as rows
// grow) makes the ladder's answer change rung by rung as the budget
// moves: a sweep of in_use_bytes over the whole range finds every flip
// the ladder has, each point equal to a fresh sweeper's and to Estimate.
func TestSweepPathsUnsafeLadder(t *testing.T) {
	t.Parallel()
	c := ladderConfig(16)
	c.Budget.CapacityBytes = 4_000_000_000
	c.Terms = []Term{
		{Name: "small_only", Place: "stage", Bytes: "max(0, 2_000_000_000 - n * 200_000)"},
		{Name: "grows", Place: "stage", Bytes: "n * 150_000"},
	}
	if r, err := c.Resolve(); err != nil || r.terms.unsafe == 0 {
		t.Fatalf("the terms should be judged unsafe (%v)", err)
	}
	s, err := NewSweeper(c, "in_use_bytes")
	if err != nil {
		t.Fatal(err)
	}
	children := map[int64]bool{}
	for _, x := range Grid(0, c.Budget.CapacityBytes, 4096) {
		got := s.Point(x)
		fresh, _ := NewSweeper(c, "in_use_bytes")
		if want := fresh.Point(x); got != want {
			t.Fatalf("at in_use %d:\n got %+v\nwant %+v", x, got, want)
		}
		at := c
		at.Budget.InUseBytes = x
		res := mustEstimate(t, at)
		if cd := got.Rev[1]; cd.Decision != res.Candidate.Decision || cd.Children != res.Candidate.Children {
			t.Fatalf("at in_use %d: %v into %d, Estimate %v into %d", x, cd.Decision, cd.Children, res.Candidate.Decision, res.Candidate.Children)
		}
		children[got.Rev[1].Children] = true
	}
	if !children[2] || !children[0] {
		t.Fatalf("children seen %v: want a split into 2 and refusals", children)
	}
	res, err := Sweep(c, "in_use_bytes", 0, c.Budget.CapacityBytes, 64)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Candidate.Flips {
		for _, x := range []int64{f.Last, f.First} {
			at := c
			at.Budget.InUseBytes = x
			want := f.FromDecision
			if x == f.First {
				want = f.ToDecision
			}
			if d := mustEstimate(t, at).Candidate.Decision; d != want {
				t.Fatalf("flip %+v: Estimate says %v at %d", f, d, x)
			}
		}
	}
}
