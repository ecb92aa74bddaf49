package ui

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"headroom/app/chart"
	"headroom/app/report"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// pressureConfig is the FC2 seed's pressure run: 63.75 GiB already in use,
// so the decision flips within a modest range of rows.
func pressureConfig() estimator.Config {
	c := estimator.Default()
	c.Request.Rows = 200000
	c.Budget.InUseBytes = 68451041280
	return c
}

// TestCSVAgreesWithEstimateAndSweep: every CSV row is what `estimate`
// says at that x, and its decisions are those the `sweep` flips imply.
func TestCSVAgreesWithEstimateAndSweep(t *testing.T) {
	cfg := pressureConfig()
	in, err := chart.Build(cfg, "rows", 1, 1_000_000, 64)
	if err != nil {
		t.Fatal(err)
	}
	data, err := report.SweepCSV(cfg, SweepOf(in))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := recs[0]
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	grid, flipRows := 0, 0
	for _, rec := range recs[1:] {
		switch rec[col["kind"]] {
		case "grid":
			grid++
		case "flip":
			flipRows++
		default:
			t.Errorf("row of kind %q", rec[col["kind"]])
		}
	}
	if grid != len(in.Points) {
		t.Fatalf("%d grid rows for %d points", grid, len(in.Points))
	}
	if flipRows == 0 {
		t.Fatalf("no flip rows, the sweep has %d + %d flips", len(in.Baseline), len(in.Candidate))
	}
	sweep, err := estimator.Sweep(cfg, "rows", 1, 1_000_000, 64)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs[1:] {
		x, _ := strconv.ParseInt(rec[col["rows"]], 10, 64)
		at := cfg
		// rows is swept with projected and target rows following it; the
		// default config leaves both to their defaults, so setting rows is
		// the same config.
		at.Request.Rows = x
		res, err := estimator.Estimate(at)
		if err != nil {
			t.Fatalf("x=%d: %v", x, err)
		}
		for rev, o := range []estimator.Outcome{res.Baseline, res.Candidate} {
			name := []string{"baseline", "candidate"}[rev]
			if got := rec[col[name+"_decision"]]; got != o.Decision.String() {
				t.Errorf("x=%d %s decision %s, estimate %s", x, name, got, o.Decision)
			}
			if got := rec[col[name+"_required_bytes"]]; got != strconv.FormatInt(int64(o.RequiredBytes), 10) {
				t.Errorf("x=%d %s required %s, estimate %d", x, name, got, o.RequiredBytes)
			}
			if got := rec[col[name+"_children"]]; got != strconv.FormatInt(o.Children, 10) {
				t.Errorf("x=%d %s children %s, estimate %d", x, name, got, o.Children)
			}
			flips := sweep.Baseline.Flips
			if rev == 1 {
				flips = sweep.Candidate.Flips
			}
			if want := decisionFromFlips(flips, x, estimator.Admit); rec[col[name+"_decision"]] != want.String() {
				t.Errorf("x=%d %s decision %s, the sweep's flips imply %s", x, name, rec[col[name+"_decision"]], want)
			}
		}
		if got := rec[col["lower_bound_bytes"]]; got != strconv.FormatInt(int64(res.Candidate.LowerBoundBytes), 10) {
			t.Errorf("x=%d lower bound %s, estimate %d", x, got, res.Candidate.LowerBoundBytes)
		}
		if got := rec[col["available_bytes"]]; got != strconv.FormatInt(int64(res.AvailableBytes), 10) {
			t.Errorf("x=%d available %s, estimate %d", x, got, res.AvailableBytes)
		}
	}
}

// decisionFromFlips is the decision at x implied by a sweep's flips that
// start from first.
func decisionFromFlips(flips []estimator.Flip, x int64, first estimator.Decision) estimator.Decision {
	d := first
	for _, f := range flips {
		if x >= f.First {
			d = f.ToDecision
		}
	}
	return d
}

func TestCSVInvalidPoints(t *testing.T) {
	cfg := pressureConfig()
	in, err := chart.Build(cfg, "capacity_bytes", 1, 100<<30, 16)
	if err != nil {
		t.Fatal(err)
	}
	data, err := report.SweepCSV(cfg, SweepOf(in))
	if err != nil {
		t.Fatal(err)
	}
	out := string(data)
	if !strings.Contains(out, "invalid") || !strings.Contains(out, "budget.in_use_bytes") {
		t.Errorf("capacities below in_use are not reported invalid with the message:\n%s", out)
	}
}

// TestJSONExportRoundTrip: importing the export restores the same state.
func TestJSONExportRoundTrip(t *testing.T) {
	cfg := pressureConfig()
	cfg.Request.Outputs.TopK = 20
	cfg.FC2.OutputWidth = estimator.Int64(1024)
	cfg.Changes.GDNEarlyRelease = false
	v := page.View{Preset: "Qwen3-Next-80B-A3B", Axis: "vocab_size", From: 1000, To: 300000}
	in, err := chart.Build(cfg, v.Axis, v.From, v.To, 64)
	if err != nil {
		t.Fatal(err)
	}
	data, err := exportJSON(cfg, v, in)
	if err != nil {
		t.Fatal(err)
	}
	imp, err := page.ImportJSON(estimator.Default(), data)
	if err != nil {
		t.Fatal(err)
	}
	if imp.Kind != "export" || imp.View == nil || *imp.View != v {
		t.Errorf("kind %q view %+v", imp.Kind, imp.View)
	}
	if string(estimator.MarshalConfig(imp.Config)) != string(estimator.MarshalConfig(cfg)) {
		t.Errorf("config\n%s\nwant\n%s", estimator.MarshalConfig(imp.Config), estimator.MarshalConfig(cfg))
	}
	// The result in the file is the estimate of the config, in the spec's shape.
	var f struct {
		Result map[string]json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"available_bytes", "baseline", "candidate"} {
		if _, ok := f.Result[k]; !ok {
			t.Errorf("result has no %s", k)
		}
	}
}

func TestImportKinds(t *testing.T) {
	hf, err := os.ReadFile("../../estimator/hfconfig/testdata/hf/llama-3.1-8b.json")
	if err != nil {
		t.Fatal(err)
	}
	cur := pressureConfig()
	imp, err := page.ImportJSON(cur, hf)
	if err != nil {
		t.Fatal(err)
	}
	if imp.Kind != "hf" || imp.Config.Model.VocabSize != 128256 || imp.Config.Model.NumExpertsPerTok != 0 {
		t.Errorf("HF import: %q %+v", imp.Kind, imp.Config.Model)
	}
	if imp.Config.Request != cur.Request || imp.Config.Budget != cur.Budget {
		t.Error("HF import changed more than the model")
	}
	if len(imp.HF.Recognised) == 0 || len(imp.HF.Ignored) == 0 {
		t.Errorf("HF report %+v", imp.HF)
	}

	imp, err = page.ImportJSON(cur, []byte(`{"request": {"rows": 1234}}`))
	if err != nil || imp.Kind != "config" || imp.Config.Request.Rows != 1234 {
		t.Errorf("spec config import: %q %v %v", imp.Kind, imp.Config.Request.Rows, err)
	}
	// A byte order mark is skipped; a file of observed points alone is
	// in the spec's format (the command line reads both the same way).
	imp, err = page.ImportJSON(cur, []byte("\ufeff"+`{"request": {"rows": 1234}}`))
	if err != nil || imp.Kind != "config" || imp.Config.Request.Rows != 1234 {
		t.Errorf("spec config with a BOM: %q %v %v", imp.Kind, imp.Config.Request.Rows, err)
	}
	imp, err = page.ImportJSON(cur, []byte(`{"observed": [{"rows": 64902, "peak_bytes": 94780217856}]}`))
	if err != nil || imp.Kind != "config" || len(imp.Config.Observed) != 1 {
		t.Errorf("observed points alone: %q %v %v", imp.Kind, imp.Config.Observed, err)
	}

	for _, bad := range []string{``, `{`, `[1]`, `{"request": {"rows": -1}}`, `{"headroom": 1, "config": 5}`, `{"vocab_size": "x"}`} {
		t.Run(bad, func(t *testing.T) {
			if _, err := page.ImportJSON(cur, []byte(bad)); err == nil {
				t.Errorf("importJSON(%q) accepted", bad)
			}
		})
	}
}

// TestJSONExportResidentRoundTrip: a page on a preset with its resident
// group set (rank, targets, reserve) exports a file whose import restores
// the same config, arch fields and group included.
func TestJSONExportResidentRoundTrip(t *testing.T) {
	list, err := page.Presets()
	if err != nil {
		t.Fatal(err)
	}
	q, _ := url.ParseQuery("preset=qwen3-30b-a3b&lora_rank=16&lora_targets=q_proj,experts&framework_reserve_bytes=1073741824&expert_parallel=4")
	s := page.Decode(q, list)
	if !s.Valid {
		t.Fatalf("fixture: %v", s.Errs)
	}
	v := page.View{Preset: "qwen3-30b-a3b", Axis: "rows", From: s.From, To: s.To}
	in, err := chart.Build(s.Cfg, v.Axis, v.From, v.To, 16)
	if err != nil {
		t.Fatal(err)
	}
	data, err := exportJSON(s.Cfg, v, in)
	if err != nil {
		t.Fatal(err)
	}
	imp, err := page.ImportJSON(page.NewConfig(), data)
	if err != nil {
		t.Fatal(err)
	}
	start := page.New()
	next, err := start.WithImport(imp, list)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(estimator.MarshalConfig(next.Cfg)), string(estimator.MarshalConfig(s.Cfg)); got != want {
		t.Errorf("imported\n%s\nwant\n%s", got, want)
	}
	if rr := next.Result.Resident; rr == nil || rr.LoRA.Rank != 16 || rr.Architecture != "Qwen3MoeForCausalLM" || rr.FrameworkReserveBytes != 1<<30 {
		t.Errorf("resident block after the import: %+v", rr)
	}
}
