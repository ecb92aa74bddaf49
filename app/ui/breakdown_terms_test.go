package ui

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/estimator"
)

// TestBreakdownTermRows: each term is a row of its own under its stage,
// for the revisions that hold it, also when it is named like a built-in
// tensor of that stage.
func TestBreakdownTermRows(t *testing.T) {
	cfg := estimator.Default()
	cfg.Terms = []estimator.Term{
		{Name: "input", Place: "fc2", Revision: "both", Bytes: "1000"},
		{Name: "logits_fp32_copy", Place: "head", Revision: "candidate", Bytes: "2 * D"},
		{Name: "router", Place: "stage", Revision: "baseline", Bytes: "n * 8"},
		{Name: "kept", Place: "retained", Revision: "candidate", Bytes: "n * 4"},
	}
	res, err := estimator.Estimate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rows := breakdownRows(res.Baseline, res.Candidate, cfg.Terms...)
	type row struct {
		stage, class string
		b, c         estimator.Bytes
		hasB, hasC   bool
	}
	got := map[string][]row{}
	stage := ""
	for _, r := range rows {
		if r.Class == "stage" {
			stage = r.Label
		}
		got[r.Label] = append(got[r.Label], row{stage, r.Class, r.Base, r.Cand, r.HasBase, r.HasCd})
	}
	n := int64(64902)
	round := func(v int64) estimator.Bytes { return estimator.Bytes((v + 511) / 512 * 512) }
	want := map[string][]row{
		// the candidate's built-in input (fc2_known_storage), then the term both hold
		"input": {{"fc2", "tensor", 0, res.Candidate.Stage("fc2").Tensors[2].Bytes, false, true},
			{"fc2", "tensor term", 1024, 1024, true, true}},
		"logits_fp32_copy": {{"head", "tensor term", 0, round(2 * 155_582_464), false, true}},
		"router":           {{"router", "stage", round(n * 8), 0, true, false}, {"router", "tensor term", round(n * 8), 0, true, false}},
		"kept":             {{"retained", "tensor term", 0, round(n * 4), false, true}},
	}
	for name, w := range want {
		g := got[name]
		if len(g) != len(w) {
			t.Errorf("%s: rows %+v, want %+v", name, g, w)
			continue
		}
		for i := range w {
			if g[i] != w[i] {
				t.Errorf("%s row %d: %+v, want %+v", name, i, g[i], w[i])
			}
		}
	}
	html := app.HTMLString(&breakdown{Ready: true, Baseline: res.Baseline, Candidate: res.Candidate, Terms: cfg.Terms})
	if c := strings.Count(html, `class="tensor term`); c != 4 {
		t.Errorf("%d rows of class term in the table, want 4", c)
	}
}

// TestBreakdownArtTermRows: under ART's code a term is a row under the
// part it joined: a checkpoint part's term in the checkpoint stage (a
// replaced part's own tensor gone), a forward alternative's in its
// stage, a stage of its own as a stage.
func TestBreakdownArtTermRows(t *testing.T) {
	cfg := estimator.Default()
	cfg.Profile = estimator.ProfileArt
	cfg.Terms = []estimator.Term{
		{Name: "one_gradient", Place: "input_gradient", Mode: "replace", Bytes: "min(B, 2 * n * H)"},
		{Name: "row_state", Place: "head", Revision: "both", Bytes: "256 * ng"},
		{Name: "routing", Place: "moe", Bytes: "n * 128"},
		{Name: "own", Place: "stage", Revision: "baseline", Bytes: "n * 8"},
	}
	res, err := estimator.Estimate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	n := estimator.Bytes(64902)
	stage, class := map[string]string{}, map[string]string{}
	cand, base := map[string]estimator.Bytes{}, map[string]estimator.Bytes{}
	cur := ""
	for _, r := range breakdownRows(res.Baseline, res.Candidate, cfg.Terms...) {
		if r.Class == "stage" {
			cur = r.Label
		}
		if _, seen := stage[r.Label]; !seen || r.Class != "stage" {
			stage[r.Label], class[r.Label], cand[r.Label], base[r.Label] = cur, r.Class, r.Cand, r.Base
		}
	}
	for _, c := range []struct {
		name, stage, class string
		base, cand         estimator.Bytes
	}{
		{"one_gradient", "checkpoint", "tensor term", 0, n * 2 * 2048},
		{"row_state", "checkpoint", "tensor term", n * 256, n * 256},
		{"routing", "moe", "tensor term", 0, n * 128},
		{"own", "own", "tensor term", n * 8, 0},
	} {
		if stage[c.name] != c.stage || class[c.name] != c.class || base[c.name] != c.base || cand[c.name] != c.cand {
			t.Errorf("%s: under %q as %q, %d / %d; want %q, %q, %d / %d", c.name, stage[c.name], class[c.name], base[c.name], cand[c.name], c.stage, c.class, c.base, c.cand)
		}
	}
	// The candidate's own input gradient is replaced: only the baseline's shows.
	if cand["input_gradient"] != 0 || base["input_gradient"] != 12760252416 {
		t.Errorf("input_gradient %d / %d, want 12,760,252,416 / none", base["input_gradient"], cand["input_gradient"])
	}
}
