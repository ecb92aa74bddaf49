package page

import (
	"net/url"
	"testing"

	"headroom/estimator"
)

// TestFitRangeShowsEveryRefusal: the default page's range ended at 8 x
// rows (519,216) while both revisions refuse from about 560,000 rows, so
// the first screen showed no refusal. The range the page picks holds
// every flip of both revisions, the last refusal included, found past
// the default range.
func TestFitRangeShowsEveryRefusal(t *testing.T) {
	list, err := Presets()
	if err != nil {
		t.Fatal(err)
	}
	s := Decode(url.Values{}, list)
	if !s.Valid {
		t.Fatalf("the default page is not valid: %v", s.Errs)
	}
	wide, err := estimator.Sweep(s.Cfg, "rows", 1, 64*s.Cfg.Request.Rows, 1024)
	if err != nil {
		t.Fatal(err)
	}
	for i, fl := range [][]estimator.Flip{wide.Baseline.Flips, wide.Candidate.Flips} {
		n := len(fl)
		if n == 0 || fl[n-1].ToDecision != estimator.Refuse {
			t.Fatalf("revision %d: flips %+v; the test needs a refusal", i, fl)
		}
		if last := fl[n-1].First; s.To < last {
			t.Errorf("revision %d refuses from %d rows, but the range ends at %d", i, last, s.To)
		}
	}
	shown, err := estimator.Sweep(s.Cfg, "rows", s.From, s.To, fitPoints)
	if err != nil {
		t.Fatal(err)
	}
	for i, fl := range [][]estimator.Flip{shown.Baseline.Flips, shown.Candidate.Flips} {
		if n := len(fl); n == 0 || fl[n-1].ToDecision != estimator.Refuse {
			t.Errorf("revision %d: the page's range %d..%d shows flips %+v, no refusal", i, s.From, s.To, fl)
		}
	}
}
