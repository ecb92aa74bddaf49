package ui

import (
	"strings"
	"testing"

	"headroom/app/ui/page"
)

// TestTermNoteWhenBelowThePeak: a term in a stage that is not the peak
// moves no decision, and the row said nothing. It says so while the
// stage, with the term, stays below the peak, and not once the term makes
// its stage the peak.
func TestTermNoteWhenBelowThePeak(t *testing.T) {
	s := page.New()
	peak := s.Result.Candidate.DominantStage
	other := "head"
	if peak == "head" {
		other = "gdn"
	}
	s.EditTerms(page.Edit{For: page.ForTerms, Kind: page.EditTermAdd})
	s.EditTerms(page.TermEdit("place", 0, other))
	s.EditTerms(page.TermEdit("bytes", 0, "1024"))
	s.Validate()
	v := changesViewOf(&s)
	if len(v.Terms) != 1 || !strings.HasPrefix(v.Terms[0].Note, "Changes nothing at this point: "+other+", with this term, stays below the peak stage ("+peak+")") {
		t.Fatalf("peak %s, term in %s: %+v", peak, other, v.Terms)
	}
	s.EditTerms(page.TermEdit("bytes", 0, "1000 * D"))
	s.Validate()
	if v = changesViewOf(&s); v.Terms[0].Note != "" || s.Result.Candidate.DominantStage != other {
		t.Errorf("a term that makes %s the peak (now %s): note %q", other, s.Result.Candidate.DominantStage, v.Terms[0].Note)
	}
}
