package ui

import (
	"net/url"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
)

// TestExplorerCompare drives the mounted page through its sink: choosing
// "H100 against H200" opens the form, and the panels, the table, the
// caption and the sentence name the setups; back to "changes off" they
// say baseline and candidate again.
func TestExplorerCompare(t *testing.T) {
	// The README's example setup: no resident group, one GPU.
	c, d := mountExplorer(t, url.Values{"rows": {"300000"}, page.KeyResident: {"off"}, "expert_parallel": {"1"}})
	if idsIn(app.HTMLString(c))["compare-form"] {
		t.Fatal("the form is open without a baseline of its own")
	}
	send(d, c, page.Edit{For: page.ForCompare, Kind: page.EditMenu, Key: page.KeyComparePreset, Text: page.ComparisonGPU})
	html := app.HTMLString(c)
	ids := idsIn(html)
	for _, id := range []string{"compare", "compare-form", "b.gpu", "b.preset", "b-sequence_rows", "b-in_use_gib", "b.add", "check-b.head_eager_workspace"} {
		if !ids[id] {
			t.Errorf("no #%s", id)
		}
	}
	for _, want := range []string{
		">H100 80GB</h3>", ">H200</h3>",
		"<th scope=\"col\">H100 80GB</th>", "H200 - H100 80GB",
		"along rows, H100 80GB and H200, against",
		"Between 227,374 rows (55.511 sequences) and 375,781 rows (91.743 sequences) H200 admits where H100 80GB split",
		"candidate: 4,096",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if b, k := c.shown.result.Baseline.Decision.String(), c.shown.result.Candidate.Decision.String(); b != "split" || k != "admit" {
		t.Errorf("decisions %s / %s, want split / admit", b, k)
	}
	// A bad override is marked beside its field; the rest is kept.
	typeInto(d, c, "b."+page.KeyInUseGiB, "90")
	html = app.HTMLString(c)
	if !strings.Contains(html, `id="error-b-in_use_bytes"`) || c.state.Errs["b.in_use_bytes"] == "" ||
		!strings.Contains(html, c.state.Errs["b.in_use_bytes"]) {
		t.Errorf("no message beside the baseline's in use: %v", c.state.Errs)
	}
	typeInto(d, c, "b."+page.KeyInUseGiB, "")
	send(d, c, page.Edit{For: page.ForCompare, Kind: page.EditMenu, Key: page.KeyCompare, Text: page.CompareChangesOff})
	html = app.HTMLString(c)
	if idsIn(html)["compare-form"] || !strings.Contains(html, ">Baseline</h3>") || !strings.Contains(html, "the candidate splits where the baseline admitted") {
		t.Errorf("back to the changes off, the page still compares setups")
	}
}
