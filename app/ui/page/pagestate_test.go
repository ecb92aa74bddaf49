package page

import (
	"net/url"
	"reflect"
	"strings"
	"testing"

	"headroom/estimator"
)

func TestGiBTextRoundTrip(t *testing.T) {
	t.Parallel()
	for _, b := range []int64{0, 1, 12345, 68451041280, 150754820096, 1<<50 - 1, 1 << 50} {
		text := GiBText(b)
		got, err := estimator.ParseGiB(text)
		if err != nil || got != b {
			t.Errorf("gibText(%d) = %q reads back as %d, %v", b, text, got, err)
		}
	}
	if got := GiBText(68451041280); got != "63.75" {
		t.Errorf("gibText(63.75 GiB) = %q", got)
	}
}

func TestDefaultStateHasEmptyURL(t *testing.T) {
	t.Parallel()
	list, err := Presets()
	if err != nil {
		t.Fatal(err)
	}
	s := New()
	if q := s.Query(list); len(q) != 0 {
		t.Errorf("the default page's URL carries %s", q.Encode())
	}
	if !s.Valid || len(s.Errs) != 0 {
		t.Errorf("the default state is not valid: %v", s.Errs)
	}
	if from, to := FitRange("rows", s.Cfg); s.From != from || s.To != to {
		t.Errorf("default range %d..%d", s.From, s.To)
	}
}

func TestDecodePageKeys(t *testing.T) {
	t.Parallel()
	list, _ := Presets()
	for _, tc := range []struct {
		query      string
		capacity   int64
		gpu        string
		axis       string
		from, to   int64
		vocab      int64
		errorCount int
	}{
		{"gpu=h100", estimator.H100CapacityBytes, GPUH100, "rows", 1, 0, 151936, 0},
		{"gpu=h100&capacity_bytes=80000000000", 80000000000, GPUCustom, "rows", 1, 0, 151936, 0},
		{"gpu=custom", estimator.H200CapacityBytes, GPUCustom, "rows", 1, 0, 151936, 0},
		{"preset=mixtral-8x7b", estimator.H200CapacityBytes, GPUH200, "rows", 1, 0, 32000, 0},
		{"preset=mixtral-8x7b&vocab_size=50000", estimator.H200CapacityBytes, GPUH200, "rows", 1, 0, 50000, 0},
		{"axis=vocab_size", estimator.H200CapacityBytes, GPUH200, "vocab_size", 1, 0, 151936, 0},
		{"axis=in_use_bytes&from=5&to=9", estimator.H200CapacityBytes, GPUH200, "in_use_bytes", 5, 9, 151936, 0},
		{"axis=rows&from=9&to=5", estimator.H200CapacityBytes, GPUH200, "rows", 9, 5, 151936, 1},
		{"axis=rows&from=0", estimator.H200CapacityBytes, GPUH200, "rows", 0, 0, 151936, 1},
	} {
		t.Run(tc.query, func(t *testing.T) {
			q, _ := url.ParseQuery(tc.query)
			s := Decode(q, list)
			if tc.to == 0 { // the range fitted to the decoded config's flips
				_, tc.to = FitRange(s.Axis, s.Cfg)
			}
			if s.Cfg.Budget.CapacityBytes != tc.capacity || s.GPU != tc.gpu || s.Axis != tc.axis ||
				s.From != tc.from || s.To != tc.to || s.Cfg.Model.VocabSize != tc.vocab || len(s.Errs) != tc.errorCount {
				t.Errorf("%s: capacity %d gpu %s axis %s range %d..%d vocab %d errors %v", tc.query,
					s.Cfg.Budget.CapacityBytes, s.GPU, s.Axis, s.From, s.To, s.Cfg.Model.VocabSize, s.Errs)
			}
			if tc.errorCount == 0 {
				if back := Decode(s.Query(list), list); back.Query(list).Encode() != s.Query(list).Encode() {
					t.Errorf("%s: does not round-trip: %s", tc.query, s.Query(list).Encode())
				}
			}
		})
	}
}

func TestSwitchesRestoreLastValue(t *testing.T) {
	t.Parallel()
	s := New()
	s.SetText("topk", "5")
	s.SetCheck("topk", false)
	if s.Cfg.Request.Outputs.TopK != 0 {
		t.Errorf("top-k off: k = %d", s.Cfg.Request.Outputs.TopK)
	}
	s.SetCheck("topk", true)
	if s.Cfg.Request.Outputs.TopK != 5 {
		t.Errorf("top-k on again: k = %d, want the last 5", s.Cfg.Request.Outputs.TopK)
	}
	s.SetCheck("expert_parallel", true)
	if s.Cfg.FC2.ExpertParallel != 8 {
		t.Errorf("expert parallel on: %d", s.Cfg.FC2.ExpertParallel)
	}
	s.SetCheck("expert_parallel", false)
	if s.Cfg.FC2.ExpertParallel != 1 {
		t.Errorf("expert parallel off: %d", s.Cfg.FC2.ExpertParallel)
	}
}

// TestValidatedKeepsTheStatesOwn: the state's memo of Validate gives what
// Repair and Estimate give, is reused while the config stays Equal (terms
// and all), and is not after any change, even one made in place to a list
// the config shares.
func TestValidatedKeepsTheStatesOwn(t *testing.T) {
	t.Parallel()
	s := State{Cfg: estimator.Default()}
	first := s.validated()
	want, err := estimator.Estimate(s.Cfg)
	if err != nil || !reflect.DeepEqual(first.res, want) || first.err != nil {
		t.Fatalf("validated(default) = %+v, %v; want Estimate's %+v", first.res, first.err, want)
	}
	if again := s.validated(); again != first {
		t.Error("the same config was validated again")
	}
	s.Cfg.Request.Rows = 300_000
	second := s.validated()
	if second == first {
		t.Fatal("a changed config got the last one's findings")
	}
	if want, _ := estimator.Estimate(s.Cfg); !reflect.DeepEqual(second.res, want) {
		t.Errorf("validated(rows 300,000) = %+v; want %+v", second.res, want)
	}
	s.Cfg.Request.Rows = -1
	if v := s.validated(); v.err == nil || len(v.bad) == 0 {
		t.Errorf("validated(rows -1) = %v, %v; want the error and the bad field", v.err, v.bad)
	}
	s.Cfg = estimator.Default()
	s.Cfg.Terms = []estimator.Term{{Name: "x", Place: "head", Bytes: "2 * D"}}
	v := s.validated()
	if v.err != nil || s.validated() != v {
		t.Errorf("a config with terms: %v, or its findings were not kept", v.err)
	}
	s.Cfg.Terms[0].Bytes = "-D" // in place: the memo holds a Clone
	if w := s.validated(); w == v || w.err == nil {
		t.Errorf("a term changed in place kept the findings of the term before it")
	}
}

// TestInUseTextHasNoFloatNoise: "12 GB" typed in the
// in-use field showed 11.175870895385742 once committed, and an invalid
// in_use_bytes=100000000000 link was rewritten to in_use_gib=93.13225746154785.
// The field shows GiB when three decimals are exact, else the exact bytes;
// both read back as the same count.
func TestInUseTextHasNoFloatNoise(t *testing.T) {
	t.Parallel()
	list, err := Presets()
	if err != nil {
		t.Fatal(err)
	}
	s := New()
	s.SetText(KeyInUseGiB, "12 GB")
	s.Validate()
	s.Commit(KeyInUseGiB)
	if got := s.Text(KeyInUseGiB); got != "12,000,000,000 B" {
		t.Errorf("after 12 GB the field shows %q, want the exact bytes", got)
	}
	if got, err := estimator.ParseGiB(s.Text(KeyInUseGiB)); err != nil || got != 12e9 {
		t.Errorf("the field's text reads back as %d, %v", got, err)
	}
	if got := GiBNote(12e9); got != "12,000,000,000 bytes (11.176 GiB)" {
		t.Errorf("GiBNote = %q", got)
	}
	q, _ := url.ParseQuery("in_use_bytes=100000000000&capacity_bytes=85899345920")
	open := Decode(q, list)
	if _, bad := open.Errs["in_use_bytes"]; !bad {
		t.Fatalf("in use above the capacity is not marked: %v", open.Errs)
	}
	got := open.Query(list).Get(KeyInUseGiB)
	if got != "100000000000 B" {
		t.Errorf("the rewritten link carries in_use_gib=%q, want the exact bytes", got)
	}
	for _, b := range []int64{12e9, 1<<30 + 1, 1 << 40, 1536 << 20} {
		if txt := GiBText(b); gibDecimals(strings.TrimSuffix(txt, " B")) > 3 {
			t.Errorf("GiBText(%d) = %q", b, txt)
		}
	}
}
