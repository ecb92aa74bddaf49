package estimator

import (
	"math/rand/v2"
	"testing"
)

// A reference for the GPU placement path written from docs/model.md §15
// alone: every child listed one by one (cut by refCuts, priced by §13's
// artPrice as refArtRung does), the six candidates by name, each child
// placed on its own, the once-per-plan charges on the first child, and the
// ladder walked rung by rung. TestGPUPathMatchesReference compares it with
// the estimator's gpuDecide, which groups alike children and codes the
// placements, on random configs.

type refGPUChild struct {
	rows, q, rho, out, ad int64
}

type refGPUResult struct {
	decision  Decision
	children  int64
	gpu, host int64
	state     string
	device    string
}

var refCandidates = [][2]string{{"gpu", "model"}, {"gpu", "cpu"}, {"cpu", "model"}, {"cpu", "cpu"}, {"replay", "model"}, {"replay", "cpu"}}

// refGPUPlan places one plan's children (§15.2-§15.5): the first fitting
// candidate, else the last.
func refGPUPlan(r *Resolved, kids []refGPUChild, floor int64) (fits bool, state, device string, gpu, host int64) {
	g := &r.art.gpu
	states := []string{"auto", "gpu", "cpu", "replay"}
	devices := []string{"auto", "model", "cpu"}
	slot := g.slotBytes
	if slot < 0 {
		slot = 0 // these configs have no resident group
	}
	budget := max(0, min(g.hostLimit, g.hostAvailable)-min(4<<30, g.hostLimit/10)) / g.hostRanks
	for _, cand := range refCandidates {
		st := states[g.state]
		if st == "auto" {
			st = cand[0]
			if st == "replay" && !g.allowReplay {
				st = "cpu"
			}
			if st == "cpu" && !g.allowCPU {
				st = "gpu"
			}
		}
		dev := devices[g.out]
		if dev == "auto" {
			dev = cand[1]
		}
		gpu, host = 0, 0
		var workspace int64
		for i, k := range kids {
			retained := max(k.out, k.rho)
			peak := max(k.q, retained+max(0, k.q-retained))
			var replay, credit, corrWS int64
			if g.correction == 2 {
				corrWS = k.q
			}
			if r.Grad {
				labels := int64(0)
				per := int64(56)
				if r.Outputs.Logprobs {
					labels, per = k.rows, 72
				}
				replay = per*k.rows + 65536
				if g.correction > 0 {
					lp := 4 * (k.rows*r.Outputs.TopK + labels)
					if g.correction == 2 {
						lp *= 2
					}
					replay += 8*k.rows*r.Outputs.TopK + lp
				}
				if k.ad > 0 {
					credit = min(k.ad, r.L*r.art.gamma+r.art.omicron)
				}
				if i == 0 {
					pending := r.L*r.art.gamma + r.art.omicron
					s := max(slot, pending)
					gpu += s + 2*s + pending // the version capture and the staging reserve
				}
			}
			var keep, physical int64
			if !r.Grad {
				if dev == "cpu" {
					host += k.out
				} else {
					keep = k.out
				}
				physical = keep
			} else {
				switch st {
				case "gpu":
					physical = retained
				case "cpu":
					physical = k.out
				}
				keep = physical
				if dev != "cpu" {
					keep += k.out
				} else {
					host += k.out
				}
				host += replay
				if st == "cpu" {
					host += retained - k.out
				}
			}
			gpu += keep
			workspace = max(workspace, peak-physical-credit, corrWS)
		}
		gpu = max(gpu+workspace, floor)
		if gpu <= r.available() && host <= budget {
			return true, st, dev, gpu, host
		}
	}
	return false, "", "", gpu, host
}

// refGPUDecide walks §15.1's ladder with refGPUPlan.
func refGPUDecide(e *evaluator, v variant) refGPUResult {
	r, c := e.r, &e.c
	m := r.sequences()
	masses := make([]int64, m)
	for j := range masses {
		masses[j] = r.S
	}
	masses[m-1] = r.N - (m-1)*r.S
	koef := r.artKoef(c, v)
	rung := func(k int64) ([]refGPUChild, int64) {
		chunks := refCuts(masses, int(min(k, m)))
		kids := make([]refGPUChild, len(chunks))
		rows := make([]int64, len(chunks))
		for i, ch := range chunks {
			p := artPiece{q: int64(len(ch)), s: r.S, last: ch[len(ch)-1]}
			var ac artCost
			r.artPrice(c, &koef, p, false, nil, &ac)
			kids[i] = refGPUChild{rows: p.rows(), q: ac.q, rho: ac.rho, out: ac.out, ad: ac.kad}
			rows[i] = p.rows()
		}
		return kids, refSplitFloor(r, c, rows, 0)
	}
	kids, floor := rung(1)
	fits, st, dev, gpu, host := refGPUPlan(r, kids, floor)
	if fits {
		return refGPUResult{Admit, 1, gpu, host, st, dev}
	}
	if m == 1 || r.EP > 1 {
		return refGPUResult{Refuse, 0, gpu, host, "", ""}
	}
	for k := int64(2); ; k = min(m, 2*k) {
		kids, floor = rung(k)
		fits, st, dev, gpu, host = refGPUPlan(r, kids, floor)
		if fits {
			return refGPUResult{Split, int64(len(kids)), gpu, host, st, dev}
		}
		if k >= m {
			return refGPUResult{Refuse, 0, gpu, host, "", ""}
		}
	}
}

// randomGPUConfig is randomArtConfig on the GPU path with random options,
// host memory and slot bytes, and the GPU and host budgets placed near one
// of its own candidates.
func randomGPUConfig(rng *rand.Rand) Config {
	c := randomArtConfig(rng)
	c.ProfileMemory = nil // split floors are §13.7's; keep some below
	if rng.IntN(4) == 0 {
		c = randomArtConfig(rng)
	}
	g := &c.Art.ArtGPUConfig
	on := true
	g.GPUPlacement = &on
	b := func(p int) *bool {
		v := rng.IntN(p) != 0
		return &v
	}
	g.AllowCPUOffload, g.AllowReplay = b(4), b(4)
	g.BackwardState = Int64(oneOf(rng, 0, 0, 0, 1, 2, 3))
	if *g.BackwardState == 2 {
		g.AllowCPUOffload = b(1)
	}
	if *g.BackwardState == 3 {
		g.AllowReplay = b(1)
	}
	g.OutputDevice = Int64(oneOf(rng, 0, 1, 1, 2))
	g.GradientCorrection = Int64(oneOf(rng, 0, 1, 1, 2))
	g.HostRanks = Int64(oneOf(rng, 1, 1, 2, 8))
	g.LoRASlotBytes = Int64(oneOf(rng, 0, 1<<20, between(rng, 0, 1<<34)))
	r, err := c.Resolve()
	if err != nil {
		return c
	}
	e := newEvaluator(&r)
	var gp gpuPlan
	e.gpuRung(between(rng, 1, max(1, r.sequences())), r.candidateVariant(), &gp)
	cd := gp.cands[rng.IntN(gp.tried)]
	jitter := func(x int64) int64 {
		switch rng.IntN(3) {
		case 0:
			return max(0, x+between(rng, -1, 1))
		case 1:
			return x / 100 * between(rng, 80, 120)
		}
		return x
	}
	c.Budget.CapacityBytes = min(max(jitter(cd.gpu), 1), 1<<50)
	host := min(jitter(cd.host)+min(4<<30, 1<<50/10), 1<<50)
	g.HostMemoryBytes, g.HostAvailableBytes = Int64(1<<50), Int64(host*r.art.gpu.hostRanks)
	if *g.HostAvailableBytes > 1<<50 {
		g.HostAvailableBytes = Int64(1 << 50)
	}
	return c
}

func TestGPUPathMatchesReference(t *testing.T) {
	rng := newRand()
	n, byDecision := 0, map[string]int{}
	for i := 0; i < 3000; i++ {
		c := randomGPUConfig(rng)
		r, err := c.Resolve()
		if err != nil {
			continue
		}
		for _, v := range []variant{baselineVariant(), r.candidateVariant()} {
			e := newEvaluator(&r)
			want := refGPUDecide(e, v)
			if e.c.err != nil {
				continue
			}
			e2 := newEvaluator(&r)
			pl := e2.gpuDecide(v, &e2.art.gp)
			if e2.c.err != nil {
				t.Fatalf("config %d: the estimator overflows where the reference does not: %v", i, e2.c.err)
			}
			gp := &e2.art.gp
			got := refGPUResult{pl.decision, 0, gp.gpuRequired, gp.hostReq, pl.gpuPlace.BackwardState(), pl.gpuPlace.OutputDevice()}
			if pl.decision != Refuse {
				got.children = pl.k
			}
			if got != want {
				t.Fatalf("config %d (%s):\n got %+v\nwant %+v", i, MarshalConfig(c), got, want)
			}
			n++
			byDecision[want.decision.String()+" "+want.state]++
		}
	}
	if n < 3000 {
		t.Errorf("only %d comparisons", n)
	}
	for _, k := range []string{"admit gpu", "split gpu", "split cpu", "split replay", "refuse "} {
		if byDecision[k] == 0 {
			t.Errorf("no comparison decided %q: %v", k, byDecision)
		}
	}
	t.Logf("%d comparisons: %v", n, byDecision)
}

// TestGPUPathSweepMatchesEstimate: a sweep on the GPU path, along every
// axis, decides each point as Estimate does (decision, required and lower
// bound bytes, placement), the baseline on the estimator path in a third
// of the configs.
func TestGPUPathSweepMatchesEstimate(t *testing.T) {
	rng := rand.New(rand.NewPCG(0x6b0, 35))
	n := 0
	for i := 0; i < 60; i++ {
		c := randomGPUConfig(rng)
		if i%3 == 0 {
			c.Baseline = &Baseline{Changes: Changes{HeadEagerWorkspace: true}, Overrides: Overrides{"art.gpu_placement": {Bool: false}}}
		}
		if _, err := c.ResolveRevisions(); err != nil {
			continue
		}
		c = explicit(t, c)
		sweepBesideEstimate(t, rng, c, 4, func(axis string, x int64, pt Point, cx Config, res Result, err error) {
			if err != nil {
				return
			}
			for rev, out := range []*Outcome{&res.Baseline, &res.Candidate} {
				p := pt.Rev[rev]
				place := ""
				if out.Placement != nil {
					place = out.Placement.BackwardState + "/" + out.Placement.OutputDevice
				}
				got := ""
				if p.Placement != PlacementNone {
					got = p.Placement.BackwardState() + "/" + p.Placement.OutputDevice()
				}
				if p.Decision != out.Decision || p.RequiredBytes != int64(out.RequiredBytes) || p.LowerBoundBytes != int64(out.LowerBoundBytes) || (got != place && place != "/") {
					t.Fatalf("%s = %d rev %d: sweep %v %d (lb %d) %s, Estimate %v %d (lb %d) %s\n%s", axis, x, rev, p.Decision, p.RequiredBytes,
						p.LowerBoundBytes, got, out.Decision, out.RequiredBytes, out.LowerBoundBytes, place, MarshalConfig(cx))
				}
				n++
			}
		})
	}
	if n < 1000 {
		t.Errorf("only %d points compared", n)
	}
}

// BenchmarkSweep512ArtGPU is BenchmarkSweep512Art on ART's GPU placement
// path (docs/model.md §15), which prices every rung without pruning.
//
//	go test -run '^$' -bench 'Sweep512Art' ./estimator/
func BenchmarkSweep512ArtGPU(b *testing.B) {
	c := Default()
	c.Profile = ProfileArt
	on := true
	c.Art.GPUPlacement = &on
	benchmarkSweep(b, c)
}
