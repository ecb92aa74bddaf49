package ui

import (
	"strings"
	"testing"

	"headroom/app/ui/page"
)

// TestResidentLineDefault: the page's default says what the issue asks,
// "22.825 GiB resident: weights 22.405, adapters and optimizer 0.420";
// a typed in_use_bytes wins and the computed figure stays beside it.
func TestResidentLineDefault(t *testing.T) {
	s := page.New()
	const want = "22.825 GiB resident: weights 22.405, adapters and optimizer 0.420"
	if got := ResidentLine(s.Result.Candidate.Resident); got != want {
		t.Errorf("ResidentLine = %q, want %q", got, want)
	}
	s.SetText(page.KeyInUseGiB, "80")
	s.Validate()
	got := ResidentLine(s.Result.Candidate.Resident)
	if !strings.HasPrefix(got, "80.000 GiB in use as given") || !strings.HasSuffix(got, want) {
		t.Errorf("with 80 GiB typed: %q", got)
	}
}
