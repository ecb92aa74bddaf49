package chartview

import (
	"reflect"
	"testing"

	"headroom/app/chart"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// TestSweepCacheReuseIsExact checks the premise of the cache: along every
// axis, a config that differs only in the axis' own value sweeps to the
// same points and flips, and a cached sweep is reused for it.
func TestSweepCacheReuseIsExact(t *testing.T) {
	t.Parallel()
	base := estimator.Default()
	base.Request.Rows = 20000
	for _, axis := range estimator.Axes() {
		f, _ := estimator.FieldByKey(axis)
		from, to := page.DefaultRange(axis, base)
		var sc SweepCache[struct{}]
		if _, _, reused, err := sc.Get(base, [2]string{}, axis, from, to, 64); err != nil || reused {
			t.Fatalf("%s: first get: reused %v, err %v", axis, reused, err)
		}
		moved := base
		v := estimator.AxisValue(axis, base)
		f.SetInt(&moved, v/2+1)
		got, _, reused, err := sc.Get(moved, [2]string{}, axis, from, to, 64)
		if err != nil {
			t.Fatalf("%s: %v", axis, err)
		}
		fresh, err := chart.Build(moved, axis, from, to, 64)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, fresh) {
			t.Errorf("%s: the cached sweep differs from a fresh one (reused %v)", axis, reused)
		}
		// hidden_size, num_hidden_layers, moe_intermediate_size: other
		// fields derive from them (output_width, retained_per_row_bytes,
		// input_width), so the cache prices the moved config afresh.
		derives := axis == "hidden_size" || axis == "num_hidden_layers" || axis == "moe_intermediate_size"
		if !derives && !reused {
			t.Errorf("%s: moving the axis itself recomputed the sweep", axis)
		}
		other := moved
		other.Head.ChunkRows = 300
		if axis == "chunk_rows" {
			other.Model.VocabSize = 100000
		}
		if _, _, reused, _ := sc.Get(other, [2]string{}, axis, from, to, 64); reused {
			t.Errorf("%s: a change of another input reused the sweep", axis)
		}
		// A baseline of its own changes the baseline's flips: never reused.
		compared := other
		compared.Baseline = &estimator.Baseline{Overrides: estimator.Overrides{"budget.capacity_bytes": {Int: estimator.H100CapacityBytes}}}
		if _, _, reused, _ := sc.Get(compared, [2]string{}, axis, from, to, 64); reused {
			t.Errorf("%s: a baseline of its own reused the sweep without one", axis)
		}
	}
}

// TestSweepCacheRowsWithProjection: with projected rows set, sweeping rows
// scales them by the current rows, so the sweep depends on rows.
func TestSweepCacheRowsWithProjection(t *testing.T) {
	t.Parallel()
	c := estimator.Default()
	c.Request.ProjectedRows = estimator.Int64(30000)
	var sc SweepCache[struct{}]
	if _, _, _, err := sc.Get(c, [2]string{}, "rows", 1, 500000, 64); err != nil {
		t.Fatal(err)
	}
	c.Request.Rows = 40000
	got, _, reused, err := sc.Get(c, [2]string{}, "rows", 1, 500000, 64)
	if err != nil || reused {
		t.Fatalf("reused %v, err %v", reused, err)
	}
	fresh, _ := chart.Build(c, "rows", 1, 500000, 64)
	if !reflect.DeepEqual(got, fresh) {
		t.Errorf("differs from a fresh sweep")
	}
}

// TestChartFlipsMatchSweep: the chart's flips, bisected from its points,
// are the sweep command's, over axes, ranges that cross invalid regions,
// and configs near overflow.
func TestChartFlipsMatchSweep(t *testing.T) {
	t.Parallel()
	configs := []estimator.Config{estimator.Default()}
	c := estimator.Default()
	c.Budget.InUseBytes = 100 << 30
	c.Request.Outputs.TopK = 20
	c.Request.Outputs.Logits = true
	c.Request.Grad = false
	configs = append(configs, c)
	c = estimator.Default()
	c.Model.HiddenSize, c.Model.NumHiddenLayers = 1<<20, 1<<20
	configs = append(configs, c)
	c = estimator.Default()
	c.Request.ProjectedRows = estimator.Int64(1000)
	c.Request.TargetRows = estimator.Int64(0)
	c.FC2.ExpertParallel = 8
	configs = append(configs, c)
	for i, cfg := range configs {
		for _, axis := range estimator.Axes() {
			from, to := page.DefaultRange(axis, cfg)
			for _, r := range [][2]int64{{from, to}, {0, 3 * to}, {from, from + 100}} {
				for _, points := range []int{2, 37, 512} {
					want, werr := estimator.Sweep(cfg, axis, r[0], r[1], points)
					got, gerr := chart.Build(cfg, axis, r[0], r[1], points)
					if (werr == nil) != (gerr == nil) {
						t.Fatalf("config %d %s %v: errors %v / %v", i, axis, r, werr, gerr)
					}
					if werr != nil {
						continue
					}
					if !reflect.DeepEqual(got.Baseline, want.Baseline.Flips) || !reflect.DeepEqual(got.Candidate, want.Candidate.Flips) {
						t.Errorf("config %d %s %v %d points: flips differ\n got %+v %+v\nwant %+v %+v", i, axis, r, points,
							got.Baseline, got.Candidate, want.Baseline.Flips, want.Candidate.Flips)
					}
				}
			}
		}
	}
}
