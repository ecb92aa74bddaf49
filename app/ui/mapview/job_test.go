package mapview

import (
	"encoding/json"
	"testing"

	"headroom/app/ui/page"
	"headroom/estimator"
)

// TestMapJobEqualsMap: computed a column or three per step, the job's map
// is estimator.Map's, byte for byte in JSON.
func TestMapJobEqualsMap(t *testing.T) {
	t.Parallel()
	cfg := estimator.Default()
	for _, tc := range []struct {
		name, x, y string
		per        int
	}{
		{"rows by in_use one per step", "rows", "in_use_bytes", 1},
		{"in_use by rows three per step", "in_use_bytes", "rows", 3},
		{"capacity by rows", "capacity_bytes", "rows", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms := page.NewMapState()
			ms.X, ms.Y, ms.Cols = tc.x, tc.y, 40
			ms.Check(cfg)
			j := newMapJob("k", cfg, &ms)
			steps := 0
			clock := 0.0 // a column a millisecond: a slice of tc.per ms computes tc.per columns
			now := func() float64 { return clock }
			for !j.done {
				page.Slice(float64(tc.per), now, func() bool { clock++; return j.column() })
				steps++
				if steps > 1000 {
					t.Fatal("the job never finished")
				}
			}
			if j.err != nil {
				t.Fatal(j.err)
			}
			if want := (40 + tc.per - 1) / tc.per; steps != want {
				t.Errorf("steps = %d, want %d", steps, want)
			}
			x, y, n := ms.Axes()
			want, err := estimator.Map(cfg, x, y, n)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(j.res)
			b, _ := json.Marshal(want)
			if string(a) != string(b) {
				t.Errorf("progressive map differs from estimator.Map:\n%s\n%s", a, b)
			}
		})
	}
}

// TestMapJobErrors: axes NewMapper refuses end the job at once with the
// error naming the field.
func TestMapJobErrors(t *testing.T) {
	t.Parallel()
	cfg := estimator.Default()
	ms := page.NewMapState()
	ms.Y = "rows"
	ms.Check(cfg)
	j := newMapJob("k", cfg, &ms)
	if !j.done || j.err == nil {
		t.Fatalf("same axis twice: done %v err %v", j.done, j.err)
	}
	if fe := estimator.FieldErrors(j.err); len(fe) == 0 || page.MapErrKey(fe[0].Field) != page.KeyMY {
		t.Errorf("error %v is not beside %s", j.err, page.KeyMY)
	}
}

// BenchmarkMapJob is one 128-column map of the default config computed
// as the page computes it, column by column through mapJob.
func BenchmarkMapJob(b *testing.B) {
	cfg := estimator.Default()
	ms := page.NewMapState()
	ms.Check(cfg)
	for b.Loop() {
		j := newMapJob("k", cfg, &ms)
		for j.column() {
		}
		if j.err != nil {
			b.Fatal(j.err)
		}
	}
}
