package measure

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// allocated is the bytes the heap handed out while f ran.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// nested is depth opening brackets around inner and their closers.
func nested(open, close string, depth int, inner string) []byte {
	return []byte(strings.Repeat(open, depth) + inner + strings.Repeat(close, depth))
}

// TestReportDepthBound: a report nested past MaxJSONDepth is refused by a
// scan before any decoding, whatever its depth, with memory that does not
// grow with the depth; at the bound itself it decodes. Strings holding
// brackets do not count.
func TestReportDepthBound(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"five MiB of [", bytes.Repeat([]byte("["), 5<<20)},
		{"100,000 closed [", nested("[", "]", 100_000, "")},
		{"objects", nested(`{"a":`, "}", 1001, "1")},
		{"one past the bound", nested("[", "]", 1001, "")},
	} {
		var err error
		n := allocated(func() { _, err = ParseReport("deep.json", tc.data) })
		if err == nil || !strings.Contains(err.Error(), "deeper than 1000 levels") {
			t.Errorf("%s: %v, want a refusal of the depth", tc.name, err)
		}
		if n > 64<<10 {
			t.Errorf("%s: %d bytes allocated to refuse it; the scan should need almost none", tc.name, n)
		}
	}
	for _, data := range [][]byte{
		nested("[", "]", 1000, ""),
		nested(`{"a":`, "}", 1000, "1"),
		[]byte(`["` + strings.Repeat("[{", 5000) + `"]`),
		[]byte(`["\"` + strings.Repeat("[", 5000) + `"]`),
	} {
		if _, err := parseJSON(data); err != nil {
			t.Errorf("%.40s...: %v", data, err)
		}
	}
}

// reportWith is the test report miss-forward-a.json with the text of
// one value replaced.
func reportWith(t *testing.T, old, new string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "reports", "miss-forward-a.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte(old)) {
		t.Fatalf("the test report has no %s", old)
	}
	return bytes.Replace(raw, []byte(old), []byte(new), 1)
}

// TestReportIntegerDigitsBound: an integer of millions of digits is
// refused when it is read, before any arbitrary-precision arithmetic (its
// cost is quadratic in the digits), and the message gives its length,
// not the number.
func TestReportIntegerDigitsBound(t *testing.T) {
	for _, digits := range []int{4300 + 1, 4_000_000} {
		huge := "1" + strings.Repeat("0", digits-1)
		for _, old := range []string{`"predicted_peak_bytes":20000000000`, `"threshold_pct":10.0`, `"rank":0`} {
			key, _, _ := strings.Cut(old, ":")
			raw := reportWith(t, old, key+":"+huge)
			var err error
			n := allocated(func() { _, err = ParseReport("huge.json", raw) })
			if err == nil || !strings.Contains(err.Error(), "at most 4300") {
				t.Fatalf("%s with %d digits: %.200v", key, digits, err)
			}
			if len(err.Error()) > 300 {
				t.Errorf("%s: a message of %d bytes", key, len(err.Error()))
			}
			if limit := uint64(4*len(raw)) + 1<<20; n > limit {
				t.Errorf("%s with %d digits: %d bytes allocated, want at most %d", key, digits, n, limit)
			}
		}
	}
	// At the bound the value is read, and out of int64 it is refused as
	// a memory value, the number not printed.
	raw := reportWith(t, `"predicted_peak_bytes":20000000000`, `"predicted_peak_bytes":`+strings.Repeat("9", 4300))
	_, err := ParseReport("long.json", raw)
	if err == nil || !strings.Contains(err.Error(), "predicted_peak_bytes must be null or an integer") || strings.Contains(err.Error(), "99999999999999999999") {
		t.Errorf("%v", err)
	}
	if _, err := parseJSON([]byte("-" + strings.Repeat("9", 4300))); err != nil {
		t.Errorf("a negative integer of %d digits: %v", 4300, err)
	}
}

// TestReportMessagesClipped: a long float, key or time never reaches an
// error message whole.
func TestReportMessagesClipped(t *testing.T) {
	long := strings.Repeat("7", 1<<20)
	for _, raw := range [][]byte{
		reportWith(t, `"error_pct":12.0`, `"error_pct":12.`+long),
		reportWith(t, `"occurred_at":"2026-11-30T12:00:00.123456+00:00"`, `"occurred_at":"`+long+`"`),
		reportWith(t, `{"admission_peak_bytes"`, `{"`+long+`":1,"`+long+`":2,"admission_peak_bytes"`),
	} {
		_, err := ParseReport("long.json", raw)
		if err == nil || len(err.Error()) > 400 {
			t.Errorf("%d bytes of message: %.300v", len(err.Error()), err)
		}
	}
}

// TestSnapshotJSONDepthBound: a JSON snapshot nested past encoding/json's
// bound (10,000 levels) is refused by its scanner, before a value is
// built, with memory that does not grow with the nesting.
func TestSnapshotJSONDepthBound(t *testing.T) {
	deep := `{"segments":` + strings.Repeat("[", 4<<20)
	var err error
	n := allocated(func() { _, err = ReadSnapshot(strings.NewReader(deep), ReadOptions{}) })
	if err == nil || !strings.Contains(err.Error(), "exceeded max depth") {
		t.Errorf("%.200v, want the depth refused", err)
	}
	if n > 3*uint64(len(deep)) {
		t.Errorf("%d bytes allocated for %d bytes of input", n, len(deep))
	}
}
