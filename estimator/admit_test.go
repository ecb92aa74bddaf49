package estimator

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// docs/model.md §4: admit, each rung of the split ladder, refuse.

// ladderConfig is a request of m sequences of 1,000 rows each with nothing
// retained and a tiny head, so that its required bytes fall strictly with
// the largest child's rows and each rung can be made the first that fits.
func ladderConfig(m int64) Config {
	c := smallConfig()
	c.Request = RequestConfig{Rows: m * 1000, SequenceRows: 1000, Grad: false}
	c.Head.ChunkRows = 1
	c.Budget = BudgetConfig{CapacityBytes: 1 << 50, SafetyPercent: 110}
	return c
}

// withAvailable sets the budget so that exactly avail bytes are available.
func withAvailable(c Config, avail int64) Config {
	c.Budget.ReservePermille, c.Budget.InUseBytes, c.Budget.CapacityBytes = 0, 0, avail
	return c
}

// mustDecode is DecodeConfig(data); an error fails the test.
func mustDecode(t *testing.T, data []byte) Config {
	t.Helper()
	c, err := DecodeConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustEstimate(t *testing.T, c Config) Result {
	t.Helper()
	res, err := Estimate(c)
	if err != nil {
		t.Fatalf("Estimate: %v", err)
	}
	return res
}

// TestLadder: the rungs are k = 2, 4, 8, ... while k < m, then k = m. For
// each rung, a budget of exactly its required bytes splits into k
// children; one byte less moves to the next rung, or refuses after the
// last.
func TestLadder(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		m     int64
		rungs []int64
	}{
		{1, nil},
		{2, []int64{2}},
		{3, []int64{2, 3}},
		{4, []int64{2, 4}},
		{5, []int64{2, 4, 5}},
		{8, []int64{2, 4, 8}},
		{9, []int64{2, 4, 8, 9}},
		{16, []int64{2, 4, 8, 16}},
		{17, []int64{2, 4, 8, 16, 17}},
		{100, []int64{2, 4, 8, 16, 32, 64, 100}},
	} {
		c := ladderConfig(tc.m)
		m := refFrom(c)
		if got := m.ladder(); fmt.Sprint(got) != fmt.Sprint(tc.rungs) {
			t.Fatalf("m = %d: reference ladder %v, want %v", tc.m, got, tc.rungs)
		}
		rp := newRefPricer(&m)
		whole := rp.rung(1, refBaseline).required

		// Admit at exactly the whole request's bytes.
		res := mustEstimate(t, withAvailable(c, whole))
		if o := res.Baseline; o.Decision != Admit || o.Children != 1 || o.ChildRows != tc.m*1000 ||
			o.RequiredBytes != Bytes(whole) || o.MarginBytes != 0 {
			t.Errorf("m = %d, available = whole: %v %d children of %d rows, required %d margin %d; want admit of %d rows, required %d",
				tc.m, o.Decision, o.Children, o.ChildRows, o.RequiredBytes, o.MarginBytes, tc.m*1000, whole)
		}

		prev := whole
		for i, k := range tc.rungs {
			rung := rp.rung(k, refBaseline)
			if rung.required >= prev {
				t.Fatalf("m = %d: rung %d needs %d, not less than the step before (%d)", tc.m, k, rung.required, prev)
			}
			prev = rung.required
			// One byte short of the previous step: this rung is the
			// first that fits.
			for _, avail := range []int64{rung.required, (rung.required + prev) / 2} {
				o := mustEstimate(t, withAvailable(c, avail)).Baseline
				wantRows := (tc.m + k - 1) / k * 1000 // ceil(m / k) sequences
				if o.Decision != Split || o.Children != k || o.ChildRows != wantRows || o.RequiredBytes != Bytes(rung.required) ||
					o.MarginBytes != Bytes(avail-rung.required) {
					t.Errorf("m = %d, available %d: %v into %d children of %d rows, required %d, margin %d; want split into %d of %d rows, required %d",
						tc.m, avail, o.Decision, o.Children, o.ChildRows, o.RequiredBytes, o.MarginBytes, k, wantRows, rung.required)
				}
			}
			if i == len(tc.rungs)-1 {
				// One sequence per child is the last rung.
				if k != tc.m {
					t.Fatalf("m = %d: last rung %d", tc.m, k)
				}
				avail := rung.required - 1
				o := mustEstimate(t, withAvailable(c, avail)).Baseline
				if o.Decision != Refuse || o.Children != 0 || o.ChildRows != 1000 || o.RequiredBytes != Bytes(rung.required) || o.MarginBytes != -1 {
					t.Errorf("m = %d, available %d: %v, %d children of %d rows, required %d, margin %d; want refuse, 0 children, rows 1,000, required %d, margin -1",
						tc.m, avail, o.Decision, o.Children, o.ChildRows, o.RequiredBytes, o.MarginBytes, rung.required)
				}
			}
		}
		if tc.m == 1 {
			// A single sequence: refused with the whole request's numbers.
			o := mustEstimate(t, withAvailable(c, whole-1)).Baseline
			if o.Decision != Refuse || o.Children != 0 || o.ChildRows != 1000 || o.RequiredBytes != Bytes(whole) || o.MarginBytes != -1 {
				t.Errorf("m = 1, available = whole - 1: %v, %d children of %d rows, required %d, margin %d; want refuse, 0, 1,000, %d, -1",
					o.Decision, o.Children, o.ChildRows, o.RequiredBytes, o.MarginBytes, whole)
			}
		}
		checkAgainstRef(t, fmt.Sprintf("ladder m = %d", tc.m), withAvailable(c, prev))
	}
}

// TestChildShapes: child i of k takes sequences floor(i m / k) up to
// floor((i+1) m / k); the code groups equal children. Compare with the
// listing of every child, including a short last sequence.
func TestChildShapes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ n, s int64 }{
		{64902, 4096}, {64902, 16853}, {10, 3}, {10, 10}, {11, 10}, {1, 1}, {7, 1}, {1000, 7},
		{4096 * 8, 4096}, {4096*8 + 1, 4096}, {12345, 100}, {1 << 20, 1}, {2_000_003, 17},
	} {
		c := Default()
		c.Request.Rows, c.Request.SequenceRows = tc.n, tc.s
		r, err := c.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		m := refFrom(c)
		seqs := m.sequences()
		ks := append([]int64{1}, m.ladder()...)
		ks = append(ks, 3, 5, 6, 7, 12, seqs-1, seqs)
		for _, k := range ks {
			if k < 1 || k > seqs {
				continue
			}
			want := map[int64]int64{}
			var wantMax, total int64
			for _, rows := range m.childRows(k) {
				want[rows]++
				wantMax = max(wantMax, rows)
				total += rows
			}
			if total != tc.n {
				t.Fatalf("reference children of %d add up to %d rows, not %d", k, total, tc.n)
			}
			rows, count, n := r.childShapes(k)
			got := map[int64]int64{}
			for i := 0; i < n; i++ {
				got[rows[i]] += count[i]
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("N = %d, s = %d, k = %d: children %v, want %v", tc.n, tc.s, k, got, want)
			}
		}
	}
}

// TestAvailable: capacity - in_use - floor(capacity x reserve / 1000), at
// least 0.
func TestAvailable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ capacity, inUse, reserve, want int64 }{
		{1000, 0, 30, 970},
		{999, 0, 1, 999},
		{1001, 0, 999, 2},
		{1001, 1, 999, 1},
		{1000, 1000, 0, 0},
		{1000, 990, 30, 0}, // would be -20
		{1000, 1000, 999, 0},
		{H200CapacityBytes, 0, 30, 150_754_820_096 - 4_522_644_602},
		{H200CapacityBytes, 68_451_041_280, 30, 150_754_820_096 - 68_451_041_280 - 4_522_644_602}, // 63.75 GiB in use
		{1 << 50, 0, 999, 1<<50 - (1<<50)*999/1000},
	} {
		c := Default()
		c.Budget.CapacityBytes, c.Budget.InUseBytes, c.Budget.ReservePermille = tc.capacity, tc.inUse, tc.reserve
		res := mustEstimate(t, c)
		if res.AvailableBytes != Bytes(tc.want) {
			t.Errorf("capacity %d in use %d reserve %d: available %d, want %d", tc.capacity, tc.inUse, tc.reserve, res.AvailableBytes, tc.want)
		}
		for _, o := range []Outcome{res.Baseline, res.Candidate} {
			if o.MarginBytes != Bytes(tc.want)-o.RequiredBytes {
				t.Errorf("margin %d, want available - required = %d", o.MarginBytes, Bytes(tc.want)-o.RequiredBytes)
			}
		}
	}
}

// TestSafetyPercent: required = floor((retained + ephemeral) x pct / 100),
// rounding down as the trainer's int() does.
func TestSafetyPercent(t *testing.T) {
	t.Parallel()
	c := smallConfig()
	c.Request = RequestConfig{Rows: 7, SequenceRows: 7, Grad: false}
	c.Model.NumExpertsPerTok, c.Model.LinearNumKeyHeads = 0, 0
	c.Model.HiddenSize, c.Model.NumHiddenLayers, c.Model.VocabSize = 1, 1, 1
	c.Head.ChunkRows = 1
	// activations 7 x 1 x 2 x 4 = 56, head 1 x 1 x 2 = 2; nothing retained.
	for _, tc := range []struct{ pct, want int64 }{
		{100, 56}, {101, 56}, {110, 61}, {199, 111}, {200, 112}, {1000, 560},
	} {
		c.Budget.SafetyPercent = tc.pct
		o := mustEstimate(t, c).Baseline
		if o.RequiredBytes != Bytes(tc.want) || o.EphemeralBytes != 56 || o.RetainedBytes != 0 {
			t.Errorf("safety %d%%: required %d (retained %d ephemeral %d), want %d", tc.pct, o.RequiredBytes, o.RetainedBytes, o.EphemeralBytes, tc.want)
		}
	}
	// With retained bytes, children's retained bytes add up and the
	// ephemeral peak is the largest child's.
	c = ladderConfig(4)
	c.Request.Outputs.HiddenStates = true // 1,000 x 8 x 2 = 16,000 per sequence
	c = withAvailable(c, 1)               // refuse: the last rung is reported
	o := mustEstimate(t, c).Baseline
	m := refFrom(c)
	eph := m.piece(&refArith{}, 1000, refBaseline).ephemeral
	if o.RetainedBytes != 4*16000 || o.EphemeralBytes != Bytes(eph) || o.RequiredBytes != Bytes((4*16000+eph)*110/100) {
		t.Errorf("4 children: retained %d ephemeral %d required %d; want %d %d %d",
			o.RetainedBytes, o.EphemeralBytes, o.RequiredBytes, 4*16000, eph, (4*16000+eph)*110/100)
	}
}

// TestRefuseReason: a refusal says by how many bytes and which stage
// dominates.
func TestRefuseReason(t *testing.T) {
	t.Parallel()
	c := withAvailable(ladderConfig(3), 10)
	o := mustEstimate(t, c).Baseline
	if o.Decision != Refuse {
		t.Fatalf("decision %v", o.Decision)
	}
	short := Bytes(-o.MarginBytes)
	if !strings.Contains(o.Reason, Group(int64(short))) || !strings.Contains(o.Reason, o.DominantStage) {
		t.Errorf("reason %q does not say the shortfall (%s) and the dominant stage (%s)", o.Reason, Group(int64(short)), o.DominantStage)
	}
	// smallConfig's GDN projection: 3 x 1,000 x 92 x 2 + the baseline's
	// components, more than 1,000 x 8 x 2 x 16 bytes of activations.
	if o.DominantStage != "gdn" {
		t.Errorf("dominant stage %q, want gdn", o.DominantStage)
	}
}

// TestDominantStage follows the documented choice: the largest ephemeral
// stage of the largest child, the first in stage order on a tie.
func TestDominantStage(t *testing.T) {
	t.Parallel()
	res := mustEstimate(t, Default())
	if res.Baseline.DominantStage != "gdn" || res.Candidate.DominantStage != "fc2" {
		t.Errorf("default: dominant %q / %q, want gdn / fc2", res.Baseline.DominantStage, res.Candidate.DominantStage)
	}
	// A tie: activations 4 x 1 x 2 x 4 = 32 bytes = head 4 x 4 x 2.
	c := smallConfig()
	c.Request = RequestConfig{Rows: 4, SequenceRows: 4, Grad: false}
	c.Model = ModelConfig{VocabSize: 4, HiddenSize: 1, NumHiddenLayers: 1, MoEIntermediateSize: 1,
		LinearKeyHeadDim: 1, LinearNumValueHeads: 1, LinearValueHeadDim: 1}
	c.Head.ChunkRows = 4
	res = mustEstimate(t, c)
	if s := res.Baseline.Stages; len(s) != 2 || s[0].Bytes != s[1].Bytes {
		t.Fatalf("stages %v, want activations and head equal", s)
	}
	if res.Baseline.DominantStage != "activations" {
		t.Errorf("tie: dominant %q, want activations (first in order)", res.Baseline.DominantStage)
	}
}

// TestDecisionText: decisions are written by name in JSON.
func TestDecisionText(t *testing.T) {
	t.Parallel()
	for d, name := range map[Decision]string{Admit: "admit", Split: "split", Refuse: "refuse", Invalid: "invalid", Decision(9): "unknown", Decision(-1): "unknown"} {
		if d.String() != name {
			t.Errorf("Decision(%d) = %q, want %q", int(d), d.String(), name)
		}
		if d < Admit || d > Invalid {
			continue
		}
		b, err := json.Marshal(d)
		if err != nil || string(b) != `"`+name+`"` {
			t.Errorf("json of %v = %s, %v", d, b, err)
		}
		var back Decision
		if err := json.Unmarshal(b, &back); err != nil || back != d {
			t.Errorf("read back %s: %v, %v", b, back, err)
		}
	}
	var d Decision
	if err := json.Unmarshal([]byte(`"admitted"`), &d); err == nil {
		t.Error(`"admitted" decoded as a decision`)
	}
}
