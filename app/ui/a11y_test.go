package ui

import (
	"strings"
	"testing"

	"headroom/app/ui/page"
)

func TestValueText(t *testing.T) {
	for _, tc := range []struct {
		name, key, text, placeholder, want string
	}{
		{"rows", "rows", "64902", "", "64,902 rows"},
		{"bytes with GiB", "capacity_bytes", "85899345920", "", "85,899,345,920 bytes (80.000 GiB)"},
		{"GiB field", page.KeyInUseGiB, "63.75", "", "63.75 GiB"},
		{"plain count", "hidden_size", "4096", "", "4,096"},
		{"auto with its value", "projected_rows", "", "auto (64,902)", "64,902 rows (auto)"},
		{"auto alone", "target_rows", "", "auto", "auto"},
		{"typed text in error", "rows", "lots", "", "lots rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := valueText(tc.key, tc.text, tc.placeholder); got != tc.want {
				t.Errorf("valueText(%q, %q, %q) = %q, want %q", tc.key, tc.text, tc.placeholder, got, tc.want)
			}
		})
	}
}

func TestChartSummary(t *testing.T) {
	got := chartSummary("rows", 1, 1_000_000, flipNotes{
		Baseline:  "admits up to 239,348 rows, splits up to the range's end, 519,216",
		Candidate: "admits up to 214,447 rows, splits up to the range's end, 519,216",
		Change:    "between 214,448 and 239,348 rows the candidate splits where the baseline admitted",
	})
	for _, want := range []string{"along rows, from 1 to 1,000,000", "The baseline admits up to 239,348 rows",
		"The candidate admits up to 214,447 rows", "Between 214,448 and 239,348 rows the candidate splits"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary %q lacks %q", got, want)
		}
	}
	if got := chartSummary("", 0, 0, flipNotes{}); got == "" {
		t.Error("no summary before the first render")
	}
}

// TestExplorerChartSummary: the mounted page's chart has a summary that
// names its flips.
func TestExplorerChartSummary(t *testing.T) {
	c, _ := mountExplorer(t, nil)
	got := c.chartSummaryText("rows")
	if !strings.Contains(got, "along rows") || !strings.Contains(got, c.shown.notes.Candidate) || c.shown.notes.Candidate == "" {
		t.Errorf("summary %q, candidate notes %q", got, c.shown.notes.Candidate)
	}
}
