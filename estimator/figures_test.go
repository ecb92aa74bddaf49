package estimator

import (
	"testing"
)

// The reference figures of docs/model.md §7 that the model produces,
// byte-exact, and the FC2 per-token figures of presets.md.

// pieceOf prices one piece of n rows of c as variant v, failing the test on
// an overflow.
func pieceOf(t *testing.T, c Config, n int64, v variant) piece {
	t.Helper()
	r, err := c.Resolve()
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	var cl calc
	var pc piece
	r.price(&cl, n, v, &pc)
	if cl.err != nil {
		t.Fatalf("price(%d): %v", n, cl.err)
	}
	return pc
}

// tensorBytes returns the bytes of the named tensor of stage s, or -1.
func (pc *piece) tensorBytes(s Stage, name string) int64 {
	for _, t := range pc.tensors[s][:pc.ntens[s]] {
		if t.name == name {
			return t.bytes
		}
	}
	return -1
}

func (pc *piece) tensorNames(s Stage) []string {
	var names []string
	for _, t := range pc.tensors[s][:pc.ntens[s]] {
		names = append(names, t.name)
	}
	return names
}

// TestFigureGDNComponents: seed 000 measured 1,603,339,264 bytes (1.493
// GiB) for qkv, z, beta and alpha at 64,902 rows; unrounded the same four
// tensors are 64,902 x (8192 + 4096 + 32 + 32) x 2 = 1,603,339,008 bytes.
func TestFigureGDNComponents(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		round int64
		want  int64
	}{{512, 1_603_339_264}, {1, 1_603_339_008}} {
		c := Default()
		c.AllocatorRoundBytes = tc.round
		pc := pieceOf(t, c, 64902, baselineVariant())
		var sum int64
		for _, name := range []string{"qkv", "z", "beta", "alpha"} {
			b := pc.tensorBytes(StageGDN, name)
			if b < 0 {
				t.Fatalf("round %d: the baseline's gdn stage has no %q tensor: %v", tc.round, name, pc.tensorNames(StageGDN))
			}
			sum += b
		}
		if sum != tc.want {
			t.Errorf("round %d: qkv+z+beta+alpha = %s, want %s", tc.round, Bytes(sum), Bytes(tc.want))
		}
		// The candidate releases exactly those four tensors.
		released := pieceOf(t, c, 64902, variant{gdnRelease: true})
		if d := pc.stage[StageGDN] - released.stage[StageGDN]; d != tc.want {
			t.Errorf("round %d: early release saves %d bytes in the gdn stage, want %d", tc.round, d, tc.want)
		}
	}
	if got, want := Bytes(1_603_339_264).String(), "1,603,339,264 bytes (1.493 GiB)"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
}

// TestFigureGDNSavingLeavesPeak: the GDN seed's point, "1.493 GiB less in
// the component, zero less in the whole model", holds in the default
// candidate, whose peak is the fc2 stage: releasing the GDN components
// does not change the request's required bytes.
func TestFigureGDNSavingLeavesPeak(t *testing.T) {
	t.Parallel()
	c := Default()
	r, err := c.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	var cl calc
	var pc piece
	with := r.requiredOf(&cl, 1, variant{eagerHead: true, fc2Known: true, gdnRelease: true}, &pc).required
	without := r.requiredOf(&cl, 1, variant{eagerHead: true, fc2Known: true}, &pc).required
	if cl.err != nil {
		t.Fatal(cl.err)
	}
	if with != without {
		t.Errorf("default candidate: required %d with early release, %d without; want equal (fc2 sets the peak)", with, without)
	}
}

// TestFigureHeadD: D at C = 512, V = 151,936 is 155,582,464 bytes; the
// eager statistics workspace 7D is 1,089,077,248.
func TestFigureHeadD(t *testing.T) {
	t.Parallel()
	for _, round := range []int64{1, 512} {
		c := Default()
		c.AllocatorRoundBytes = round
		base := pieceOf(t, c, 64902, baselineVariant())
		// Default targets every row: 3 Dt = 3D > D, so the baseline
		// holds three target buffers of D each.
		if got := base.stage[StageHead]; got != 3*155_582_464 {
			t.Errorf("round %d: baseline head = %d, want 3 x 155,582,464", round, got)
		}
		c.Request.TargetRows = Int64(0)
		d := pieceOf(t, c, 64902, baselineVariant())
		if got := d.stage[StageHead]; got != 155_582_464 {
			t.Errorf("round %d: D = %d, want 155,582,464", round, got)
		}
		eager := pieceOf(t, c, 64902, variant{eagerHead: true})
		if got := eager.stage[StageHead]; got != 1_089_077_248 {
			t.Errorf("round %d: 7D = %d, want 1,089,077,248", round, got)
		}
	}
}

// TestFigureFC2PerRow: one row of Qwen3-Next, no rounding: known metadata
// 10 x (512 + 3 x 2048) x 2 = 133,120 bytes; the fallback 10 x 2 x 2048 x
// 2 = 81,920.
func TestFigureFC2PerRow(t *testing.T) {
	t.Parallel()
	c := Default()
	c.AllocatorRoundBytes = 1
	c.Request.Rows, c.Request.SequenceRows = 1, 1
	if got := pieceOf(t, c, 1, variant{fc2Known: true}).stage[StageFC2]; got != 133_120 {
		t.Errorf("known: %d bytes per row, want 133,120", got)
	}
	if got := pieceOf(t, c, 1, baselineVariant()).stage[StageFC2]; got != 81_920 {
		t.Errorf("baseline: %d bytes per row, want 81,920", got)
	}
	c.FC2.LoRAMetadataKnown = false
	if got := pieceOf(t, c, 1, variant{fc2Known: true}).stage[StageFC2]; got != 81_920 {
		t.Errorf("metadata unknown: %d bytes per row, want the fallback 81,920", got)
	}
}

// TestFigurePresetFC2: presets.md's FC2 bytes per token with known LoRA
// metadata, K x (I + 3 x H) x 2, for each MoE model, and no fc2 stage for
// the dense one.
func TestFigurePresetFC2(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		model   string
		v, h, k int64
		moe     int64
		want    int64
	}{
		{"Qwen3-Next-80B-A3B", 151936, 2048, 10, 512, 133_120},
		{"Qwen3-30B-A3B", 151936, 2048, 8, 768, 110_592},
		{"Qwen3-235B-A22B", 151936, 4096, 8, 1536, 221_184},
		{"DeepSeek-V3", 129280, 7168, 8, 2048, 376_832},
		{"gpt-oss-120b", 201088, 2880, 4, 2880, 92_160},
		{"Mixtral-8x7B", 32000, 4096, 2, 14336, 106_496},
		{"qwen3_5_moe", 248320, 2048, 8, 512, 8 * (512 + 3*2048) * 2},
		{"Llama-3.1-8B", 128256, 4096, 0, 14336, -1},
	} {
		c := Default()
		c.Model.VocabSize, c.Model.HiddenSize = tc.v, tc.h
		c.Model.NumExpertsPerTok, c.Model.MoEIntermediateSize = tc.k, tc.moe
		c.AllocatorRoundBytes = 1
		c.Request.Rows, c.Request.SequenceRows = 1, 1
		pc := pieceOf(t, c, 1, variant{fc2Known: true})
		if tc.want < 0 {
			if pc.present[StageFC2] || pc.stage[StageFC2] != 0 {
				t.Errorf("%s: dense model has an fc2 stage of %d bytes", tc.model, pc.stage[StageFC2])
			}
			continue
		}
		if got := pc.stage[StageFC2]; got != tc.want {
			t.Errorf("%s: fc2 known = %d bytes per token, want %d", tc.model, got, tc.want)
		}
		// And at many rows it is exactly rows times that, with no rounding.
		c.Request.Rows, c.Request.SequenceRows = 4096, 4096
		if got := pieceOf(t, c, 4096, variant{fc2Known: true}).stage[StageFC2]; got != 4096*tc.want {
			t.Errorf("%s: fc2 known at 4,096 rows = %d, want %d", tc.model, got, 4096*tc.want)
		}
	}
}

// TestFigureWholeModelPeak: the seed's whole-model forward peak is shown
// as the seeds write it. (The whole-model peaks themselves are
// measurements, not outputs of the model.)
func TestFigureWholeModelPeak(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		b    Bytes
		want string
	}{
		{94_780_217_856, "94,780,217,856 bytes (88.271 GiB)"},
		{1_603_339_264, "1,603,339,264 bytes (1.493 GiB)"},
		{0, "0 bytes (0.000 GiB)"},
		{999, "999 bytes (0.000 GiB)"},
		{1000, "1,000 bytes (0.000 GiB)"},
		{1 << 30, "1,073,741,824 bytes (1.000 GiB)"},
		{-(1 << 30), "-1,073,741,824 bytes (-1.000 GiB)"},
		{150_754_820_096, "150,754,820,096 bytes (140.401 GiB)"},
		{1<<63 - 1, "9,223,372,036,854,775,807 bytes (8589934592.000 GiB)"},
	} {
		if got := tc.b.String(); got != tc.want {
			t.Errorf("Bytes(%d).String() = %q, want %q", int64(tc.b), got, tc.want)
		}
	}
}

// TestFigureWarmSplit: seed 000's warm run split 64,902 rows into children
// of 33,706 and 31,196 rows. With sequence_rows = 16,853 the request holds
// 4 sequences (3 x 16,853 + 14,343) and that split is exactly the k = 2
// rung: 2 sequences, then 16,853 + 14,343.
func TestFigureWarmSplit(t *testing.T) {
	t.Parallel()
	c := Default()
	c.Request.SequenceRows = 16853
	m := refFrom(c)
	if got := m.childRows(2); len(got) != 2 || got[0] != 33706 || got[1] != 31196 {
		t.Fatalf("reference children of k = 2: %v", got)
	}
	r, err := c.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	rows, count, n := r.childShapes(2)
	if n != 2 || rows[0] != 33706 || count[0] != 1 || rows[1] != 31196 || count[1] != 1 {
		t.Errorf("childShapes(2) = %v x %v (%d shapes), want 33,706 x 1 and 31,196 x 1", rows[:n], count[:n], n)
	}

	// Force the split: the budget holds the k = 2 rung of both revisions
	// but not the whole request.
	var cl calc
	var pc piece
	need := max(r.requiredOf(&cl, 2, baselineVariant(), &pc).required,
		r.requiredOf(&cl, 2, r.candidateVariant(), &pc).required)
	whole := r.requiredOf(&cl, 1, baselineVariant(), &pc).required
	if cl.err != nil || need >= whole {
		t.Fatalf("k = 2 needs %d, whole %d (err %v)", need, whole, cl.err)
	}
	c.Budget.ReservePermille, c.Budget.InUseBytes, c.Budget.CapacityBytes = 0, 0, need
	res, err := Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []Outcome{res.Baseline, res.Candidate} {
		if o.Decision != Split || o.Children != 2 || o.ChildRows != 33706 {
			t.Errorf("got %v into %d children of at most %d rows, want split into 2 of 33,706", o.Decision, o.Children, o.ChildRows)
		}
		if o.MarginBytes < 0 {
			t.Errorf("split with margin %d", o.MarginBytes)
		}
	}
	checkAgainstRef(t, "warm split", c)
}
