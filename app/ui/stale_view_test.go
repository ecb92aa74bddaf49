package ui

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/report"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// TestInvalidFieldKeepsLastValidState: Custom
// capacity 80 GB with in use 100 GiB showed a green admit at in use 0,
// and rows 1.5 showed the decisions of the default 64,902 rows: the
// config a marked field's link opens with, which nobody entered. While
// a field is invalid the chart, decisions and table keep the last valid
// state, greyed, and the note names the field.
func TestInvalidFieldKeepsLastValidState(t *testing.T) {
	gib := int64(1) << 30
	c, d := mountExplorer(t, url.Values{"capacity_bytes": {"80000000000"}, "in_use_bytes": {"10737418240"}})
	if !c.shown.ready {
		t.Fatalf("no render: %v", c.state.Errs)
	}
	typeInto(d, c, page.KeyInUseGiB, "60")
	want := c.shown.result
	if got := c.shown.config.Budget.InUseBytes; got != 60*gib {
		t.Fatalf("in use shown %d, want 60 GiB", got)
	}
	for _, tc := range []struct{ key, text, errKey, name string }{
		{page.KeyInUseGiB, "100", "in_use_bytes", "in use (GiB)"},
		{"rows", "1.5", "rows", "rows"},
	} {
		typeInto(d, c, tc.key, tc.text)
		if c.state.Errs[tc.errKey] == "" {
			t.Fatalf("%s=%s is not marked: %v", tc.key, tc.text, c.state.Errs)
		}
		sh := c.shown
		if sh.config.Budget.InUseBytes != 60*gib || sh.config.Request.Rows != estimator.Default().Request.Rows ||
			sh.result.Candidate.Decision != want.Candidate.Decision || sh.result.Candidate.RequiredBytes != want.Candidate.RequiredBytes {
			t.Errorf("%s=%s: shown in use %d rows %d, %s %v; want the last valid state (60 GiB, %s %v)", tc.key, tc.text,
				sh.config.Budget.InUseBytes, sh.config.Request.Rows, sh.result.Candidate.Decision, sh.result.Candidate.RequiredBytes,
				want.Candidate.Decision, want.Candidate.RequiredBytes)
		}
		html := app.HTMLString(c)
		for _, s := range []string{`class="verdicts stale"`, `class="table stale"`, "Showing the last valid inputs", estimatorEscape(tc.name)} {
			if !strings.Contains(html, s) {
				t.Errorf("%s=%s: the page lacks %q", tc.key, tc.text, s)
			}
		}
		typeInto(d, c, tc.key, map[string]string{page.KeyInUseGiB: "60", "rows": "64902"}[tc.key])
	}

	// rows typed, then a typo: the decisions stay those of the typed rows.
	typeInto(d, c, "rows", "70000")
	rows70k := c.shown.result
	typeInto(d, c, "rows", "1.5")
	if c.shown.config.Request.Rows != 70000 || c.shown.result.Candidate.RequiredBytes != rows70k.Candidate.RequiredBytes {
		t.Errorf("rows 1.5 after 70,000 shows rows %d", c.shown.config.Request.Rows)
	}
}

// TestOverflowLinkBecomesReady: A link whose defaults
// overflow never became ready: "Loading the estimator…" and
// "Estimating…" forever, and the candidate said "no change on" with all
// three changes on. The page is ready, says what to fix, and titles the
// panels from the state. The link is TestE2EOverflowLinkSaysWhatToFix's:
// resident memory off and one GPU, as the page was when the defect was
// found (with resident memory on, the page's default since, the link is
// refused for its weights before anything overflows).
func TestOverflowLinkBecomesReady(t *testing.T) {
	c, _ := mountExplorer(t, url.Values{"resident": {"off"}, "expert_parallel": {"1"},
		"rows": {"2147483647"}, "hidden_size": {"1048576"}, "num_hidden_layers": {"1048576"}})
	if c.state.CfgOK || len(c.state.Errs) == 0 {
		t.Fatalf("fixture: the link prices (errors %v)", c.state.Errs)
	}
	if !strings.Contains(fmt.Sprint(c.state.Errs), "overflows") {
		t.Fatalf("fixture: the link does not overflow (errors %v)", c.state.Errs)
	}
	html := app.HTMLString(c)
	if !strings.Contains(html, `data-ready="1"`) {
		t.Errorf("the page is not ready")
	}
	for _, s := range []string{"Loading the estimator", "Estimating…", "no change on"} {
		if strings.Contains(html, s) {
			t.Errorf("the page says %q", s)
		}
	}
	if !strings.Contains(html, "Nothing to estimate: fix ") {
		t.Errorf("the page does not say what to fix")
	}
	for k := range c.state.Errs {
		if !strings.Contains(html, controlName(k)) {
			t.Errorf("the page does not name %s", k)
		}
	}
}

// TestBreakdownPlansDiffer: The baseline admits and
// the candidate splits into 2: the difference column set the candidate's
// largest child beside the baseline's whole request, retained -19.5 GiB
// and required -6.8 GiB in green, so the stricter candidate looked
// cheaper. When the plans differ the table says so, a child's rows show
// no difference, and the whole-plan rows are compared uncoloured.
func TestBreakdownPlansDiffer(t *testing.T) {
	list, err := page.Presets()
	if err != nil {
		t.Fatal(err)
	}
	q, _ := url.ParseQuery("preset=" + page.DefaultPresetID + "&in_use_bytes=68451041280&rows=220000&sequence_rows=8192")
	s := page.Decode(q, list)
	res, err := estimator.Estimate(s.Cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, c := res.Baseline, res.Candidate
	if b.Children == c.Children && b.ChildRows == c.ChildRows {
		t.Fatalf("fixture: the plans agree (%d x %d, %d x %d)", b.Children, b.ChildRows, c.Children, c.ChildRows)
	}
	html := app.HTMLString(&breakdown{Ready: true, Baseline: b, Candidate: c, Sink: nil})
	if !strings.Contains(html, "The plans differ") || !strings.Contains(html, "whole plans") {
		t.Errorf("the table does not say the plans differ")
	}
	if strings.Contains(html, `class="diff less"`) || strings.Contains(html, `class="diff more"`) {
		t.Errorf("a difference between two plans is coloured as better or worse")
	}
	want := estimator.Diff(b.RequiredBytes, c.RequiredBytes)
	if !strings.Contains(html, estimator.Group(int64(want))) {
		t.Errorf("the required row's whole-plan difference %s is not shown", estimator.Group(int64(want)))
	}
	// The plans agree: the column is as before, coloured.
	same := page.Decode(url.Values{"preset": {page.DefaultPresetID}, "rows": {"1000"}}, list)
	r2, err := estimator.Estimate(same.Cfg)
	if err != nil {
		t.Fatal(err)
	}
	if html := app.HTMLString(&breakdown{Ready: true, Baseline: r2.Baseline, Candidate: r2.Candidate}); strings.Contains(html, "plans differ") {
		t.Errorf("plans of %d x %d and %d x %d are said to differ", r2.Baseline.Children, r2.Baseline.ChildRows, r2.Candidate.Children, r2.Candidate.ChildRows)
	}
}

// TestStageColumnsSayWholeRequest: The chart's stage
// lines and the CSV's stage columns are the whole request's, before any
// split (the estimator's sweep prices them so), while the caption and the
// table speak of the chosen plan: the lines' labels and the columns'
// names say whole request.
func TestStageColumnsSayWholeRequest(t *testing.T) {
	h := strings.Join(report.SweepCSVHeader("rows"), ",")
	for _, want := range []string{"candidate_whole_fc2_bytes", "baseline_whole_retained_bytes", "candidate_required_bytes"} {
		if !strings.Contains(h, want) {
			t.Errorf("the CSV header lacks %s: %s", want, h)
		}
	}
	if strings.Contains(h, "candidate_fc2_bytes") {
		t.Errorf("a stage column does not say it is the whole request's: %s", h)
	}
}
