//go:build !wasm

package e2e

// The Trainer in a real browser: switching to ART's code
// shows ART's decision, its refusal sentence and its alternatives with
// the one that sets the price, and a link restores both.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"headroom/estimator"
)

// pick chooses value in the menu id as a person does: the select's value,
// then its change event.
func (tb *tab) pick(id, value string) {
	tb.t.Helper()
	tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const m = document.getElementById(%s);
		m.value = %s;
		m.dispatchEvent(new Event('change', {bubbles: true}));
	})()`, js(id), js(value))))
}

func TestE2ETrainerArt(t *testing.T) {
	// 300,000 rows under expert parallelism 8, an explicit config: the
	// seeds' reading admits them, ART's code refuses them (it does not
	// split under expert parallelism).
	cfg := estimator.Default()
	cfg.Request.Rows = 300000
	cfg.FC2.ExpertParallel = 8
	art := cfg
	art.Profile = estimator.ProfileArt
	seedsRes, err := estimator.Estimate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	artRes, err := estimator.Estimate(art)
	if err != nil {
		t.Fatal(err)
	}
	if seedsRes.Candidate.Decision == artRes.Candidate.Decision {
		t.Fatalf("fixture: the seeds and ART decide alike (%v) at 300,000 rows, EP 8", artRes.Candidate.Decision)
	}
	want := expectedDecisions(t, art)
	dominant := artRes.Candidate.DominantStage

	tb := newTab(t)
	tb.open(query(cfg))
	tb.waitDecisions(expectedDecisions(t, cfg))
	if got := tb.value("profile"); got != estimator.ProfileSeeds {
		t.Errorf("the Trainer says %q on a link without profile, want seeds", got)
	}

	n := tb.renders()
	tb.pick("profile", estimator.ProfileArt)
	tb.waitRenders(n)
	check := func(tb *tab, where string) {
		t.Helper()
		tb.waitDecisions(want)
		if got := tb.value("profile"); got != estimator.ProfileArt {
			t.Errorf("%s: the Trainer says %q, want art", where, got)
		}
		reason := eval[string](tb, `(document.querySelector('#decision-candidate .reason')?.textContent ?? '<missing>').trim()`)
		if reason != artRes.Candidate.Reason {
			t.Errorf("%s: the candidate's reason is %q, ART's is %q", where, reason, artRes.Candidate.Reason)
		}
		if !strings.Contains(reason, "unable to find a feasible split") {
			t.Errorf("%s: the reason %q is not ART's refusal sentence", where, reason)
		}
		tb.waitText("breakdown", "alternatives", dominant+" (sets the price)")
		tb.openStages() // a stage's tensors are drawn once it is opened
		table := eval[string](tb, `document.getElementById('breakdown').textContent`)
		for _, s := range artRes.Candidate.Stages {
			if !strings.Contains(table, s.Name) {
				t.Errorf("%s: the breakdown lacks the alternative %q", where, s.Name)
			}
			for _, tensor := range s.Tensors {
				if !strings.Contains(table, tensor.Name) {
					t.Errorf("%s: the breakdown lacks %s's %q", where, s.Name, tensor.Name)
				}
			}
		}
		legend := eval[string](tb, `document.querySelector('#chart svg')?.textContent ?? ''`)
		if !strings.Contains(legend, "moe (ART)") {
			t.Errorf("%s: the chart's stage lines are not ART's alternatives: %q", where, legend)
		}
	}
	check(tb, "after picking ART's code")

	// The address carries the trainer; a fresh page opened on it shows
	// the same decision and alternatives.
	tb.waitQuery("profile=art", func(q string) bool { return strings.Contains(q, "profile=art") })
	tb.waitSettled()
	link := eval[string](tb, `location.href`)
	fresh := newTab(t)
	fresh.do(chromedp.Navigate(link))
	fresh.waitReady()
	check(fresh, "the link in a fresh page")

	// And back: the seeds' reading again.
	n = fresh.renders()
	fresh.pick("profile", estimator.ProfileSeeds)
	fresh.waitRenders(n)
	fresh.waitDecisions(expectedDecisions(t, cfg))
	fresh.waitQuery("no profile", func(q string) bool { return !strings.Contains(q, "profile=") })

	// "seeds vs ART" is one pick in the comparisons menu: the baseline is
	// the seeds' reading, the candidate ART's code, each named.
	n = fresh.renders()
	fresh.pick("compare-preset", "seeds-art")
	fresh.waitRenders(n)
	cmp := cfg
	cmp.Profile = estimator.ProfileArt
	cmp.Baseline = &estimator.Baseline{Changes: cfg.Changes, Overrides: estimator.Overrides{"profile": {Text: estimator.ProfileSeeds}}}
	fresh.waitDecisions(expectedDecisions(t, cmp))
	fresh.waitExpr("the panels named by trainer", `[...document.querySelectorAll('.decision-card h3')].map(h => h.textContent).join(' | ')`,
		func(s string) bool { return s == "Seeds' reading | ART's code" })
	if got := fresh.value("b.profile"); got != estimator.ProfileSeeds {
		t.Errorf("the baseline's trainer menu says %q, want seeds", got)
	}
	fresh.waitQuery("b.profile=seeds and profile=art", func(q string) bool {
		return strings.Contains(q, "b.profile=seeds") && strings.Contains(q, "&profile=art")
	})
}
