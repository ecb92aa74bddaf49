package cli

import (
	"strconv"
	"strings"
	"testing"

	"headroom/estimator"
)

// TestSweepWithoutRangeTakesThePages: sweep required -to, so the question
// "from how many rows does each revision refuse?" needed a guessed range.
// Without -to it sweeps the page's range (estimator.FitRange, which holds
// every flip of both revisions), says so on stderr, and -format text
// prints each revision's decisions along it.
func TestSweepWithoutRangeTakesThePages(t *testing.T) {
	cfg := estimator.Default()
	_, to := estimator.FitRange("rows", cfg, estimator.LastFlip)
	code, fitted, errOut := runMain(Sweep, "{}", "-config", "-")
	if code != 0 || !strings.Contains(errOut, "-to not given: rows 1 to "+estimator.Group(to)+", the page's range") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	_, given, _ := runMain(Sweep, "{}", "-config", "-", "-to", strconv.FormatInt(to, 10))
	if fitted != given {
		t.Errorf("without -to:\n%s\nwith -to %d:\n%s", fitted, to, given)
	}
	code, text, errOut := runMain(Sweep, "{}", "-config", "-", "-format", "text")
	if code != 0 {
		t.Fatalf("text: exit %d, %q", code, errOut)
	}
	for _, want := range []string{"Along rows, 1 to " + estimator.Group(to) + ":\n", "  baseline   admit 1..", "  candidate  admit 1..", ", refuse "} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if strings.Count(text, ", refuse ") != 2 {
		t.Errorf("both revisions refuse inside the page's range:\n%s", text)
	}
}
