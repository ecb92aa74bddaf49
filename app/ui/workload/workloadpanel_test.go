package workload

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// TestWorkloadPanelRender: a finished replay shows the transition table
// with each cell's numbers, the sentence, the histogram and the changed
// lines with their Load buttons; a running one the progress bar and
// cancel; a failed one its message and nothing else.
func TestWorkloadPanelRender(t *testing.T) {
	cfg := workloadConfig()
	p := &Panel{Config: cfg, Ready: true}
	p.st.setConfig(cfg, keyOf(cfg))
	p.st.load("workload.csv", exampleWorkload(t))
	p.st.step(10)
	// go-app renders a component once: each look is a fresh panel with
	// the state so far.
	render := func() string { return app.HTMLString(&Panel{Config: cfg, Ready: true, st: p.st}) }
	html := render()
	for _, want := range []string{`id="workload-progress"`, `id="workload-cancel"`, `data-state="running"`, `data-lines="10"`} {
		if !strings.Contains(html, want) {
			t.Errorf("running: no %s", want)
		}
	}
	runToEnd(t, &p.st, 1000)
	html = render()
	if strings.Contains(html, "<svg") {
		t.Error("a histogram before draw ran")
	}
	p.draw()
	render = func() string {
		return app.HTMLString(&Panel{Config: cfg, Ready: true, st: p.st, svg: p.svg, drawnFor: p.drawnFor})
	}
	html = render()
	res := p.st.shown.res
	// go-app writes attributes in no set order: compare them as a set.
	cells := map[string]bool{}
	for _, td := range regexp.MustCompile(`<td[^>]*data-baseline[^>]*>`).FindAllString(html, -1) {
		attrs := regexp.MustCompile(`data-[a-z]+="[^"]*"`).FindAllString(td, -1)
		sort.Strings(attrs)
		cells[strings.Join(attrs, " ")] = true
	}
	for _, tr := range res.Transitions {
		cell := `data-baseline="` + tr.Baseline.String() + `" data-candidate="` + tr.Candidate.String() +
			`" data-requests="` + strconv.FormatInt(tr.Requests, 10) + `" data-rows="` + strconv.FormatInt(tr.Rows, 10) + `"`
		if !cells[cell] {
			t.Errorf("no cell %s", cell)
		}
	}
	if len(cells) != 9 {
		t.Errorf("%d distinct cells, want 9", len(cells))
	}
	if !regexp.MustCompile(`id="workload-chart"[^>]*>\s*<svg`).MatchString(html) {
		t.Error("#workload-chart does not hold the histogram's <svg>")
	}
	if n := strings.Count(html, `class="share-button workload-load"`); n != min(len(res.Changed), ShownChangedLines) {
		t.Errorf("%d Load buttons, want %d", n, min(len(res.Changed), ShownChangedLines))
	}
	for _, want := range []string{`data-state="done"`, `id="workload-sentence"`, `id="workload-export-csv"`, `id="workload-privacy"`} {
		if !strings.Contains(html, want) {
			t.Errorf("done: no %s", want)
		}
	}
	p.st.load("bad.csv", []byte("rows\n12x\n"))
	runToEnd(t, &p.st, 1000)
	html = render()
	if strings.Contains(html, `id="workload-table"`) || !strings.Contains(html, "line 2: request.rows") {
		t.Errorf("failed: a table, or no message naming line 2: %s", html)
	}
}
