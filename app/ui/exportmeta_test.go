package ui

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"testing"

	"headroom/app/chart"
	"headroom/app/report"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// TestCSVFlipRows: the CSV has a row of its own for both sides of every
// flip of both revisions, marked "flip", named, sorted by x with the grid,
// and each such row shows the decision its name says.
func TestCSVFlipRows(t *testing.T) {
	cfg := pressureConfig()
	in, err := chart.Build(cfg, "rows", 1, 1_000_000, 64)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Baseline) == 0 || len(in.Candidate) == 0 {
		t.Fatalf("fixture: flips %d and %d, want both", len(in.Baseline), len(in.Candidate))
	}
	data, err := report.SweepCSV(cfg, SweepOf(in))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	var xs []int64
	seen := map[string]int64{}
	for _, rec := range recs[1:] {
		x, err := strconv.ParseInt(rec[col["rows"]], 10, 64)
		if err != nil {
			t.Fatalf("x %q", rec[col["rows"]])
		}
		xs = append(xs, x)
		if rec[col["kind"]] != "flip" {
			if rec[col["flip"]] != "" {
				t.Errorf("grid row at %d names a flip %q", x, rec[col["flip"]])
			}
			continue
		}
		for _, label := range strings.Split(rec[col["flip"]], "; ") {
			f := strings.Fields(label) // baseline last admit
			if len(f) != 3 {
				t.Fatalf("flip label %q", label)
			}
			if got := rec[col[f[0]+"_decision"]]; got != f[2] {
				t.Errorf("x=%d %q: %s decides %s", x, label, f[0], got)
			}
			seen[label] = x
		}
	}
	if !sort.SliceIsSorted(xs, func(i, j int) bool { return xs[i] < xs[j] }) {
		t.Errorf("rows not sorted by x: %v", xs)
	}
	for rev, flips := range map[string][]estimator.Flip{"baseline": in.Baseline, "candidate": in.Candidate} {
		for _, f := range flips {
			for label, x := range map[string]int64{
				rev + " last " + f.FromDecision.String(): f.Last,
				rev + " first " + f.ToDecision.String():  f.First,
			} {
				if got, ok := seen[label]; !ok || got != x {
					t.Errorf("flip row %q at %d (found %v), want %d", label, got, ok, x)
				}
			}
		}
	}
}

// TestJSONExportFlips: the JSON export holds both revisions' flips along
// the chart's axis, as the sweep command writes them.
func TestJSONExportFlips(t *testing.T) {
	cfg := pressureConfig()
	v := page.View{Axis: "rows", From: 1, To: 1_000_000}
	in, err := chart.Build(cfg, v.Axis, v.From, v.To, 64)
	if err != nil {
		t.Fatal(err)
	}
	data, err := exportJSON(cfg, v, in)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Flips json.RawMessage `json:"flips"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if len(in.Baseline) == 0 || len(in.Candidate) == 0 {
		t.Fatalf("fixture: flips %d and %d, want both", len(in.Baseline), len(in.Candidate))
	}
	// The sweep command's JSON over the same grid, field for field: the
	// shape of docs/model.md §6 ({"flips": [...]} per revision), which the
	// page's export took when both became report's (it wrote the lists
	// bare before).
	sw, err := estimator.Sweep(cfg, "rows", 1, 1_000_000, 64)
	if err != nil {
		t.Fatal(err)
	}
	var got, want bytes.Buffer
	if err := json.Compact(&got, f.Flips); err != nil {
		t.Fatal(err)
	}
	exp, _ := json.Marshal(sw)
	want.Write(exp)
	if got.String() != want.String() {
		t.Errorf("flips\n%s\nwant the sweep's\n%s", got.String(), want.String())
	}
}

// TestCaptioned: an exported chart's title and caption name the preset,
// the GPU, the changes on, the axis and range, the flips and the date.
func TestCaptioned(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cfg    func() estimator.Config
		preset string
		want   []string
	}{
		{"default on H200", estimator.Default, "Qwen3-Next-80B-A3B",
			[]string{"Qwen3-Next-80B-A3B on H200", "GPU H200 (143,771 MiB)", "with head_eager_workspace, fc2_known_storage, gdn_early_release", "axis rows 1 to 1,000,000", "2026-12-01"}},
		{"custom capacity, no change", func() estimator.Config {
			c := estimator.Default()
			c.Budget.CapacityBytes = 100 << 30
			c.Changes = estimator.Changes{}
			return c
		}, "", []string{"a custom model on a custom GPU", "custom capacity 107,374,182,400 bytes", "no change on"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg()
			in, err := chart.Build(cfg, "rows", 1, 1_000_000, 32)
			if err != nil {
				t.Fatal(err)
			}
			out := captioned(in, cfg, tc.preset, "2026-12-01")
			all := out.Title + " | " + out.Caption
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("%q lacks %q", all, w)
				}
			}
			if !strings.Contains(out.Caption, "baseline: ") || !strings.Contains(out.Caption, "candidate: ") {
				t.Errorf("caption names no flips: %q", out.Caption)
			}
		})
	}
}
