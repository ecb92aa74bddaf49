package estimator

import (
	"math/rand"
	"testing"
)

// walkLayers is the count countLayers replaced, kept as the reference:
// every layer i in 0..L-1 asked whether it is MoE and whether it has full
// attention. Fields out of range take their defaults, as countLayers
// does (it also reports them).
func walkLayers(fam family, a *ArchFields, L int64) (nMoE, nAttn, nMoEAttn, denseAndAttn int64) {
	get := func(p *int64, lo, hi, def int64) int64 {
		if p == nil || *p < lo || *p > hi {
			return def
		}
		return *p
	}
	isMoE := func(int64) bool { return false }
	switch fam {
	case famMixtral, famGptOss:
		isMoE = func(int64) bool { return true }
	case famQwen2MoE, famQwen3MoE, famQwen3Next:
		step := get(a.DecoderSparseStep, 1, L, 1)
		dense := map[int64]bool{}
		for _, l := range a.MLPOnlyLayers {
			dense[l] = true
		}
		isMoE = func(i int64) bool { return !dense[i] && (i+1)%step == 0 }
	case famDeepSeekV3:
		kd := get(a.FirstKDenseReplace, 0, L, 0)
		f := get(a.MoELayerFreq, 1, L, 1)
		isMoE = func(i int64) bool { return i >= kd && i%f == 0 }
	}
	isFull := func(int64) bool { return true }
	if fam == famQwen3Next {
		if len(a.LayerTypes) > 0 {
			isFull = func(i int64) bool { return i < int64(len(a.LayerTypes)) && a.LayerTypes[i] == "full_attention" }
		} else {
			interval := get(a.FullAttentionInterval, 1, maxWidth, 4)
			isFull = func(i int64) bool { return (i+1)%interval == 0 }
		}
	}
	for i := int64(0); i < L; i++ {
		moe, full := isMoE(i), isFull(i)
		if moe {
			nMoE++
		}
		if full {
			nAttn++
		}
		if moe && full {
			nMoEAttn++
		}
		if !moe && full {
			denseAndAttn++
		}
	}
	return
}

// TestCountLayersEqualsWalk: the layer sets counted from their periods
// equal a walk over every layer, for every family, on random layer
// counts, steps, intervals, dense lists (out of range and repeated
// entries too) and layer_types lists (of the wrong length too).
func TestCountLayersEqualsWalk(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(14))
	fams := []family{famLlama, famMixtral, famGptOss, famQwen2MoE, famQwen3MoE, famQwen3Next, famDeepSeekV3}
	pick := func(lo, hi int64) *int64 {
		if rng.Intn(4) == 0 {
			return nil
		}
		v := lo + rng.Int63n(hi-lo+1)
		return &v
	}
	for n := range 20000 {
		fam := fams[rng.Intn(len(fams))]
		L := int64(rng.Intn(200))
		if rng.Intn(20) == 0 {
			L = -int64(rng.Intn(3))
		}
		a := &ArchFields{
			DecoderSparseStep:     pick(-1, L+2),
			FirstKDenseReplace:    pick(-1, L+2),
			MoELayerFreq:          pick(-1, L+2),
			FullAttentionInterval: pick(-1, 300),
		}
		for range rng.Intn(6) {
			a.MLPOnlyLayers = append(a.MLPOnlyLayers, int64(rng.Intn(int(L)+4))-2)
		}
		if rng.Intn(3) == 0 {
			k := int(L)
			if rng.Intn(5) == 0 {
				k = rng.Intn(210) + 1
			}
			for range max(k, 1) {
				a.LayerTypes = append(a.LayerTypes, []string{"full_attention", "linear_attention", "other"}[rng.Intn(3)])
			}
		}
		m := archModel{fam: fam, L: L}
		var errs ErrorList
		m.countLayers(a, true, &errs)
		wm, wa, wb, wd := walkLayers(fam, a, L)
		if m.nMoE != wm || m.nAttn != wa || m.nMoEAttn != wb || m.denseAndAttn != wd {
			t.Fatalf("case %d: family %d, L %d, %+v: counted (%d, %d, %d, %d), walked (%d, %d, %d, %d)",
				n, fam, L, a, m.nMoE, m.nAttn, m.nMoEAttn, m.denseAndAttn, wm, wa, wb, wd)
		}
	}
}

// TestCountLayersHuge: a layer count far out of range (Resolve reports
// it) is counted at once, not walked: a config is untrusted input.
func TestCountLayersHuge(t *testing.T) {
	t.Parallel()
	c := Default()
	c.Resident = &ResidentConfig{}
	c.FC2.ExpertParallel = 8
	c.Model.NumHiddenLayers = 1 << 62
	_, err := c.Resolve() // a walk would take centuries: go test's timeout would say so
	if fe := FieldErrors(err); len(fe) == 0 || fe[0].Field != "model.num_hidden_layers" {
		t.Errorf("2^62 layers: %v", err)
	}
}
