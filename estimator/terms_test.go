package estimator

import (
	"fmt"
	"testing"
)

// TestTermsMatchReference compares Estimate with the reference model on
// random configs carrying random terms: bytes, decisions, stages and
// tensors, and whether the config fails at all.
func TestTermsMatchReference(t *testing.T) {
	t.Parallel()
	rng := newRand()
	n := 3000
	if testing.Short() {
		n = 400
	}
	var count [2][3]int
	failed, failures := 0, 0
	for i := 0; i < n && failures < 10; i++ {
		c := randomTermsConfig(rng)
		if !checkAgainstRef(t, fmt.Sprintf("config %d %s", i, MarshalConfig(c)), c) {
			failures++
			continue
		}
		res, err := Estimate(c)
		if err != nil {
			failed++
			continue
		}
		count[0][res.Baseline.Decision]++
		count[1][res.Candidate.Decision]++
	}
	for rev := range count {
		for d, k := range count[rev] {
			if k < n/30 {
				t.Errorf("revision %d: only %d of %d configs had decision %v", rev, k, n, Decision(d))
			}
		}
	}
	if failed < n/50 || failed > n/2 {
		t.Errorf("%d of %d configs failed: the generator should make a few terms fail, not most", failed, n)
	}
	t.Logf("decisions (admit, split, refuse): baseline %v, candidate %v; %d failed", count[0], count[1], failed)
}

// TestTermsPointIsEstimate: along every axis, a sweep's point with terms
// prices what Estimate prices at the moved config: the variables follow
// the moved field, and the sweep's reuse of sized pieces is exact.
func TestTermsPointIsEstimate(t *testing.T) {
	t.Parallel()
	rng := newRand()
	n := 60
	if testing.Short() {
		n = 15
	}
	for i := 0; i < n; i++ {
		c := randomTermsConfig(rng)
		if i%3 == 0 { // terms of the request's own shape
			c.Terms = append(c.Terms[:0], Term{Name: "per_seq", Place: "stage", Bytes: "s * H * 4"},
				Term{Name: "share", Place: "retained", Revision: "both", Bytes: "ceil(n * P, N) * 8 + T"})
		}
		for _, axis := range Axes() {
			s, err := NewSweeper(c, axis)
			if err != nil {
				continue // a term that does not compile: tested elsewhere
			}
			f, _ := FieldByKey(axis)
			base, _ := f.Int(&c)
			if axis == "input_width" || axis == "output_width" {
				r := s.baseResolved()
				base = map[string]int64{"input_width": r.I, "output_width": r.O}[axis]
			}
			for _, x := range []int64{base, max(f.Min, base/2), base + 1, between(rng, f.Min, min(f.Max, 2*base+10)), base, max(f.Min, base-1)} {
				checkPoint(t, s, c, axis, x)
			}
			if t.Failed() {
				t.Fatalf("config %s", MarshalConfig(c))
			}
		}
	}
}

// TestTermsSweepFlips: flips with terms check out point by point, and are
// exact over ranges the grid covers whole.
func TestTermsSweepFlips(t *testing.T) {
	t.Parallel()
	rng := newRand()
	n := 200
	if testing.Short() {
		n = 40
	}
	total := 0
	for i := 0; i < n; i++ {
		c := randomTermsConfig(rng)
		axis, from, to := randomAxisRange(rng, c)
		points := int(oneOf(rng, 2, 17, 64))
		res, err := Sweep(c, axis, from, to, points)
		if err != nil {
			continue // the config itself is invalid
		}
		s, _ := NewSweeper(c, axis)
		exact := to-from+1 <= int64(points)
		name := fmt.Sprintf("config %d along %s over [%d, %d]", i, axis, from, to)
		checkFlips(t, name+" baseline", s, res.Baseline.Flips, 0, from, to, exact)
		checkFlips(t, name+" candidate", s, res.Candidate.Flips, 1, from, to, exact)
		total += len(res.Baseline.Flips) + len(res.Candidate.Flips)
		if t.Failed() {
			t.Fatalf("config %s", MarshalConfig(c))
		}
	}
	if total < n/4 {
		t.Errorf("only %d flips in %d sweeps", total, n)
	}
}

// TestTermsFC2KnownStorageCheck is the check of docs/model.md §8: with the
// toggles off, candidate terms input = r x I x b and combined_out = r x O
// x b in fc2 give the candidate exactly the bytes and decisions of
// fc2_known_storage on with known metadata, stage by stage and tensor by
// tensor, at the request and along a sweep.
func TestTermsFC2KnownStorageCheck(t *testing.T) {
	t.Parallel()
	rng := newRand()
	n := 600
	if testing.Short() {
		n = 100
	}
	var decisions [3]int
	for i := 0; i < n; i++ {
		on := randomConfig(rng)
		if on.Model.NumExpertsPerTok == 0 {
			on.Model.NumExpertsPerTok = 1 + rng.Int64N(12) // K = 0: no fc2 stage for the switch to change
		}
		on.FC2.LoRAMetadataKnown = true
		on.Changes = Changes{FC2KnownStorage: true}
		off := on
		off.Changes = Changes{}
		off.Terms = []Term{
			{Name: "input", Place: "fc2", Revision: "candidate", Bytes: "r * I * b"},
			{Name: "combined_out", Place: "fc2", Bytes: "r * O * b"},
		}
		want, werr := Estimate(on)
		got, gerr := Estimate(off)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%s: switch err %v, terms err %v", MarshalConfig(on), werr, gerr)
		}
		if werr != nil {
			continue
		}
		if a, b := fmt.Sprintf("%+v", want.Candidate), fmt.Sprintf("%+v", got.Candidate); a != b {
			t.Fatalf("%s:\nswitch %s\nterms  %s", MarshalConfig(on), a, b)
		}
		if want.Baseline.Decision != got.Baseline.Decision || want.Baseline.RequiredBytes != got.Baseline.RequiredBytes ||
			want.Candidate.LowerBoundBytes != got.Candidate.LowerBoundBytes {
			t.Fatalf("%s: baseline or lower bound differ", MarshalConfig(on))
		}
		decisions[want.Candidate.Decision]++
		if i%20 == 0 {
			axis, from, to := randomAxisRange(rng, on)
			ws, err1 := Sweep(on, axis, from, to, 33)
			gs, err2 := Sweep(off, axis, from, to, 33)
			if err1 != nil || err2 != nil || fmt.Sprint(ws.Candidate) != fmt.Sprint(gs.Candidate) {
				t.Fatalf("%s along %s: switch %v %v, terms %v %v", MarshalConfig(on), axis, ws.Candidate, err1, gs.Candidate, err2)
			}
		}
	}
	for d, k := range decisions {
		if k == 0 {
			t.Errorf("no config had decision %v", Decision(d))
		}
	}
}

// TestTermsDefaultConfig pins the result of each placement on the default
// config: where each term is listed and what it adds.
func TestTermsDefaultConfig(t *testing.T) {
	t.Parallel()
	c := Default()
	plain := mustEstimate(t, c)
	c.Terms = []Term{
		{Name: "logits_fp32_copy", Place: "head", Bytes: "2 * D"},
		{Name: "router_probs", Place: "retained", Revision: "both", Bytes: "n * 4"},
		{Name: "dispatch", Place: "stage", Revision: "candidate", Bytes: "r * H * b * 4"},
		{Name: "old_gdn_buffer", Place: "gdn", Revision: "baseline", Bytes: "n * 1000 + 1"},
		{Name: "dense_fc2", Place: "fc2", Revision: "both", Bytes: "0"},
	}
	res := mustEstimate(t, c)
	cand, base := res.Candidate, res.Baseline
	const d = 155_582_464
	if got := cand.Stage("head").Bytes - plain.Candidate.Stage("head").Bytes; got != 2*d {
		t.Errorf("head grows by %d, want 2D = %d", got, 2*d)
	}
	if base.Stage("head").Bytes != plain.Baseline.Stage("head").Bytes {
		t.Errorf("a candidate term changed the baseline's head")
	}
	// 64,902 x 4 = 259,608 rounds up to 260,096.
	for _, o := range []Outcome{base, cand} {
		last := o.Retained.Tensors[len(o.Retained.Tensors)-1]
		if last != (TensorBytes{"router_probs", 260_096}) {
			t.Errorf("last retained tensor %+v", last)
		}
	}
	// 64,902 x 10 x 2048 x 2 x 4 rounds to itself (a multiple of 512).
	if s := cand.Stages[len(cand.Stages)-1]; s.Name != "dispatch" || s.Bytes != 64902*10*2048*8 || len(s.Tensors) != 1 {
		t.Errorf("last candidate stage %+v", s)
	}
	if cand.DominantStage != "dispatch" {
		t.Errorf("dominant stage %q, want dispatch", cand.DominantStage)
	}
	for _, s := range base.Stages {
		if s.Name == "dispatch" {
			t.Errorf("the baseline lists the candidate's stage")
		}
	}
	// 64,902,001 rounds up to 64,902,144.
	g := base.Stage("gdn")
	if g.Tensors[len(g.Tensors)-1] != (TensorBytes{"old_gdn_buffer", 64_902_144}) {
		t.Errorf("baseline gdn %+v", g)
	}
	f := cand.Stage("fc2")
	if f.Tensors[len(f.Tensors)-1] != (TensorBytes{"dense_fc2", 0}) {
		t.Errorf("a zero term is listed with 0 bytes: %+v", f)
	}
	// The lower bound counts router_probs (both) and nothing else.
	c2 := Default()
	c2.Terms = c.Terms[1:2]
	if lb := mustEstimate(t, c2).Baseline.LowerBoundBytes; lb != res.Baseline.LowerBoundBytes {
		t.Errorf("lower bound %d, with the both-term alone %d", res.Baseline.LowerBoundBytes, lb)
	}
}

// TestTermsStageTheModelLacks: fc2 at K = 0 and gdn at Hk = 0 exist with
// their terms alone, in the revisions that hold them.
func TestTermsStageTheModelLacks(t *testing.T) {
	t.Parallel()
	c := Default()
	c.Model.NumExpertsPerTok, c.Model.LinearNumKeyHeads = 0, 0
	c.Terms = []Term{
		{Name: "router", Place: "fc2", Bytes: "n * 8"},
		{Name: "conv", Place: "gdn", Revision: "baseline", Bytes: "n * 3"},
	}
	res := mustEstimate(t, c)
	names := func(o Outcome) (out []string) {
		for _, s := range o.Stages {
			out = append(out, s.Name)
		}
		return out
	}
	if got := fmt.Sprint(names(res.Candidate)); got != "[activations head fc2]" {
		t.Errorf("candidate stages %s", got)
	}
	if got := fmt.Sprint(names(res.Baseline)); got != "[activations head gdn]" {
		t.Errorf("baseline stages %s", got)
	}
	if s := res.Candidate.Stage("fc2"); s.Bytes != 519_680 || len(s.Tensors) != 1 { // 64,902 x 8 = 519,216 -> 519,680
		t.Errorf("fc2 %+v", s)
	}
}

// TestTermsUnsafeLadder: a term that shrinks as rows grow breaks the
// ladder's shortcuts (ephemeral bytes grow with rows); the decision is
// still the ladder's, rung by rung, as the reference prices it.
func TestTermsUnsafeLadder(t *testing.T) {
	t.Parallel()
	// The peak is U-shaped in rows: 1.8e9 bytes for a piece of 1,000
	// rows, 1.2e9 at 4,000 and 8,000, 2.4e9 for the whole 16,000. With
	// 1.4e9 available, two children fit, but one sequence per child does
	// not: a shortcut that tries the finest rung first would refuse.
	c := ladderConfig(16)
	c.Terms = []Term{
		{Name: "small_only", Place: "stage", Bytes: "max(0, 2_000_000_000 - n * 200_000)"},
		{Name: "grows", Place: "stage", Bytes: "n * 150_000"},
	}
	r, err := c.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if r.terms.unsafe&holdCandidate == 0 {
		t.Fatalf("a decreasing term was judged safe")
	}
	if res := mustEstimate(t, withAvailable(c, 1_400_000_000)); res.Candidate.Decision != Split || res.Candidate.Children != 2 {
		t.Errorf("decision %v into %d children, want a split into 2", res.Candidate.Decision, res.Candidate.Children)
	}
	// Retained bytes of n x n: the children of a split need less than
	// the whole, so the whole's retained bytes are no lower bound.
	sq := ladderConfig(16)
	sq.Terms = []Term{{Name: "square", Place: "retained", Bytes: "n * n * 10"}}
	for _, cfg := range []Config{c, sq} {
		for avail := int64(1_000_000); avail < 1<<36; avail = avail*9/8 + 1 {
			checkAgainstRef(t, fmt.Sprintf("%s available %d", cfg.Terms[0].Bytes, avail), withAvailable(cfg, avail))
		}
	}
	safe := Term{Name: "grows", Place: "retained", Bytes: "ceil(n * H, 7) + max(D, 3) + 2 * r * I + min(n, 5)"}
	c.Terms = []Term{safe}
	if r, _ := c.Resolve(); r.terms.unsafe != 0 {
		t.Errorf("%s judged unsafe", safe.Bytes)
	}
	for _, bad := range []string{"n / 2", "n * n", "min(n, p)", "n - 1", "1000 / n", "-n"} {
		c.Terms = []Term{{Name: "x", Place: "retained", Bytes: bad}}
		if r, _ := c.Resolve(); r.terms.unsafe == 0 {
			t.Errorf("retained %s judged safe", bad)
		}
	}
}

// TestTermsPointAllocatesNothing: pricing a point with terms allocates
// nothing, along an axis that keeps the sized pieces and one that does not.
func TestTermsPointAllocatesNothing(t *testing.T) {
	c := Default()
	c.Terms = []Term{
		{Name: "logits_fp32_copy", Place: "head", Bytes: "2 * D"},
		{Name: "router_probs", Place: "retained", Revision: "both", Bytes: "r * 4"},
		{Name: "dispatch", Place: "stage", Bytes: "ceil(r * H * b, 2) + min(n, C) * 64"},
		{Name: "old_workspace", Place: "fc2", Revision: "baseline", Bytes: "max(r * O, n * 1_000) - s"},
	}
	for _, axis := range []string{"rows", "vocab_size", "sequence_rows"} {
		s, err := NewSweeper(c, axis)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := FieldByKey(axis)
		x := int64(5000)
		allocs := testing.AllocsPerRun(200, func() {
			x = x%(min(f.Max, 2_000_000)-5000) + 5000 + 997
			if pt := s.Point(x); pt.Error != "" {
				t.Fatalf("%s = %d: %s", axis, x, pt.Error)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per point", axis, allocs)
		}
	}
}

// TestTermsFailInSweep: a term that fails for some x makes those points
// invalid, with the message naming the term, for both revisions (the
// estimate fails as a whole), and a flip into or out of them.
func TestTermsFailInSweep(t *testing.T) {
	t.Parallel()
	c := Default()
	c.Terms = []Term{{Name: "small", Place: "head", Bytes: "n - 100_000"}}
	res, err := Sweep(c, "rows", 99_990, 100_010, 64)
	if err != nil {
		t.Fatal(err)
	}
	want := Flip{FromDecision: Invalid, ToDecision: Admit, Last: 99_999, First: 100_000,
		Message: "terms[0] (small): bytes is negative (-1) for a piece of 99,999 rows; a tensor's bytes must be >= 0"}
	for _, fl := range [][]Flip{res.Baseline.Flips, res.Candidate.Flips} {
		if len(fl) != 1 || fl[0] != want {
			t.Errorf("flips %+v, want %+v", fl, want)
		}
	}
	// An overflow at some x is an invalid point like any overflow.
	c.Terms = []Term{{Name: "big", Place: "retained", Bytes: "min(1, n * 4_611_686_018_427_388)"}}
	res, err = Sweep(c, "rows", 1000, 3000, 64)
	if err != nil {
		t.Fatal(err)
	}
	if fl := res.Candidate.Flips; len(fl) != 1 || fl[0].FromDecision != Admit || fl[0].ToDecision != Invalid || fl[0].First != 2000 ||
		fl[0].Message != "terms[0] (big): bytes overflows int64 for a piece of 2,000 rows (an intermediate value is beyond ±9,223,372,036,854,775,807); the arithmetic is exact, so lower the values or rewrite the expression" {
		t.Errorf("flips %+v", fl)
	}
}

// TestTermVariableValues: the variables of the default config's whole
// request, as a page's help lists them.
func TestTermVariableValues(t *testing.T) {
	t.Parallel()
	vars, err := TermVariableValues(Default())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"n": 64902, "p": 64902, "t": 64902, "r": 649_020, "D": 155_582_464, "Dt": 155_582_464,
		"N": 64902, "P": 64902, "T": 64902, "s": 4096, "V": 151936, "H": 2048, "L": 48, "K": 10, "M": 512,
		"I": 512, "O": 2048, "b": 2, "E": 1, "C": 512, "k": 0, "g": 1, "Hk": 16, "Dk": 128, "Hv": 32, "Dv": 128, "X": 0}
	if fmt.Sprint(vars) != fmt.Sprint(want) {
		t.Errorf("variables %v\nwant %v", vars, want)
	}
	if got := TermVariables(); len(got) != len(want) || got[0] != "n" || got[len(got)-1] != "X" {
		t.Errorf("TermVariables() = %v", got)
	}
}

// TestTermVariableDocs: every variable has its words, and a name that is
// no variable has none.
func TestTermVariableDocs(t *testing.T) {
	t.Parallel()
	for _, name := range TermVariables() {
		if TermVariableDoc(name) == "" {
			t.Errorf("%s has no doc", name)
		}
	}
	if TermVariableDoc("Q") != "" || TermVariableDoc("D") != "one head chunk of BF16 logits, min(p, C) x V x 2" {
		t.Errorf("Q %q, D %q", TermVariableDoc("Q"), TermVariableDoc("D"))
	}
}
