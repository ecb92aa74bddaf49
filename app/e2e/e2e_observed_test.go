//go:build !wasm

package e2e

// The observed-peaks panel in a real browser: the seed's measured peaks
// pasted with units, the table and the sentence equal to the estimate of
// the config the address encodes, the markers on the rows chart, a line
// that does not parse refused by its number with nothing lost, the points
// restored from the link in a fresh page, the warning below in_use_bytes
// (axe-core checks the panel then), and the note along another axis.

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"headroom/app/ui"
	"headroom/estimator"
	"headroom/estimator/urlquery"
)

// readSeedObserved reads examples/seed-observed.json.
func readSeedObserved(t *testing.T) estimator.Config {
	t.Helper()
	data, err := os.ReadFile("../../examples/seed-observed.json")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := estimator.DecodeConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Observed) != 2 {
		t.Fatalf("the seed has %d points, want 2", len(cfg.Observed))
	}
	return cfg
}

// pasteObserved puts text into the observed-peaks box as a paste does and
// clicks "Set points".
func (tb *tab) pasteObserved(text string) {
	tb.t.Helper()
	tb.do(chromedp.Evaluate[chromedp.Void](`(() => { const t = document.getElementById('obs-text'); t.value = ''; t.focus(); })()`))
	if _, err := chromedp.Call(tb.ctx, input.InsertText, input.InsertTextParams{Text: text}); err != nil {
		tb.t.Fatalf("insertText: %v", err)
	}
	tb.do(chromedp.Click(chromedp.ID("obs-apply")))
}

// obsTableExpr reads the table of points as JSON: one array of cell texts
// per row.
const obsTableExpr = `JSON.stringify([...document.querySelectorAll('#obs-table tbody tr')].map(tr =>
	[...tr.children].map(c => c.firstChild ? c.firstChild.textContent.trim() : '')))`

const obsShowExpr = `'table ' + ` + obsTableExpr + ` + '; sentence ' + (document.getElementById('obs-sentence')?.textContent ?? '<none>') +
	'; error ' + (document.getElementById('error-observed')?.textContent ?? '<none>') + '; address ' + location.search`

// obsTable is what the table shows.
func (tb *tab) obsTable() [][]string {
	tb.t.Helper()
	var rows [][]string
	if err := json.Unmarshal([]byte(eval[string](tb, obsTableExpr)), &rows); err != nil {
		tb.t.Fatal(err)
	}
	return rows
}

// wantObsTable is the table of the estimate of cfg.
func wantObsTable(t *testing.T, cfg estimator.Config) ([][]string, string) {
	t.Helper()
	res, err := estimator.Estimate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for _, o := range res.Observed {
		g := func(b estimator.Bytes) string { return estimator.Group(int64(b)) }
		rows = append(rows, []string{o.Label, estimator.Group(o.Rows), g(o.PeakBytes),
			g(o.Baseline.PredictedBytes), g(o.Baseline.ResidualBytes), g(o.Candidate.PredictedBytes), g(o.Candidate.ResidualBytes)})
	}
	return rows, ui.ObservedSentence(res.Fit, len(res.Observed))
}

func TestE2EObservedPeaks(t *testing.T) {
	seed := readSeedObserved(t)
	base := seed
	base.Observed = nil
	tb := newTab(t)
	tb.open(query(base))

	// A line that does not parse: named by its line number; nothing is
	// taken and the text stays in the box.
	bad := "64902, 88.271 GiB, fine\n33706, lots, warm"
	tb.pasteObserved(bad)
	tb.waitJS("the bad line's message", `document.getElementById('error-observed').textContent.includes('line 2')`, obsShowExpr)
	if got := tb.value("obs-text"); got != bad {
		t.Errorf("after the refused paste the box holds %q, want %q", got, bad)
	}
	if n := len(tb.obsTable()); n != 0 {
		t.Errorf("a refused paste drew %d rows", n)
	}

	// The seed's points, pasted with units: the peaks' bytes in B and in
	// GiB (82.182 GiB rounds to the seed's 88,242,250,580 bytes), the
	// labels with their commas.
	p0, p1 := seed.Observed[0], seed.Observed[1]
	if gib, err := estimator.ParseGiB("82.182"); err != nil || gib != p1.PeakBytes {
		t.Fatalf("82.182 GiB is %d bytes, the seed's second peak %d", gib, p1.PeakBytes)
	}
	text := fmt.Sprintf("%s, %d B, %s\n%d, 82.182 GiB, %s", estimator.Group(p0.Rows), p0.PeakBytes, p0.Label, p1.Rows, p1.Label)
	tb.pasteObserved(text)
	tb.waitJS("the seed's points in the table and the address",
		`document.querySelectorAll('#obs-table tbody tr').length === 2 && location.search.includes('obs=') && document.getElementById('obs-sentence').textContent !== ''`, obsShowExpr)

	// The address encodes the seed's points; the table and the sentence
	// are the estimate of the config it encodes.
	cfg, errs := urlquery.Decode(tb.query())
	if len(errs) > 0 {
		t.Fatalf("the address ?%s: %v", tb.query().Encode(), errs)
	}
	if string(estimator.MarshalConfig(cfg)) != string(estimator.MarshalConfig(seed)) {
		t.Errorf("the address's config\n%s\nwant the seed's\n%s", estimator.MarshalConfig(cfg), estimator.MarshalConfig(seed))
	}
	wantRows, wantSentence := wantObsTable(t, cfg)
	if got := tb.obsTable(); fmt.Sprint(got) != fmt.Sprint(wantRows) {
		t.Errorf("table\n%q\nwant\n%q", got, wantRows)
	}
	sentence := eval[string](tb, `document.getElementById('obs-sentence').textContent`)
	if sentence != wantSentence || !strings.HasPrefix(sentence, "The candidate is within ") {
		t.Errorf("sentence %q, want %q", sentence, wantSentence)
	}
	if got := tb.value("error-observed"); got != "<missing>" && got != "" {
		t.Errorf("a message after the good paste: %q", got)
	}
	tb.waitJS("the markers and predicted-peak lines on the chart",
		`(document.querySelector('#chart svg')?.outerHTML ?? '').includes('observed peak') && document.querySelector('#chart svg').outerHTML.includes('candidate predicted peak')`,
		`'chart has ' + (document.querySelector('#chart svg')?.outerHTML.length ?? 0) + ' characters'`)
	link := tb.query().Encode()

	// A fresh page from the link shows the same points, table and sentence.
	fresh := newTab(t)
	fresh.open("?" + link)
	fresh.waitJS("the points restored from the link", `document.querySelectorAll('#obs-table tbody tr').length === 2`, obsShowExpr)
	if got := fresh.obsTable(); fmt.Sprint(got) != fmt.Sprint(wantRows) {
		t.Errorf("restored table\n%q\nwant\n%q", got, wantRows)
	}
	if got := eval[string](fresh, `document.getElementById('obs-sentence').textContent`); got != wantSentence {
		t.Errorf("restored sentence %q, want %q", got, wantSentence)
	}
	if got, want := fresh.value("obs-text"), estimator.FormatObserved(seed.Observed); got != want {
		t.Errorf("restored box %q, want %q", got, want)
	}

	// Below in_use_bytes each point is kept, with a warning beside it; the
	// panel with its tables and warnings passes axe-core.
	fresh.open("?in_use_bytes=96636764160&" + link) // 90 GiB, above both peaks
	fresh.waitJS("the warnings below in_use_bytes", `document.querySelectorAll('#obs-table .obs-warning').length === 2`, obsShowExpr)
	if w := eval[string](fresh, `document.querySelector('#obs-table .obs-warning').textContent`); !strings.Contains(w, "below the memory in use (in_use_bytes 96,636,764,160 bytes)") {
		t.Errorf("warning %q", w)
	}
	// A subtest, so that without axe-core only this check skips.
	t.Run("axe", func(t *testing.T) {
		src := axeSource(t)
		parent := fresh.t
		fresh.t = t // the tab's helpers fail this subtest
		defer func() { fresh.t = parent }()
		for _, v := range fresh.runAxe(src) {
			if v.Impact == "serious" || v.Impact == "critical" {
				t.Errorf("axe-core: %s (%s): %s\n    %s", v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "\n    "))
			}
		}
	})

	// Along another axis the panel stays and says where the points are.
	fresh.open("?axis=vocab_size&" + link)
	fresh.waitJS("the note along vocab_size", `(document.getElementById('obs-note')?.textContent ?? '').includes('drawn on the rows chart')`, obsShowExpr)
	if n := len(fresh.obsTable()); n != 2 {
		t.Errorf("along vocab_size the table has %d rows, want 2", n)
	}
}
