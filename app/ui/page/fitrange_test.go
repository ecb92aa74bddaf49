package page

import (
	"net/url"
	"testing"

	"headroom/estimator"
)

// TestFitRangeToFlips: With Mixtral on an H100 and
// 60 GB in use, the range was 8 x rows and every flip sat in the left
// 15 % of the chart; Fit range gave the same. The range ends at 1.25 x
// the last flip of either revision (at least the current value), and a
// range the user typed stays across other edits until Fit range.
func TestFitRangeToFlips(t *testing.T) {
	t.Parallel()
	list, err := Presets()
	if err != nil {
		t.Fatal(err)
	}
	q, _ := url.ParseQuery("preset=mixtral-8x7b&gpu=h100&in_use_bytes=60000000000")
	s := Decode(q, list)
	if !s.Valid {
		t.Fatalf("the link is not valid: %v", s.Errs)
	}
	lastOf := func(cfg estimator.Config) int64 {
		t.Helper()
		wide, err := estimator.Sweep(cfg, "rows", 1, 64*cfg.Request.Rows, 512)
		if err != nil {
			t.Fatal(err)
		}
		var last int64
		for _, fl := range [][]estimator.Flip{wide.Baseline.Flips, wide.Candidate.Flips} {
			if n := len(fl); n > 0 {
				last = max(last, fl[n-1].First)
			}
		}
		if last == 0 {
			t.Fatal("no flip along rows: the test needs one")
		}
		return last
	}
	check := func(when string, s State) {
		t.Helper()
		last, cur := lastOf(s.Cfg), s.Cfg.Request.Rows
		if s.To < last || s.To < cur {
			t.Errorf("%s: range %d..%d leaves out the last flip %d or rows %d", when, s.From, s.To, last, cur)
		}
		if float64(last) < 0.75*float64(s.To) && s.To > cur {
			t.Errorf("%s: range %d..%d puts the last flip (%d) at %.0f %% of the chart, want about 80 %%",
				when, s.From, s.To, last, 100*float64(last)/float64(s.To))
		}
	}
	check("opened", s)
	s.Apply(Edit{Kind: EditFit}, list)
	check("after Fit range", s)

	// A typed range stays across another field's edit, until Fit range.
	s.Apply(Edit{Kind: EditText, Key: KeyTo, Text: "900000"}, list)
	s.Apply(Edit{Kind: EditText, Key: "hidden_size", Text: "4096"}, list)
	s.Apply(Edit{Kind: EditMenu, Key: KeyPreset, Text: "mixtral-8x7b"}, list)
	s.Apply(Edit{For: ForCompare, Kind: EditMenu, Key: KeyComparePreset, Text: ComparisonGPU}, list)
	if s.To != 900000 {
		t.Errorf("the typed end 900,000 became %d after other edits", s.To)
	}
	s.Apply(Edit{Kind: EditFit}, list)
	check("after Fit range again", s)
}
