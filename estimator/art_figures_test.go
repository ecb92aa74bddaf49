package estimator

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The reference figures of docs/model.md §13.10, each computed by the
// package and compared with the figure.

// artDefault is the default config (Qwen3-Next-80B-A3B on an H200) under
// the art profile.
func artDefault() Config {
	c := Default()
	c.Profile = ProfileArt
	return c
}

func mustResolve(t *testing.T, c Config) Resolved {
	t.Helper()
	r, err := c.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestArtSafetyMatchesFloat(t *testing.T) {
	t.Parallel()
	const x0 = 511_772_684_928_469
	r := mustResolve(t, artDefault())
	var c calc
	art := func(x int64) int64 { return int64(float64(x) * 1.1) } // ART's int(x * 1.1)
	rng := rand.New(rand.NewPCG(13, 2))
	for i := 0; i < 200_000; i++ {
		x := rng.Int64N(x0)
		if i < 100_000 {
			x = x0 - 1 - int64(i)
		}
		if got, want := r.withSafety(&c, x), art(x); got != want {
			t.Fatalf("safe(%d) = %d, ART's int(x * 1.1) = %d", x, got, want)
		}
	}
	if got := r.withSafety(&c, x0); got == art(x0) || got+1 != art(x0) {
		t.Errorf("at X0 = %d: safe = %d, ART = %d; want ART one byte higher", int64(x0), got, art(x0))
	}
	eleven, stored := 1.1, float64(2476979795053773)
	if eleven != math.Ldexp(stored, -51) {
		t.Error("1.1 is not stored as 2476979795053773 / 2^51")
	}
}

func TestArtMoECoefficients(t *testing.T) {
	t.Parallel()
	r := mustResolve(t, artDefault())
	if mf, mg := r.artMoE(r.candidateVariant()); mf != 239_616 || mg != 243_712 {
		t.Errorf("Mf, Mg = %d, %d; want 239,616 and 243,712", mf, mg)
	}
	if mf, mg := r.artMoE(baselineVariant()); mf != 86_016 || mg != 90_112 {
		t.Errorf("fallback Mf, Mg = %d, %d; want 86,016 and 90,112", mf, mg)
	}
}

func TestArtDefaultPieceFigures(t *testing.T) {
	t.Parallel()
	r := mustResolve(t, artDefault())
	var c calc
	p := artPiece{q: 16, s: 4096, last: 64902 - 15*4096}
	if p.rows() != 64902 || r.sequences() != 16 {
		t.Fatalf("piece of %d rows, %d sequences", p.rows(), r.sequences())
	}
	on, off := r.artKoef(&c, r.candidateVariant()), r.artKoef(&c, baselineVariant())
	h, _, _ := r.artHeadRows(&on, p)
	checks := []struct {
		what      string
		got, want int64
	}{
		{"TB", r.artTargetBytes(&c, &on, p, h), 2_437_312},
		{"HC on", r.artHead(&c, &on, p), 1_091_514_560},
		{"HC off", r.artHead(&c, &off, p), 466_747_392},
	}
	var ac artCost
	r.artPrice(&c, &on, p, false, nil, &ac)
	checks = append(checks, []struct {
		what      string
		got, want int64
	}{{"B", ac.b, 12_760_252_416}, {"W", ac.w, 15_817_396_224}, {"G", ac.g, 19_345_022_336},
		{"R candidate", ac.q, 49_426_185_204}}...)
	r.artPrice(&c, &off, p, false, nil, &ac)
	checks = append(checks, struct {
		what      string
		got, want int64
	}{"R baseline", ac.q, 38_460_343_284})
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %s, want %s", ch.what, Group(ch.got), Group(ch.want))
		}
	}
	if c.err != nil {
		t.Fatal(c.err)
	}
}

// TestArtDefaultEstimate: the figures through Estimate, beside the
// seeds' prices of the same config.
func TestArtDefaultEstimate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		profile    string
		cand, base int64
	}{{ProfileArt, 49_426_185_204, 38_460_343_284}, {"", 23_540_293_427, 21_091_256_524}} {
		c := Default()
		c.Profile = tc.profile
		res, err := Estimate(c)
		if err != nil {
			t.Fatal(err)
		}
		if res.Candidate.RequiredBytes != Bytes(tc.cand) || res.Baseline.RequiredBytes != Bytes(tc.base) {
			t.Errorf("profile %q: required %d / %d, want %d / %d", tc.profile, res.Candidate.RequiredBytes, res.Baseline.RequiredBytes, tc.cand, tc.base)
		}
		if res.Candidate.Decision != Admit {
			t.Errorf("profile %q: %v", tc.profile, res.Candidate.Decision)
		}
	}
}

// artTestRank is the model of ART's trainer-rank memory tests
// (tests/unit/test_trainer_rank_pending_memory.py's rank_with_moe): H 2048,
// 40 layers, a padded vocabulary of 32, GDN 16/32 heads of 128, kernel 4,
// an output-projection LoRA of rank 1, K 8 experts of 512 with fused FC1,
// and the request of 8 sequences of 6,330 rows with targets.
func artTestRank() Config {
	c := Default()
	c.Profile = ProfileArt
	c.Model = ModelConfig{VocabSize: 32, HiddenSize: 2048, NumHiddenLayers: 40, NumExpertsPerTok: 8, MoEIntermediateSize: 512,
		LinearNumKeyHeads: 16, LinearKeyHeadDim: 128, LinearNumValueHeads: 32, LinearValueHeadDim: 128,
		SharedExpertIntermediateSize: Int64(0), LinearConvKernelDim: Int64(4)}
	c.Head.PaddedVocabMultiple = Int64(32)
	c.Art.GDNOutProjLoRARank = Int64(1)
	c.Request = RequestConfig{Rows: 50_640, SequenceRows: 6_330, Grad: true, Outputs: Outputs{Logprobs: true}}
	return c
}

func TestArtTrainerTestFigures(t *testing.T) {
	t.Parallel()
	price := func(t *testing.T, c Config) int64 {
		t.Helper()
		res, err := Estimate(c)
		if err != nil {
			t.Fatal(err)
		}
		return int64(res.Candidate.RequiredBytes)
	}
	t.Run("pending", func(t *testing.T) {
		c := artTestRank()
		r := mustResolve(t, c)
		var calc calc
		k := r.artKoef(&calc, r.candidateVariant())
		if got := 50_640*k.pendRow + 8*k.pendSeq; got != 3_157_761_952 {
			t.Errorf("Pend(50,640, 8) = %s, want 3,157,761,952", Group(got))
		}
		if got := price(t, c); got != 32_296_192_297 {
			t.Errorf("with grad = %s, want 32,296,192,297 (M95)", Group(got))
		}
	})
	t.Run("shared no-grad", func(t *testing.T) {
		for _, gate := range []bool{false, true} {
			c := artTestRank()
			c.Model.SharedExpertIntermediateSize = Int64(512)
			c.FC2.SharedExpertGate = &gate
			c.Request.Grad = false
			if got := price(t, c); got != 11_636_565_600 {
				t.Errorf("gate %v: %s, want 11,636,565,600", gate, Group(got))
			}
		}
	})
	// test_supported_constructor_and_original_shape and
	// test_compiled_moe_retained_inputs_cold_floor: one MoE layer's price,
	// no checkpoint floor, no outputs.
	bare := func(rows int64, fused bool) Config {
		c := artTestRank()
		c.Request = RequestConfig{Rows: rows, SequenceRows: rows, Grad: true}
		c.FC2.FusedFC1 = &fused
		no := false
		c.Art.CheckpointFloor = &no
		return c
	}
	if got := price(t, bare(106_432, false)); got != 12_468_040_499 {
		t.Errorf("106,432 rows, I + 3O: %s, want 12,468,040,499", Group(got))
	}
	if got := price(t, bare(45_981, true)); got != 9_529_911_705 {
		t.Errorf("45,981 rows, fused FC1: %s, want 9,529,911,705", Group(got))
	}
}

func TestArtSeedCuts(t *testing.T) {
	t.Parallel()
	c := artDefault()
	c.Request.SequenceRows = 16_853
	r := mustResolve(t, c)
	var buf [8]int64
	rows, ok := r.artCutRows(2, buf[:])
	if !ok || len(rows) != 2 || rows[0] != 33_706 || rows[1] != 31_196 {
		t.Errorf("cuts of 64,902 rows at 16,853: %v, want [33706 31196]", rows)
	}
}
