//go:build !wasm

package e2e

// axe-core's accessibility check of the explorer, in its
// default, split and refused states and with the chart's read-out shown:
// no serious or critical violation. axe-core is the npm package that
// `make test` installs into bin/node_modules (make axe); the test injects
// it into the page, which never loads it. The file sorts after e2e_explorer_test.go
// on purpose: TestE2EPageLoads must be the origin's first load (no service
// worker yet), and tests run in file order.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"headroom/estimator"
)

// axeSource reads axe-core's script, installed by make axe. Without it
// the test skips, and fails under CI=true (make test installs it).
func axeSource(t *testing.T) string {
	t.Helper()
	path := filepath.Join("..", "..", "bin", "node_modules", "axe-core", "axe.min.js")
	b, err := os.ReadFile(path)
	if err != nil {
		msg := fmt.Sprintf("axe-core is not installed (%v): run make axe (npm install --prefix bin axe-core)", err)
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true: " + msg)
		}
		t.Skip(msg)
	}
	return string(b)
}

// axeViolation is one rule axe-core found broken, with the nodes.
type axeViolation struct {
	ID, Impact, Help string
	Nodes            []string
}

// runAxe injects axe-core (once per page) and runs it on the document.
func (tb *tab) runAxe(src string) []axeViolation {
	tb.t.Helper()
	if !eval[bool](tb, `typeof window.axe === 'object'`) {
		tb.do(chromedp.Evaluate[chromedp.Void](src))
	}
	return eval[[]axeViolation](tb, `axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => ({
		ID: v.id, Impact: v.impact || '', Help: v.help,
		Nodes: v.nodes.map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').replace(/\s+/g, ' '))})))`,
		chromedp.EvalAwaitPromise)
}

func TestE2EAxe(t *testing.T) {
	src := axeSource(t)
	split := estimator.Default()
	split.Request.Rows = 420_000 // the candidate splits, the baseline admits
	refused := estimator.Default()
	refused.Request.Rows = 400_000
	refused.Budget.InUseBytes = 60 << 30 // both refuse
	for _, tc := range []struct {
		name    string
		cfg     estimator.Config
		want    [2]string
		readout bool
		dark    bool
	}{
		{"default", estimator.Default(), [2]string{"admit", "admit"}, false, false},
		{"default with the read-out", estimator.Default(), [2]string{"admit", "admit"}, true, false},
		{"split", split, [2]string{"admit", "split"}, false, false},
		{"refused", refused, [2]string{"refuse", "refuse"}, false, false},
		{"dark, split, with the read-out", split, [2]string{"admit", "split"}, true, true},
		{"dark, refused", refused, [2]string{"refuse", "refuse"}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTab(t)
			if tc.dark {
				if _, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}); err != nil {
					t.Fatal(err)
				}
			}
			tb.open(query(tc.cfg))
			// The chart follows the colour scheme: chart.Dark's ground, or
			// Light's white.
			ground := map[bool]string{true: `fill="#141A23"`, false: `fill="#FFFFFF"`}[tc.dark]
			if svg := eval[string](tb, `document.querySelector('#chart svg').outerHTML`); !strings.Contains(svg, ground) {
				t.Errorf("the chart has no %s: not drawn for the colour scheme (dark %v)", ground, tc.dark)
			}
			res, err := estimator.Estimate(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := [2]string{res.Baseline.Decision.String(), res.Candidate.Decision.String()}; got != tc.want {
				t.Fatalf("fixture: the config decides %v, the test wants %v", got, tc.want)
			}
			if tc.readout {
				g := tb.chartGeo()
				x, y := g.client((g.XMin + g.XMax) / 2)
				tb.mouse("mouseMoved", x, y, false)
				tb.waitUntil("the read-out", 10*time.Second, func() (bool, string) {
					r := tb.readout()
					return !r.Hidden && r.X != "", fmt.Sprintf("%+v", r)
				})
			}
			var bad []string
			for _, v := range tb.runAxe(src) {
				line := fmt.Sprintf("%s (%s): %s\n    %s", v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "\n    "))
				if v.Impact == "serious" || v.Impact == "critical" {
					bad = append(bad, line)
				} else {
					t.Logf("axe, %s", line)
				}
			}
			if len(bad) > 0 {
				t.Errorf("axe-core finds %d serious or critical violations:\n%s", len(bad), strings.Join(bad, "\n"))
			}
		})
	}
}
