package measure

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readReports(t *testing.T, dir string, names ...string) ([]string, [][]byte) {
	t.Helper()
	var raws [][]byte
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join("testdata", "reports", dir, n))
		if err != nil {
			t.Fatal(err)
		}
		raws = append(raws, b)
	}
	return names, raws
}

func TestImportReports(t *testing.T) {
	t.Parallel()
	names, raws := readReports(t, "", "miss-forward-a.json", "miss-forward-b.json", "miss-split.json",
		"miss-caller-v1.json", "oom.json", "miss-forward-a.json")
	const inUse = 70_000_000_000
	imp, err := ImportReports(names, raws, inUse)
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Comparisons) != 4 {
		t.Fatalf("%d comparisons: %+v", len(imp.Comparisons), imp.Comparisons)
	}
	sp := imp.Comparisons[2]
	if sp.Children != 2 || sp.PackedTokens != 33706+31196 || sp.ObservedPeakBytes != 30_000_000_000 ||
		*sp.AvailableBytes != 140_000_000_000 || *sp.ErrorPct != 25 || *sp.AdmissionPeakBytes != 44_000_000_000 {
		t.Errorf("split comparison %+v", sp)
	}
	if len(imp.Points) != 2 {
		t.Fatalf("points %+v", imp.Points)
	}
	if p := imp.Points[0]; p.Rows != 4096 || p.PeakBytes != 22_400_000_000+inUse || p.Label != "0f3c9a1e forward" {
		t.Errorf("point %+v", p)
	}
	reasons := map[string]string{}
	for _, s := range imp.Skipped {
		reasons[s.File] = s.Reason
	}
	for file, want := range map[string]string{
		"miss-split.json":     "split plan of 2 children",
		"miss-caller-v1.json": `"forward_and_caller" window`,
		"oom.json":            "an OOM",
	} {
		if !strings.Contains(reasons[file], want) {
			t.Errorf("%s skipped for %q, want %q", file, reasons[file], want)
		}
	}
	if len(imp.Skipped) != 4 { // and the repeated report
		t.Errorf("skipped %+v", imp.Skipped)
	}
	// Rates: ceil((22.4e9 - 4,096 x 4) / 4,096) and ceil((37.5e9 - 1e6) / 8,192).
	a := ceilDiv(22_400_000_000-4096*4, 4096)
	b := ceilDiv(37_500_000_000-1_000_000, 8192)
	if imp.Profile == nil || imp.Profile.BytesPerToken != max(a, b) || imp.Profile.PackedTokens != 8192 || imp.Profile.RetainedComputeBytesPerToken != nil {
		t.Errorf("profile %+v, want rate %d", imp.Profile, max(a, b))
	}
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

func TestBadReports(t *testing.T) {
	t.Parallel()
	for file, want := range map[string]string{
		"noncanonical.json":    "must be canonical JSON",
		"error-pct.json":       "error_pct is 12.5, 100 x |22400000000 - 20000000000| / 20000000000 is 12.0",
		"oom-observed.json":    "OOM cannot claim a completed observation",
		"under-threshold.json": "does not exceed threshold_pct",
		"extra-key.json":       "unexpected [unexpected]",
	} {
		names, raws := readReports(t, "bad", file)
		_, err := ImportReports(names, raws, 0)
		if err == nil || !strings.HasPrefix(err.Error(), file+": ") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", file, err, want)
		}
	}
}

func TestReportRules(t *testing.T) {
	t.Parallel()
	good, err := os.ReadFile(filepath.Join("testdata", "reports", "miss-forward-a.json"))
	if err != nil {
		t.Fatal(err)
	}
	g := string(good)
	cases := []struct{ name, data, want string }{
		{"no final newline", strings.TrimSuffix(g, "\n"), "canonical JSON"},
		{"duplicate key", strings.Replace(g, `{"admission_peak_bytes":22000000000,`, `{"admission_peak_bytes":22000000000,"admission_peak_bytes":1,`, 1), "duplicate report key"},
		{"kind", strings.Replace(g, `"art-planner-miss"`, `"other"`, 1), "kind must be"},
		{"id", strings.Replace(g, `"0f3c9a1e5b7d4c2a8e6f1b3d5a7c9e0f"`, `"0F3C9A1E5B7D4C2A8E6F1B3D5A7C9E0F"`, 1), "32 lower-case hex"},
		{"not UTC", strings.Replace(g, "+00:00", "+01:00", 1), "must be UTC"},
		{"negative memory", strings.Replace(g, `"predicted_peak_bytes":20000000000`, `"predicted_peak_bytes":-1`, 1), "invalid report memory value"},
		{"float memory", strings.Replace(g, `"predicted_peak_bytes":20000000000`, `"predicted_peak_bytes":2e10`, 1), "invalid report memory value"},
		{"NaN", strings.Replace(g, `"threshold_pct":10.0`, `"threshold_pct":NaN`, 1), "must be JSON"},
		{"format 3", strings.Replace(g, `"format":2`, `"format":3`, 1), "keys differ"},
		{"event vs oom", strings.Replace(g, `"event":"estimate_miss"`, `"event":"oom"`, 1), "invalid planner event"},
		{"too large", g + strings.Repeat(" ", MaxReportBytes), "exceeds byte limit"},
		{"not an object", "[]\n", "not a JSON object"},
	}
	for _, c := range cases {
		_, err := ParseReport("r.json", []byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

func TestErrorPctIdentity(t *testing.T) {
	t.Parallel()
	// Python: 100 * abs(4 - 3) / 3 == 33.333333333333336; the neighbour
	// below is refused, the integer 25 equals 25.0.
	for _, c := range []struct {
		p, o  int64
		pct   jsonValue
		match bool
	}{
		{3, 4, jsonValue{kind: jFloat, num: "33.333333333333336"}, true},
		{3, 4, jsonValue{kind: jFloat, num: "33.33333333333333"}, false},
		{4, 5, jsonValue{kind: jInt, num: "25"}, true},
		{4, 5, jsonValue{kind: jFloat, num: "25.0"}, true},
	} {
		rule := checkMiss(c.p, c.o, &c.pct, &jsonValue{kind: jInt, num: "0"})
		if (rule == "") != c.match {
			t.Errorf("p %d o %d error_pct %s: rule %q", c.p, c.o, c.pct.num, rule)
		}
	}
}

func TestPythonFloatRepr(t *testing.T) {
	t.Parallel()
	for f, want := range map[float64]string{
		12.0: "12.0", 12.5: "12.5", 0.0001: "0.0001", 0.00001: "1e-05", 1e16: "1e+16",
		1e15: "1000000000000000.0", 9999999999999998: "9999999999999998.0", 1.5e300: "1.5e+300",
		-0.5: "-0.5", 33.333333333333336: "33.333333333333336", 0: "0.0", 123456789012345680: "1.2345678901234568e+17",
	} {
		if got := pyFloatRepr(f); got != want {
			t.Errorf("repr(%v) = %s, want %s", f, got, want)
		}
	}
}
