package chart

import (
	"strings"
	"testing"

	"headroom/estimator"
)

// termsConfig has a term of each placement, and a stage term of each
// revision.
func termsConfig() estimator.Config {
	cfg := estimator.Default()
	cfg.Terms = []estimator.Term{
		{Name: "router_weights", Place: "retained", Revision: "both", Bytes: "n * K * 4"},
		{Name: "act_copy", Place: "activations", Revision: "candidate", Bytes: "n * H * 4"},
		{Name: "logits_fp32_copy", Place: "head", Revision: "candidate", Bytes: "2 * D"},
		{Name: "ep_dispatch", Place: "fc2", Revision: "candidate", Bytes: "r * H * b"},
		{Name: "gdn_scratch", Place: "gdn", Revision: "baseline", Bytes: "n * Hv * Dv * 2"},
		{Name: "router_buffer", Place: "stage", Revision: "candidate", Bytes: "n * 80_000"},
		{Name: "old_buffer", Place: "stage", Revision: "baseline", Bytes: "n * 60_000"},
	}
	return cfg
}

func TestChartTermsGoldenSVG(t *testing.T) {
	t.Parallel()
	in, err := Build(termsConfig(), "rows", 1, 1_000_000, 128)
	if err != nil {
		t.Fatal(err)
	}
	w, h := goldenSize()
	got, err := SVG(in, w, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, label := range []string{"router_buffer", "old_buffer (baseline)"} {
		if !strings.Contains(string(got), ">"+label+"<") {
			t.Errorf("the legend lacks %q", label)
		}
	}
	checkGolden(t, "chart_rows_terms.golden.svg", got)
}

// TestChartTermsMoveLines: a term in a stage moves that stage's line by
// its rounded bytes, a retained term the retained line, and a stage term
// is a line of its own.
func TestChartTermsMoveLines(t *testing.T) {
	t.Parallel()
	plain, err := Build(estimator.Default(), "rows", 1, 1_000_000, 64)
	if err != nil {
		t.Fatal(err)
	}
	cfg := termsConfig()
	with, err := Build(cfg, "rows", 1, 1_000_000, 64)
	if err != nil {
		t.Fatal(err)
	}
	round := func(v int64) int64 { return (v + 511) / 512 * 512 }
	for k := range plain.Points {
		p, q := &plain.Points[k].Rev[1], &with.Points[k].Rev[1]
		n := plain.Points[k].X
		vals := 2 * min(n, 512) * 151936 * 2 // 2 * D, D = min(p, C) x V x 2, p = n along rows
		checks := []struct {
			what      string
			got, want int64
		}{
			{"head", q.WholeStages[estimator.StageHead] - p.WholeStages[estimator.StageHead], round(vals)},
			{"activations", q.WholeStages[estimator.StageActivations] - p.WholeStages[estimator.StageActivations], round(n * 2048 * 4)},
			{"retained", q.WholeRetained - p.WholeRetained, round(n * 10 * 4)},
			{"router_buffer", q.WholeTermStages[5], round(n * 80_000)},
			{"old_buffer", with.Points[k].Rev[0].WholeTermStages[6], round(n * 60_000)},
		}
		for _, c := range checks {
			if c.got != c.want {
				t.Errorf("rows %d: %s moved by %d, want %d", n, c.what, c.got, c.want)
			}
		}
	}
	var labels []string
	for _, s := range termLines(&with) {
		labels = append(labels, s.label)
	}
	if got := strings.Join(labels, ","); got != "router_buffer,old_buffer (baseline)" {
		t.Errorf("term lines %q", got)
	}
	if len(termLines(&plain)) != 0 {
		t.Errorf("lines without terms")
	}
}
