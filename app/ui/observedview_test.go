package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"headroom/app/chart"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// TestObservedViewWarningAndSentence: the table is the estimate's, a peak
// below in_use_bytes is kept with a warning beside it, and the sentence
// carries the fit's numbers.
func TestObservedViewWarningAndSentence(t *testing.T) {
	s := page.New()
	s.Cfg.Budget.InUseBytes = 40 << 30
	s.SetObserved("64902, 94780217856, cold\n1000, 30 GiB, below")
	s.Validate()
	if !s.Valid || s.Errs[page.KeyObserved] != "" {
		t.Fatalf("errors %v", s.Errs)
	}
	sh := shownState{ready: true, result: s.Result, config: s.Cfg}
	v := observedViewOf(&s, &sh, "rows")
	res, err := estimator.Estimate(s.Cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Rows) != 2 {
		t.Fatalf("rows %+v", v.Rows)
	}
	for i, r := range v.Rows {
		o := res.Observed[i]
		if r.Predicted != [2]int64{int64(o.Baseline.PredictedBytes), int64(o.Candidate.PredictedBytes)} ||
			r.Residual != [2]int64{int64(o.Baseline.ResidualBytes), int64(o.Candidate.ResidualBytes)} {
			t.Errorf("row %d %+v, estimate %+v", i, r, o)
		}
	}
	if v.Rows[0].Warning != "" || !strings.Contains(v.Rows[1].Warning, "below the memory in use (in_use_bytes 42,949,672,960 bytes)") {
		t.Errorf("warnings %q, %q", v.Rows[0].Warning, v.Rows[1].Warning)
	}
	if v.Summary != ObservedSentence(res.Fit, 2) || !strings.HasPrefix(v.Summary, "The candidate is within ") {
		t.Errorf("sentence %q", v.Summary)
	}
}

// TestObservedSentence: the sentence from hand-written fits.
func TestObservedSentence(t *testing.T) {
	cases := []struct {
		name   string
		fit    estimator.Fit
		points int
		want   string
	}{
		{"the spec's example", estimator.Fit{
			Baseline:  estimator.RevisionFit{ErrorPercentBefore: 17.24, ErrorPercentAfter: 2.0},
			Candidate: estimator.RevisionFit{ErrorPercentBefore: 3.06, ErrorPercentAfter: 0.4}}, 4,
			"The candidate is within 3.1 % of the measurements, the baseline within 17.2 %; after a fitted static and per-row correction, 0.4 % and 2.0 %."},
		{"two points, tiny error", estimator.Fit{
			Baseline:  estimator.RevisionFit{ErrorPercentBefore: 5, ErrorPercentAfter: 0},
			Candidate: estimator.RevisionFit{ErrorPercentBefore: 0.01, ErrorPercentAfter: 1e-9}}, 2,
			"The candidate is within 0.1 % of the measurements, the baseline within 5.0 %; after a fitted static and per-row correction, < 0.1 % and 0.0 %. Two points fit exactly (unless their rows are equal) and prove nothing on their own."},
		// An error larger than the peak itself read "within 1065.3 % of
		// the measurements": it says what such an error points to.
		{"an error beyond the peak", estimator.Fit{
			Baseline:  estimator.RevisionFit{ErrorPercentBefore: 987.0, ErrorPercentAfter: 1.2},
			Candidate: estimator.RevisionFit{ErrorPercentBefore: 1065.3, ErrorPercentAfter: 0.8}}, 4,
			"The predictions miss by more than the measured peaks themselves (the candidate by up to 1065.3 %, the baseline by up to 987.0 %), as when the peaks leave out the memory in use the predictions count (in_use_bytes, resident memory); after a fitted static and per-row correction, 0.8 % and 1.2 %."},
		{"one point", estimator.Fit{}, 1,
			"The candidate is within 0.0 % of the measurements, the baseline within 0.0 %; after a fitted static and per-row correction, 0.0 % and 0.0 %. One point fits exactly and proves nothing on its own."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := ObservedSentence(&tc.fit, tc.points); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
	if ObservedSentence(nil, 0) != "" {
		t.Error("a sentence without points")
	}
}

// TestObservedExportImport: the JSON export carries the points (config
// and result), and importing it restores them.
func TestObservedExportImport(t *testing.T) {
	s := page.New()
	s.SetObserved("64902, 94780217856, cold\n33706, 82.182 GiB, warm")
	s.Validate()
	data, err := exportJSON(s.Cfg, page.View{Axis: s.Axis, From: s.From, To: s.To}, chart.Input{})
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Config struct {
			Observed []estimator.ObservedPoint `json:"observed"`
		} `json:"config"`
		Result struct {
			Observed []json.RawMessage `json:"observed"`
			Fit      *estimator.Fit    `json:"fit"`
		} `json:"result"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Config.Observed) != 2 || f.Config.Observed[1].PeakBytes != 88242250580 || len(f.Result.Observed) != 2 || f.Result.Fit == nil {
		t.Fatalf("export %s", data)
	}
	imp, err := page.ImportJSON(estimator.Default(), data)
	if err != nil {
		t.Fatal(err)
	}
	fresh := page.New()
	next, err := fresh.WithImport(imp, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(estimator.MarshalConfig(next.Cfg)) != string(estimator.MarshalConfig(s.Cfg)) {
		t.Errorf("imported points %+v, want %+v", next.Cfg.Observed, s.Cfg.Observed)
	}
}

// TestBelowInUse: the warning names the in-use bytes the peak is below,
// each revision's when a baseline of its own has other in-use bytes.
func TestBelowInUse(t *testing.T) {
	cases := []struct {
		name  string
		peak  int64
		inUse [2]int64
		want  string
	}{
		{"above", 100, [2]int64{50, 50}, ""},
		{"equal is not below", 50, [2]int64{50, 50}, ""},
		{"below both, same", 10, [2]int64{50, 50}, "below the memory in use (in_use_bytes 50 bytes)"},
		{"below both, own baseline", 10, [2]int64{60, 50}, "below the memory in use (in_use_bytes 60 bytes for the baseline, 50 bytes for the candidate)"},
		{"below the baseline's only", 55, [2]int64{60, 50}, "below the baseline's memory in use (in_use_bytes 60 bytes)"},
		{"below the candidate's only", 55, [2]int64{50, 1000}, "below the candidate's memory in use (in_use_bytes 1,000 bytes)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := belowInUse(tc.peak, tc.inUse); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
