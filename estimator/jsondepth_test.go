package estimator

import (
	"io"
	"runtime"
	"strings"
	"testing"
)

// TestJSONDepthBound: the config and workload readers take untrusted
// JSON; nesting past encoding/json's bound (10,000 levels, refused by its
// scanner before any value is built) is an error naming the depth, with
// memory that does not grow with the nesting.
func TestJSONDepthBound(t *testing.T) {
	deep := strings.Repeat("[", MaxWorkloadLineBytes-64)
	readers := map[string]func() error{
		"config": func() error { _, err := DecodeConfig([]byte(`{"model":` + deep)); return err },
		"config terms": func() error {
			_, err := DecodeConfig([]byte(`{"terms":` + strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000) + "}"))
			return err
		},
		"workload line": func() error {
			w, err := NewWorkloadReader(strings.NewReader(`{"rows":` + deep + "\n"))
			if err != nil {
				return err
			}
			var l WorkloadLine
			if err := w.Next(&l); err != io.EOF {
				return err
			}
			return nil
		},
	}
	for name, read := range readers {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		err := read()
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "exceeded max depth") {
			t.Errorf("%s: %.200v, want the depth refused", name, err)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 3*uint64(len(deep))+1<<20 {
			t.Errorf("%s: %d bytes allocated for %d bytes of input", name, n, len(deep))
		}
	}
}
