package chart

import (
	"math"
	"strings"
	"testing"

	"headroom/estimator"
)

// compareInput sweeps capacity_bytes with a baseline of its own that holds
// 40 GiB in use: below 40 GiB of capacity the baseline alone is invalid.
func compareInput(t *testing.T) Input {
	t.Helper()
	cfg := estimator.Default()
	cfg.Baseline = &estimator.Baseline{Changes: cfg.Changes, Overrides: estimator.Overrides{
		"budget.in_use_bytes": {Int: 40 << 30},
	}}
	in, err := Build(cfg, "capacity_bytes", 1<<30, 200<<30, 200)
	if err != nil {
		t.Fatal(err)
	}
	in.Names = [2]string{"40 GiB in use", "nothing in use"}
	return in
}

// TestChartInvalidRevisionIsAGap checks that a revision invalid alone
// has no value on its lines there (a gap), never 0, while the other
// revision's lines go on.
func TestChartInvalidRevisionIsAGap(t *testing.T) {
	t.Parallel()
	in := compareInput(t)
	lines := map[string]lineSpec{}
	for _, l := range chartLines(&in, &Light) {
		lines[l.label] = l
	}
	base, ok := lines["40 GiB in use required"]
	if !ok {
		t.Fatalf("no baseline required line among %v", labels(chartLines(&in, &Light)))
	}
	ys, _ := readLine(in.Points, base.value)
	cys, _ := readLine(in.Points, lines["nothing in use required"].value)
	gaps := 0
	for i, p := range in.Points {
		if p.Rev[0].Error == "" {
			if math.IsNaN(ys[i]) {
				t.Errorf("x = %d: the baseline is valid but its line has a gap", p.X)
			}
			continue
		}
		gaps++
		if !math.IsNaN(ys[i]) {
			t.Errorf("x = %d: the baseline is invalid (%s) but its line reads %v GiB", p.X, p.Rev[0].Error, ys[i])
		}
		if p.Rev[1].Error == "" && math.IsNaN(cys[i]) {
			t.Errorf("x = %d: the candidate is valid but its line has a gap", p.X)
		}
	}
	if gaps == 0 {
		t.Fatal("fixture: the baseline is valid everywhere")
	}
}

// TestChartOwnAvailableLines checks that revisions with different
// available bytes each get their own available line, named, and that the
// legend names the setups.
func TestChartOwnAvailableLines(t *testing.T) {
	t.Parallel()
	in := compareInput(t)
	got := labels(chartLines(&in, &Light))
	for _, want := range []string{"nothing in use available", "40 GiB in use available"} {
		if !strings.Contains(strings.Join(got, "|"), want) {
			t.Errorf("lines %v lack %q", got, want)
		}
	}
	for _, l := range chartLines(&in, &Light) {
		if l.label == "40 GiB in use available" {
			for i := range in.Points {
				p := &in.Points[i]
				v, ok := l.value(p)
				if ok && v != p.Rev[0].AvailableBytes {
					t.Fatalf("x = %d: the baseline's available line reads %d, its own is %d", p.X, v, p.Rev[0].AvailableBytes)
				}
			}
		}
	}
	svg, err := SVG(in, 900, 500)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"40 GiB in use flip", "nothing in use flip", "40 GiB in use available"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("the SVG's legend lacks %q", want)
		}
	}
	// Without a baseline of its own: one available line, the usual names.
	def, err := Build(estimator.Default(), "rows", 1, 500000, 64)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(labels(chartLines(&def, &Light)), "|"); !strings.Contains(got, "|available|") ||
		!strings.HasPrefix(got, "candidate required|baseline required|lower bound|available|") {
		t.Errorf("default lines: %s", got)
	}
}

func labels(specs []lineSpec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.label
	}
	return out
}
