package ui

import (
	"net/url"
	"reflect"
	"strings"
	"testing"

	"headroom/estimator"
)

func TestGiBTextRoundTrip(t *testing.T) {
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
	list, err := presets()
	if err != nil {
		t.Fatal(err)
	}
	s := newPageState()
	if q := s.query(list); len(q) != 0 {
		t.Errorf("the default page's URL carries %s", q.Encode())
	}
	if !s.valid || len(s.errs) != 0 {
		t.Errorf("the default state is not valid: %v", s.errs)
	}
	if s.from != 1 || s.to != 8*64902 {
		t.Errorf("default range %d..%d", s.from, s.to)
	}
}

func TestDecodePageKeys(t *testing.T) {
	list, _ := presets()
	for _, tc := range []struct {
		query      string
		capacity   int64
		gpu        string
		axis       string
		from, to   int64
		vocab      int64
		errorCount int
	}{
		{"gpu=h100", estimator.H100CapacityBytes, gpuH100, "rows", 1, 519216, 151936, 0},
		{"gpu=h100&capacity_bytes=80000000000", 80000000000, gpuCustom, "rows", 1, 519216, 151936, 0},
		{"gpu=custom", estimator.H200CapacityBytes, gpuCustom, "rows", 1, 519216, 151936, 0},
		{"preset=mixtral-8x7b", estimator.H200CapacityBytes, gpuH200, "rows", 1, 519216, 32000, 0},
		{"preset=mixtral-8x7b&vocab_size=50000", estimator.H200CapacityBytes, gpuH200, "rows", 1, 519216, 50000, 0},
		{"axis=vocab_size", estimator.H200CapacityBytes, gpuH200, "vocab_size", 1, 8 * 151936, 151936, 0},
		{"axis=in_use_bytes&from=5&to=9", estimator.H200CapacityBytes, gpuH200, "in_use_bytes", 5, 9, 151936, 0},
		{"axis=rows&from=9&to=5", estimator.H200CapacityBytes, gpuH200, "rows", 9, 5, 151936, 1},
		{"axis=rows&from=0", estimator.H200CapacityBytes, gpuH200, "rows", 0, 519216, 151936, 1},
	} {
		t.Run(tc.query, func(t *testing.T) {
			q, _ := url.ParseQuery(tc.query)
			s := decodePage(q, list)
			if s.cfg.Budget.CapacityBytes != tc.capacity || s.gpu != tc.gpu || s.axis != tc.axis ||
				s.from != tc.from || s.to != tc.to || s.cfg.Model.VocabSize != tc.vocab || len(s.errs) != tc.errorCount {
				t.Errorf("%s: capacity %d gpu %s axis %s range %d..%d vocab %d errors %v", tc.query,
					s.cfg.Budget.CapacityBytes, s.gpu, s.axis, s.from, s.to, s.cfg.Model.VocabSize, s.errs)
			}
			if tc.errorCount == 0 {
				if back := decodePage(s.query(list), list); back.query(list).Encode() != s.query(list).Encode() {
					t.Errorf("%s: does not round-trip: %s", tc.query, s.query(list).Encode())
				}
			}
		})
	}
}

func TestSwitchesRestoreLastValue(t *testing.T) {
	s := newPageState()
	s.setText("topk", "5")
	s.setCheck("topk", false)
	if s.cfg.Request.Outputs.TopK != 0 {
		t.Errorf("top-k off: k = %d", s.cfg.Request.Outputs.TopK)
	}
	s.setCheck("topk", true)
	if s.cfg.Request.Outputs.TopK != 5 {
		t.Errorf("top-k on again: k = %d, want the last 5", s.cfg.Request.Outputs.TopK)
	}
	s.setCheck("expert_parallel", true)
	if s.cfg.FC2.ExpertParallel != 8 {
		t.Errorf("expert parallel on: %d", s.cfg.FC2.ExpertParallel)
	}
	s.setCheck("expert_parallel", false)
	if s.cfg.FC2.ExpertParallel != 1 {
		t.Errorf("expert parallel off: %d", s.cfg.FC2.ExpertParallel)
	}
}

// TestGPUMenu: the menu, the URL and the capacity agree, from the
// estimator's one table.
func TestGPUMenu(t *testing.T) {
	opts := gpuOptions()
	if len(opts) != len(estimator.GPUs()) || len(opts) < 10 {
		t.Fatalf("the menu has %d entries, the estimator's table %d", len(opts), len(estimator.GPUs()))
	}
	for i, g := range estimator.GPUs() {
		if opts[i].Value != g.ID || opts[i].Label != g.Label() {
			t.Errorf("menu entry %d = %+v, want %s %q", i, opts[i], g.ID, g.Label())
		}
		if g.ID == gpuCustom {
			continue
		}
		t.Run(g.ID, func(t *testing.T) {
			if got, err := gpuCapacity(g.ID); err != nil || got != g.CapacityBytes {
				t.Errorf("gpuCapacity(%q) = %d, %v; want %d", g.ID, got, err, g.CapacityBytes)
			}
			if got := gpuFor(g.CapacityBytes); got != g.ID {
				t.Errorf("gpuFor(%d) = %q, want %q", g.CapacityBytes, got, g.ID)
			}
			s := decodePage(url.Values{"gpu": {g.ID}}, nil)
			if s.cfg.Budget.CapacityBytes != g.CapacityBytes || s.gpu != g.ID {
				t.Errorf("?gpu=%s: capacity %d, menu %q", g.ID, s.cfg.Budget.CapacityBytes, s.gpu)
			}
		})
	}
	if opts[0].Label != "H100 80GB (about 81,081 MiB)" || opts[1].Label != "H200 (143,771 MiB)" {
		t.Errorf("the first entries read %q, %q", opts[0].Label, opts[1].Label)
	}
	t.Run("custom", func(t *testing.T) {
		if got := gpuFor(12345 << 20); got != gpuCustom {
			t.Errorf("gpuFor(a custom capacity) = %q, want custom", got)
		}
		s := newPageState()
		s.setMenu(keyGPU, gpuCustom, nil)
		if s.gpu != gpuCustom || s.cfg.Budget.CapacityBytes != estimator.Default().Budget.CapacityBytes {
			t.Errorf("custom: menu %q, capacity %d; want custom, the capacity unchanged", s.gpu, s.cfg.Budget.CapacityBytes)
		}
	})
	t.Run("bad", func(t *testing.T) {
		_, e := estimator.GPUByID("a100")
		want := e.Error()
		if !strings.Contains(want, "a100-40gb") {
			t.Fatalf("GPUByID(a100): %q does not list the IDs", want)
		}
		if _, err := gpuCapacity("a100"); err == nil || err.Error() != want {
			t.Errorf("gpuCapacity(a100): %v, want %s", err, want)
		}
		s := decodePage(url.Values{"gpu": {"a100"}}, nil)
		if s.inputErr[keyGPU] != want {
			t.Errorf("?gpu=a100: error %q, want %q", s.inputErr[keyGPU], want)
		}
	})
}

// TestValidatedReusesTheLastFlatConfig: validate's memo gives what Repair
// and Estimate give, reuses the last flat config's findings, and keeps
// none of a config with terms.
func TestValidatedReusesTheLastFlatConfig(t *testing.T) {
	cfg := estimator.Default()
	first := validated(cfg)
	want, err := estimator.Estimate(cfg)
	if err != nil || !reflect.DeepEqual(first.res, want) || first.err != nil {
		t.Fatalf("validated(default) = %+v, %v; want Estimate's %+v", first.res, first.err, want)
	}
	if again := validated(cfg); again != first {
		t.Error("the same flat config was validated again")
	}
	moved := cfg
	moved.Request.Rows = 300_000
	second := validated(moved)
	if second == first {
		t.Fatal("a changed config got the last one's findings")
	}
	if want, _ := estimator.Estimate(moved); !reflect.DeepEqual(second.res, want) {
		t.Errorf("validated(rows 300,000) = %+v; want %+v", second.res, want)
	}
	bad := cfg
	bad.Request.Rows = -1
	if v := validated(bad); v.err == nil || len(v.bad) == 0 {
		t.Errorf("validated(rows -1) = %v, %v; want the error and the bad field", v.err, v.bad)
	}
	withTerm := cfg
	withTerm.Terms = []estimator.Term{{Name: "x", Place: "head", Bytes: "2 * D"}}
	if v := validated(withTerm); v.err != nil || validated(withTerm) == v {
		t.Errorf("a config with terms: %v, or its findings were kept", v.err)
	}
}
