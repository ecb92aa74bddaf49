package estimator

import (
	"fmt"
	"slices"
	"testing"
)

// docs/model.md §3, one piece of n rows: each stage and each retained tensor in
// isolation, with expected bytes written out from its formulas.

// smallConfig is a model with round numbers and no rounding, so that each
// expected figure is a short product.
func smallConfig() Config {
	c := Default()
	c.Model = ModelConfig{
		VocabSize: 1000, HiddenSize: 8, NumHiddenLayers: 48,
		NumExpertsPerTok: 3, MoEIntermediateSize: 5,
		LinearNumKeyHeads: 2, LinearKeyHeadDim: 3, LinearNumValueHeads: 5, LinearValueHeadDim: 7,
	}
	c.Request = RequestConfig{Rows: 4096, SequenceRows: 4096, Grad: true, Outputs: Outputs{Logprobs: true}}
	c.Head.ChunkRows = 512
	c.AllocatorRoundBytes = 1
	return c
}

// TestHeadPaths covers every row of docs/model.md §3's head table, for the
// baseline and with head_eager_workspace on. V = 1000, C = 512, N = P =
// 4096, so D = 512 x 1000 x 2 = 1,024,000.
func TestHeadPaths(t *testing.T) {
	t.Parallel()
	const d = 512 * 1000 * 2
	dt := func(t int64) int64 { return min(t, 512) * 1000 * 2 }
	type out = Outputs
	for _, tc := range []struct {
		name      string
		grad      bool
		target    int64 // T; -1 = default (P)
		outputs   Outputs
		base      int64
		baseNames []string
		eager     int64
		eagerName []string
	}{
		{"statistics, grad, T > 0, 3 Dt > D", true, -1, out{Logprobs: true},
			3 * d, []string{"target_buffer_0", "target_buffer_1", "target_buffer_2"},
			7 * d, []string{"logits_bf16", "logits_fp32", "shifted_fp32", "exp_fp32"}},
		{"statistics, grad, T = 200: 3 Dt > D", true, 200, out{Logprobs: true},
			3 * dt(200), []string{"target_buffer_0", "target_buffer_1", "target_buffer_2"}, 7 * d, nil},
		{"statistics, grad, T = 100: D > 3 Dt", true, 100, out{Logprobs: true},
			d, []string{"logits"}, 7 * d, nil},
		{"statistics, grad, T = 1: D > 3 Dt", true, 1, out{Logprobs: true}, d, []string{"logits"}, 7 * d, nil},
		{"top-k is statistics too", true, -1, out{TopK: 4}, 3 * d, nil, 7 * d, nil},
		{"top-k, T = 100", true, 100, out{TopK: 4}, d, nil, 7 * d, nil},
		{"statistics, grad, T = 0", true, 0, out{Logprobs: true}, d, []string{"logits"}, 7 * d, nil},
		{"statistics, no grad", false, -1, out{Logprobs: true}, d, []string{"logits"}, 7 * d, nil},
		{"top-k, no grad", false, -1, out{TopK: 2}, d, nil, 7 * d, nil},
		{"logits only, no grad", false, -1, out{Logits: true},
			d, []string{"logits"}, 3 * d, []string{"local_logits", "indexed_copy_0", "indexed_copy_1"}},
		{"logits only, no grad, hidden states too", false, -1, out{Logits: true, HiddenStates: true}, d, nil, 3 * d, nil},
		{"logits only, no grad, T = 0", false, 0, out{Logits: true}, d, nil, 3 * d, nil},
		{"logits only with grad", true, -1, out{Logits: true}, d, []string{"logits"}, d, []string{"logits"}},
		{"no head output, grad", true, -1, out{}, d, []string{"logits"}, d, []string{"logits"}},
		{"no head output, no grad", false, -1, out{}, d, nil, d, nil},
		{"hidden states only, no grad", false, -1, out{HiddenStates: true}, d, nil, d, nil},
		{"statistics + logits, grad: statistics", true, -1, out{Logprobs: true, Logits: true}, 3 * d, nil, 7 * d, nil},
		{"statistics + logits, grad, T = 100", true, 100, out{Logprobs: true, Logits: true}, d, nil, 7 * d, nil},
		{"statistics + logits, no grad: statistics", false, -1, out{Logprobs: true, Logits: true}, d, nil, 7 * d, nil},
		{"top-k + logits, no grad", false, -1, out{TopK: 1, Logits: true}, d, nil, 7 * d, nil},
	} {
		c := smallConfig()
		c.Request.Grad, c.Request.Outputs = tc.grad, tc.outputs
		if tc.target >= 0 {
			c.Request.TargetRows = Int64(tc.target)
		}
		base := pieceOf(t, c, 4096, baselineVariant())
		eager := pieceOf(t, c, 4096, variant{eagerHead: true})
		if got := base.stage[StageHead]; got != tc.base {
			t.Errorf("%s: baseline head = %d (%v), want %d", tc.name, got, base.tensorNames(StageHead), tc.base)
		}
		if got := eager.stage[StageHead]; got != tc.eager {
			t.Errorf("%s: eager head = %d (%v), want %d", tc.name, got, eager.tensorNames(StageHead), tc.eager)
		}
		if tc.baseNames != nil && !slices.Equal(base.tensorNames(StageHead), tc.baseNames) {
			t.Errorf("%s: baseline head tensors %v, want %v", tc.name, base.tensorNames(StageHead), tc.baseNames)
		}
		if tc.eagerName != nil && !slices.Equal(eager.tensorNames(StageHead), tc.eagerName) {
			t.Errorf("%s: eager head tensors %v, want %v", tc.name, eager.tensorNames(StageHead), tc.eagerName)
		}
		// The other toggles do not touch the head; the lower bound takes
		// the baseline's head whatever the toggles say.
		other := pieceOf(t, c, 4096, variant{fc2Known: true, gdnRelease: true})
		lower := pieceOf(t, c, 4096, lowerBoundVariant())
		if other.stage[StageHead] != tc.base || lower.stage[StageHead] != tc.base {
			t.Errorf("%s: head with fc2/gdn toggles %d, lower bound %d, want the baseline's %d",
				tc.name, other.stage[StageHead], lower.stage[StageHead], tc.base)
		}
	}
}

// TestHeadShortPiece: D and Dt use min(p, C) and min(t, C), and a piece's
// p and t are its share of P and T.
func TestHeadShortPiece(t *testing.T) {
	t.Parallel()
	c := smallConfig()
	c.Request.Rows, c.Request.SequenceRows = 1000, 100
	c.Request.ProjectedRows, c.Request.TargetRows = Int64(900), Int64(300)
	c.Head.ChunkRows = 1000
	// n = 100: p = ceil(100 x 900 / 1000) = 90, t = 30: 3 Dt = 90 x V x 2
	// = D: a tie, the bytes are the same either way.
	pc := pieceOf(t, c, 100, baselineVariant())
	if pc.p != 90 || pc.t != 30 || pc.stage[StageHead] != 90*1000*2 {
		t.Errorf("n = 100: p %d t %d head %d, want 90, 30, %d", pc.p, pc.t, pc.stage[StageHead], 90*1000*2)
	}
	// n = 7: p = ceil(6.3) = 7, t = ceil(2.1) = 3: 3 Dt = 9 x V x 2 > D.
	pc = pieceOf(t, c, 7, baselineVariant())
	if pc.p != 7 || pc.t != 3 || pc.stage[StageHead] != 3*3*1000*2 {
		t.Errorf("n = 7: p %d t %d head %d, want 7, 3, %d", pc.p, pc.t, pc.stage[StageHead], 3*3*1000*2)
	}
	eager := pieceOf(t, c, 7, variant{eagerHead: true})
	if eager.stage[StageHead] != 7*7*1000*2 {
		t.Errorf("n = 7 eager: head %d, want 7D = %d", eager.stage[StageHead], 7*7*1000*2)
	}
}

// TestHeadRoundsEachBuffer: with rounding, 7D is D + three FP32 buffers of
// min(p, C) x V x 4 bytes, each rounded on its own.
func TestHeadRoundsEachBuffer(t *testing.T) {
	t.Parallel()
	c := smallConfig()
	c.Model.VocabSize = 3
	c.Head.ChunkRows = 5
	c.AllocatorRoundBytes = 512
	// D = 5 x 3 x 2 = 30 -> 512; FP32 = 60 -> 512; 7D = 4 x 512.
	if got := pieceOf(t, c, 4096, variant{eagerHead: true}).stage[StageHead]; got != 4*512 {
		t.Errorf("eager head = %d, want 2,048 (four tensors of one block)", got)
	}
	// Baseline with T = P: three target buffers of one block each.
	if got := pieceOf(t, c, 4096, baselineVariant()).stage[StageHead]; got != 3*512 {
		t.Errorf("baseline head = %d, want 1,536", got)
	}
}

// TestFC2 covers the fc2 stage: the fallback, known metadata with and
// without the toggle, expert parallelism routing ceil(1.5 K) rows per
// token, and K = 0.
func TestFC2(t *testing.T) {
	t.Parallel()
	const n, o, i, b = 10, 8, 5, 2 // smallConfig: H = 8, moe = 5
	for _, tc := range []struct {
		name   string
		k, ep  int64
		known  bool
		toggle bool
		want   int64 // -1: no fc2 stage
		names  []string
	}{
		{"fallback: toggle off", 3, 1, true, false, 2 * n * 3 * o * b, []string{"base_out", "adapter_out"}},
		{"fallback: metadata unknown", 3, 1, false, true, 2 * n * 3 * o * b, []string{"base_out", "adapter_out"}},
		{"known", 3, 1, true, true, n * 3 * (i + 3*o) * b, []string{"base_out", "adapter_out", "input", "combined_out"}},
		{"EP > 1: K = 3 routes 5", 3, 2, true, false, 2 * n * 5 * o * b, nil},
		{"EP > 1: K = 3 routes 5, known", 3, 8, true, true, n * 5 * (i + 3*o) * b, nil},
		{"EP > 1: K = 1 routes 2", 1, 1024, true, true, n * 2 * (i + 3*o) * b, nil},
		{"EP > 1: K = 10 routes 15", 10, 2, false, true, 2 * n * 15 * o * b, nil},
		{"EP = 1: K = 10 routes 10", 10, 1, false, true, 2 * n * 10 * o * b, nil},
		{"K = 0: no fc2 stage", 0, 1, true, true, -1, nil},
		{"K = 0, EP > 1: no fc2 stage", 0, 4, true, true, -1, nil},
	} {
		c := smallConfig()
		c.Model.NumExpertsPerTok, c.FC2.ExpertParallel, c.FC2.LoRAMetadataKnown = tc.k, tc.ep, tc.known
		pc := pieceOf(t, c, n, variant{fc2Known: tc.toggle})
		if tc.want < 0 {
			if pc.present[StageFC2] || pc.stage[StageFC2] != 0 {
				t.Errorf("%s: fc2 stage present with %d bytes", tc.name, pc.stage[StageFC2])
			}
			res, err := Estimate(c)
			if err != nil {
				t.Fatal(err)
			}
			if s := res.Candidate.Stage("fc2"); len(s.Tensors) != 0 || s.Bytes != 0 {
				t.Errorf("%s: the result reports an fc2 stage %v", tc.name, s)
			}
			continue
		}
		if got := pc.stage[StageFC2]; got != tc.want {
			t.Errorf("%s: fc2 = %d (%v), want %d", tc.name, got, pc.tensorNames(StageFC2), tc.want)
		}
		if tc.names != nil && !slices.Equal(pc.tensorNames(StageFC2), tc.names) {
			t.Errorf("%s: tensors %v, want %v", tc.name, pc.tensorNames(StageFC2), tc.names)
		}
		// The baseline and the lower bound never add the known tensors.
		for _, v := range []variant{baselineVariant(), lowerBoundVariant()} {
			if got := pieceOf(t, c, n, v).ntens[StageFC2]; got != 2 {
				t.Errorf("%s: variant %+v has %d fc2 tensors, want 2", tc.name, v, got)
			}
		}
	}
	// Explicit widths override the defaults (moe_intermediate_size,
	// hidden_size).
	c := smallConfig()
	c.FC2.InputWidth, c.FC2.OutputWidth = Int64(100), Int64(7)
	if got, want := pieceOf(t, c, n, variant{fc2Known: true}).stage[StageFC2], int64(n*3*(100+3*7)*b); got != want {
		t.Errorf("explicit widths: fc2 = %d, want %d", got, want)
	}
}

// TestGDN: widths qkv = 2 Hk Dk + Hv Dv, z = Hv Dv, beta = alpha = Hv; the
// released form keeps base_out, lora_cat and sum_out of the full width W;
// the baseline adds the four components. BF16 whatever dtype_bytes says.
func TestGDN(t *testing.T) {
	t.Parallel()
	const n = 10
	// smallConfig: Hk 2, Dk 3, Hv 5, Dv 7: qkv 47, z 35, beta = alpha = 5,
	// W = 92.
	const full, qkv, z, ba = n * 92 * 2, n * 47 * 2, n * 35 * 2, n * 5 * 2
	for _, dtype := range []int64{1, 2, 8} {
		c := smallConfig()
		c.FC2.DtypeBytes = dtype
		base := pieceOf(t, c, n, baselineVariant())
		released := pieceOf(t, c, n, variant{gdnRelease: true})
		lower := pieceOf(t, c, n, lowerBoundVariant())
		if got, want := base.stage[StageGDN], int64(3*full+qkv+z+2*ba); got != want {
			t.Errorf("dtype %d: baseline gdn = %d, want %d", dtype, got, want)
		}
		if want := []string{"base_out", "lora_cat", "sum_out", "qkv", "z", "beta", "alpha"}; !slices.Equal(base.tensorNames(StageGDN), want) {
			t.Errorf("baseline gdn tensors %v, want %v", base.tensorNames(StageGDN), want)
		}
		for name, want := range map[string]int64{"base_out": full, "lora_cat": full, "sum_out": full, "qkv": qkv, "z": z, "beta": ba, "alpha": ba} {
			if got := base.tensorBytes(StageGDN, name); got != want {
				t.Errorf("baseline gdn %s = %d, want %d", name, got, want)
			}
		}
		if got := released.stage[StageGDN]; got != 3*full {
			t.Errorf("dtype %d: released gdn = %d, want %d", dtype, got, 3*full)
		}
		if lower.stage[StageGDN] != 3*full {
			t.Errorf("lower bound gdn = %d, want the released %d", lower.stage[StageGDN], 3*full)
		}
	}
	c := smallConfig()
	c.Model.LinearNumKeyHeads = 0
	for _, v := range []variant{baselineVariant(), {gdnRelease: true}} {
		if pc := pieceOf(t, c, n, v); pc.present[StageGDN] || pc.stage[StageGDN] != 0 {
			t.Errorf("Hk = 0: gdn stage present (%d bytes)", pc.stage[StageGDN])
		}
	}
	res := mustEstimate(t, c)
	for _, o := range []Outcome{res.Baseline, res.Candidate} {
		var names []string
		for _, s := range o.Stages {
			names = append(names, s.Name)
		}
		if want := []string{"activations", "head", "fc2"}; !slices.Equal(names, want) {
			t.Errorf("Hk = 0: the result's stages are %v, want %v", names, want)
		}
	}
}

// TestActivations: n x H x b x clamp(L/4 + 4, 4, 16), integer L / 4.
func TestActivations(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ l, factor int64 }{
		{1, 4}, {3, 4}, {4, 5}, {20, 9}, {47, 15}, {48, 16}, {49, 16}, {100, 16}, {1 << 20, 16},
	} {
		c := smallConfig()
		c.Model.NumHiddenLayers = tc.l
		c.FC2.DtypeBytes = 4
		if got, want := pieceOf(t, c, 10, baselineVariant()).stage[StageActivations], 10*8*4*tc.factor; got != want {
			t.Errorf("L = %d: activations = %d, want %d (factor %d)", tc.l, got, want, tc.factor)
		}
	}
}

// TestEphemeralIsMaxOfStages: stages run one after another.
func TestEphemeralIsMaxOfStages(t *testing.T) {
	t.Parallel()
	rng := newRand()
	for i := 0; i < 200; i++ {
		c := randomShape(rng)
		r, err := c.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		var cl calc
		var pc piece
		n := between(rng, 1, r.N)
		r.price(&cl, n, r.candidateVariant(), &pc)
		if cl.err != nil {
			continue
		}
		want := int64(0)
		for _, s := range pc.stage {
			want = max(want, s)
		}
		if pc.ephemeral != want {
			t.Fatalf("ephemeral %d, max of stages %v = %d", pc.ephemeral, pc.stage, want)
		}
	}
}

// TestRetained: logprobs p x 4, top-k p x k x 4 and p x k x 8, logits p x
// V x 2, hidden states n x H x 2, checkpoints n x retained_per_row_bytes,
// each its own tensor; checkpoints default to grad ? L x H x b : 0.
func TestRetained(t *testing.T) {
	t.Parallel()
	const v, h, l = 1000, 8, 48
	// N = 1000, P = 333, T = 101: a piece of n rows has p = ceil(n 333 /
	// 1000) projected rows.
	for _, tc := range []struct {
		name    string
		n       int64
		grad    bool
		dtype   int64
		rpr     *int64
		out     Outputs
		want    map[string]int64
		wantP   int64
		wantT   int64
		wantSum int64
	}{
		{"logprobs, whole", 1000, true, 2, nil, Outputs{Logprobs: true},
			map[string]int64{"logprobs": 333 * 4, "checkpoints": 1000 * l * h * 2}, 333, 101, 0},
		{"logprobs, n = 7", 7, true, 2, nil, Outputs{Logprobs: true},
			map[string]int64{"logprobs": 3 * 4, "checkpoints": 7 * l * h * 2}, 3, 1, 0},
		{"all outputs, n = 500, no grad", 500, false, 4, nil, Outputs{Logprobs: true, TopK: 5, Logits: true, HiddenStates: true},
			map[string]int64{"logprobs": 167 * 4, "topk_values": 167 * 5 * 4, "topk_indices": 167 * 5 * 8,
				"logits": 167 * v * 2, "hidden_states": 500 * h * 2}, 167, 51, 0},
		{"dtype 4 checkpoints", 10, true, 4, nil, Outputs{},
			map[string]int64{"checkpoints": 10 * l * h * 4}, 4, 2, 0},
		{"explicit retained_per_row_bytes without grad", 10, false, 2, Int64(12345), Outputs{},
			map[string]int64{"checkpoints": 10 * 12345}, 4, 2, 0},
		{"retained_per_row_bytes 0 with grad", 10, true, 2, Int64(0), Outputs{HiddenStates: true},
			map[string]int64{"hidden_states": 10 * h * 2}, 4, 2, 0},
	} {
		c := smallConfig()
		c.Request.Rows, c.Request.SequenceRows = 1000, 1000
		c.Request.ProjectedRows, c.Request.TargetRows = Int64(333), Int64(101)
		c.Request.Grad, c.Request.Outputs, c.FC2.DtypeBytes = tc.grad, tc.out, tc.dtype
		c.Budget.RetainedPerRowBytes = tc.rpr
		pc := pieceOf(t, c, tc.n, variant{eagerHead: true, fc2Known: true, gdnRelease: true})
		got := map[string]int64{}
		var sum int64
		for _, r := range pc.ret[:pc.nret] {
			got[r.name] = r.bytes
			sum += r.bytes
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: retained %v, want %v", tc.name, got, tc.want)
		}
		if pc.retained != sum {
			t.Errorf("%s: retained = %d, sum of tensors %d", tc.name, pc.retained, sum)
		}
		if pc.p != tc.wantP || pc.t != tc.wantT {
			t.Errorf("%s: p = %d, t = %d; want %d, %d", tc.name, pc.p, pc.t, tc.wantP, tc.wantT)
		}
	}
}

// TestRetainedRoundsEachTensor: rounding is per tensor, never per term:
// three rows of logprobs and top-1 are three tensors of one block each.
func TestRetainedRoundsEachTensor(t *testing.T) {
	t.Parallel()
	c := smallConfig()
	c.Request.Rows, c.Request.SequenceRows = 3, 3
	c.Request.Grad = false
	c.Request.Outputs = Outputs{Logprobs: true, TopK: 1}
	c.AllocatorRoundBytes = 512
	if got := pieceOf(t, c, 3, baselineVariant()).retained; got != 3*512 {
		t.Errorf("retained = %d, want 1,536 (12, 12 and 24 bytes, each rounded to 512)", got)
	}
	c.AllocatorRoundBytes = 1
	if got := pieceOf(t, c, 3, baselineVariant()).retained; got != 12+12+24 {
		t.Errorf("retained = %d, want 48", got)
	}
}

// TestChildShareOfRows: a child of n rows projects ceil(n P / N) rows and
// targets ceil(n T / N).
func TestChildShareOfRows(t *testing.T) {
	t.Parallel()
	c := smallConfig()
	c.Request.Rows, c.Request.SequenceRows = 64902, 4096
	c.Request.ProjectedRows, c.Request.TargetRows = Int64(50000), Int64(1)
	for _, n := range []int64{1, 2, 4096, 12345, 64901, 64902} {
		pc := pieceOf(t, c, n, baselineVariant())
		wantP, wantT := (n*50000+64901)/64902, (n*1+64901)/64902
		if pc.p != wantP || pc.t != wantT {
			t.Errorf("n = %d: p %d t %d, want %d %d", n, pc.p, pc.t, wantP, wantT)
		}
		if pc.t != 1 {
			t.Errorf("n = %d: t = %d; with T = 1 every child targets one row (rounded up)", n, pc.t)
		}
	}
}
