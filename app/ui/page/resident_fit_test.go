package page

import (
	"math/rand"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"headroom/estimator"
)

// loopFitExpertParallel is the search estimator.FitExpertParallel replaced,
// kept as the reference its answers must equal: every e above the
// config's up to the field's maximum, one Resolve each.
func loopFitExpertParallel(c estimator.Config) (int64, estimator.Bytes, bool) {
	f, ok := estimator.FieldByKey("expert_parallel")
	if !ok || c.Resident == nil {
		return 0, 0, false
	}
	for e := c.FC2.ExpertParallel + 1; e <= f.Max && e <= 1<<16; e++ {
		t := c
		t.Baseline, t.Terms, t.Observed = nil, nil, nil
		t.FC2.ExpertParallel = e
		r, err := t.Resolve()
		if err == nil {
			if rr := r.Resident(); rr != nil {
				return e, rr.WeightsBytes, true
			}
			return e, 0, true
		}
		weights := false
		for _, fe := range estimator.FieldErrors(err) {
			if fe.Field == "resident" && strings.Contains(fe.Message, "weights are") {
				weights = true
			}
			if fe.Field == "fc2.expert_parallel" && strings.Contains(fe.Message, "does not divide") {
				weights = true
			}
		}
		if !weights {
			return e, 0, true
		}
	}
	return 0, 0, false
}

// checkFit compares the search with the reference on c.
func checkFit(t *testing.T, name string, c estimator.Config) (found bool) {
	t.Helper()
	we, ww, wok := loopFitExpertParallel(c)
	ge, gw, gok := fitExpertParallel(c)
	if ge != we || gw != ww || gok != wok {
		t.Errorf("%s: E %d: got (%d, %v, %v), the loop's (%d, %v, %v)", name, c.FC2.ExpertParallel, ge, gw, gok, we, ww, wok)
	}
	return wok
}

// TestFitExpertParallelPresets: on every preset, at expert parallelisms
// and capacities that put the first fit anywhere (or nowhere), with the
// resident group off and with in_use_bytes given, the divisor search
// answers as the loop over every e did.
func TestFitExpertParallelPresets(t *testing.T) {
	t.Parallel()
	list, _ := Presets()
	found := 0
	for _, p := range list {
		base := Decode(url.Values{KeyPreset: {p.ID}}, list).Cfg
		for _, ep := range []int64{-1, 0, 1, 2, 3, 7, 8, 9, 16, 100, 255, 1023, 1024} {
			for _, capGiB := range []int64{0, 1, 4, 16, 40, 80, 141, 4096} {
				c := base.Clone()
				c.FC2.ExpertParallel = ep
				if capGiB > 0 {
					c.Budget.CapacityBytes = capGiB << 30
				}
				if checkFit(t, p.ID, c) {
					found++
				}
				c.Budget.InUseBytes = 1 << 30
				checkFit(t, p.ID+" with in_use_bytes", c)
				c.Resident = nil
				checkFit(t, p.ID+" resident off", c)
			}
		}
	}
	if found == 0 {
		t.Error("no config found a fit: the comparison tested nothing")
	}
}

// TestFitExpertParallelRandom: random models (expert counts, layers,
// widths, top-k) at random expert parallelisms and capacities, some of
// them faulty in another field, answer as the loop did.
func TestFitExpertParallelRandom(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(3))
	list, _ := Presets()
	n := 300
	if testing.Short() {
		n = 60
	}
	kinds := map[string]int{}
	for i := range n {
		c := NewConfig()
		if rng.Intn(3) == 0 {
			c = Decode(url.Values{KeyPreset: {list[rng.Intn(len(list))].ID}}, list).Cfg.Clone()
		}
		if rng.Intn(2) == 0 {
			a := estimator.ArchFields{}
			if c.Model.ArchFields != nil {
				a = *c.Model.ArchFields
			}
			x := int64(1 + rng.Intn(1100))
			switch {
			case a.NRoutedExperts != nil:
				a.NRoutedExperts = &x
			case a.NumLocalExperts != nil:
				a.NumLocalExperts = &x
			default:
				a.NumExperts = &x
			}
			c.Model.ArchFields = &a
		}
		c.Model.NumHiddenLayers = int64(1 + rng.Intn(96))
		c.Model.HiddenSize = []int64{512, 2048, 4096, 7168}[rng.Intn(4)]
		c.Model.NumExpertsPerTok = int64(rng.Intn(12))
		c.FC2.ExpertParallel = int64(1 + rng.Intn(64))
		if rng.Intn(4) == 0 {
			c.FC2.ExpertParallel = int64(1 + rng.Intn(1024))
		}
		c.Budget.CapacityBytes = int64(1+rng.Intn(200)) << 30
		if rng.Intn(6) == 0 {
			c.Request.Rows = -1 // another field at fault
		}
		we, _, wok := loopFitExpertParallel(c)
		switch {
		case !wok:
			kinds["none"]++
		case we == c.FC2.ExpertParallel+1:
			kinds["next"]++
		default:
			kinds["further"]++
		}
		checkFit(t, "random "+strconv.Itoa(i), c)
	}
	for _, k := range []string{"none", "next", "further"} {
		if kinds[k] == 0 {
			t.Errorf("no random config answered %q: %v", k, kinds)
		}
	}
}

// bigLink is a link whose weights cannot fit at any expert parallelism
// and whose every Resolve walks 2^20 layers.
const bigLink = "rows=2147483647&hidden_size=1048576&num_hidden_layers=1048576"

// TestFitExpertParallelBigLinkBounded: on that link the search prices
// the first e above the config's and the divisors of the routed experts
// above it, no more, and asking again for the same config prices
// nothing.
func TestFitExpertParallelBigLinkBounded(t *testing.T) {
	list, _ := Presets()
	q, _ := url.ParseQuery(bigLink)
	s := Decode(q, list)
	if s.WeightsDoNotFit() == "" {
		t.Fatalf("the link's weights fit: errors %v", s.Errs)
	}
	x, moe := s.Cfg.RoutedExperts()
	if !moe {
		t.Fatal("the default model has no routed experts")
	}
	above := 0
	for d := s.Cfg.FC2.ExpertParallel + 1; d <= x; d++ {
		if x%d == 0 {
			above++
		}
	}
	s.memo.fitE.Forget()
	before := CountedSteps()
	e, _, ok := s.FitExpertParallel()
	mid := CountedSteps()
	if ok {
		t.Errorf("the link fits at E = %d", e)
	}
	if got := mid.Sub(before).Resolve; got > int64(1+above) {
		t.Errorf("%d Resolves, want at most %d (the next E and the %d divisors of %d above %d)", got, 1+above, above, x, s.Cfg.FC2.ExpertParallel)
	}
	again := s.Clone() // the same config, another copy of it
	again.Cfg = s.Cfg.Clone()
	again.FitExpertParallel()
	if got := CountedSteps().Sub(mid); got.Resolve != 0 || got.FitE != 1 {
		t.Errorf("asked again for the same config: %+v, want no Resolve", got)
	}
}
