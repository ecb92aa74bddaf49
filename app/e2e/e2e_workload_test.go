//go:build !wasm

package e2e

// The Workload panel in a real browser: a dropped workload gives the
// replay command's numbers, a long one can be cancelled while the page
// stays responsive, and a changed line loads into the explorer.

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"headroom/app/chart"
	"headroom/app/report"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// workloadStatus is what the panel's status says, for failure messages.
func (tb *tab) workloadStatus() string {
	return eval[string](tb, `(() => { const s = document.getElementById('workload-status');
		return s ? s.dataset.state + ': ' + s.textContent.replace(/\s+/g, ' ').trim() : '<no #workload-status>'; })()`)
}

// waitWorkload waits until expr is true, failing with the panel's status.
func (tb *tab) waitWorkload(expr, what string, timeout time.Duration) {
	tb.t.Helper()
	tb.waitUntil(what, timeout, func() (bool, string) {
		ok, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool](expr))
		if err != nil {
			return false, "evaluating: " + err.Error()
		}
		return ok, "the panel said " + fmt.Sprintf("%q", tb.workloadStatus())
	})
}

// TestE2EWorkload drops examples/workload.csv on the panel under
// examples/pressure.json and sees the replay command's transition table,
// sentence and histogram; loads a changed line into the explorer; then
// cancels the replay of a 1,000,000-line workload while the page keeps
// answering.
func TestE2EWorkload(t *testing.T) {
	cfgJSON, err := os.ReadFile(filepath.Join("..", "..", "examples", "pressure.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := estimator.DecodeConfig(cfgJSON)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "workload.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var rows, counts []int32
	var wantCSV, wantJSON bytes.Buffer
	cw := csv.NewWriter(&wantCSV)
	cw.Write(report.CSVHeader)
	res, err := estimator.Replay(cfg, bytes.NewReader(data), func(l estimator.ReplayLine) error {
		rows, counts = append(rows, int32(l.Rows)), append(counts, int32(l.Count))
		return report.WriteCSVRow(cw, l)
	})
	if err != nil {
		t.Fatal(err)
	}
	cw.Flush()
	enc := json.NewEncoder(&wantJSON)
	enc.SetIndent("", "  ")
	enc.Encode(res) // what replay -format json prints
	hist := chart.NewHistogram(rows, counts)

	tb := newTab(t)
	tb.open(query(cfg))
	tb.waitWorkload(`document.getElementById('workload-drop') !== null`, "the panel", 10*time.Second)
	start := time.Now()
	tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([%s], 'workload.csv', {type: 'text/csv'}));
		document.getElementById('workload-drop').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
	})()`, jsString(string(data)))))
	tb.waitWorkload(`document.getElementById('workload-status')?.dataset.state === 'done' && !!document.querySelector('#workload-chart svg')`,
		"the replay of examples/workload.csv", 60*time.Second)
	t.Logf("examples/workload.csv (2,000 lines) dropped to table and histogram shown: %v", time.Since(start))
	if got := tb.reportText(); got != "" {
		t.Errorf("the drop on the workload panel reached the config import too: %q", got)
	}

	// The transition table: every cell, and the totals.
	type cell struct {
		Baseline, Candidate string
		Requests, Rows      int64
	}
	cells := eval[[]cell](tb, `[...document.querySelectorAll('#workload-table td')].map(td => ({
		Baseline: td.dataset.baseline, Candidate: td.dataset.candidate,
		Requests: Number(td.dataset.requests), Rows: Number(td.dataset.rows)}))`)
	if len(cells) != 9 {
		t.Fatalf("%d cells in #workload-table, want 9", len(cells))
	}
	want := map[[2]string][2]int64{}
	for _, tr := range res.Transitions {
		want[[2]string{tr.Baseline.String(), tr.Candidate.String()}] = [2]int64{tr.Requests, tr.Rows}
	}
	for _, c := range cells {
		if w := want[[2]string{c.Baseline, c.Candidate}]; c.Requests != w[0] || c.Rows != w[1] {
			t.Errorf("%s -> %s: %d requests, %d rows; the replay command says %d, %d", c.Baseline, c.Candidate, c.Requests, c.Rows, w[0], w[1])
		}
	}
	totals := eval[[]int64](tb, `['requests', 'lines', 'rows'].map(k => Number(document.getElementById('workload-table').dataset[k]))`)
	if totals[0] != res.Requests || totals[1] != res.Lines || totals[2] != res.Rows {
		t.Errorf("totals %v, want requests %d, lines %d, rows %d", totals, res.Requests, res.Lines, res.Rows)
	}
	if got, want := eval[string](tb, `document.getElementById('workload-sentence').textContent`), report.Sentence(res); got != want {
		t.Errorf("sentence %q, want %q", got, want)
	}
	// What the hold costs, and the ignored columns (the
	// example's tenant), as the report says them.
	if got, want := eval[string](tb, `document.getElementById('workload-cost')?.textContent ?? '<none>'`), report.CostSentence(res); got != want {
		t.Errorf("#workload-cost %q, want %q", got, want)
	}
	if got := eval[string](tb, `document.getElementById('workload-ignored')?.textContent ?? '<none>'`); len(res.Ignored) == 0 || !strings.Contains(got, strings.Join(res.Ignored, ", ")) {
		t.Errorf("#workload-ignored %q, want the ignored columns %v", got, res.Ignored)
	}
	// The text box shows the report (a textarea's value loses the final
	// line end); Copy report copies report.Markdown itself.
	if got, want := eval[string](tb, `document.getElementById('workload-markdown').value`), report.Markdown(res, cfg); got != strings.TrimSuffix(want, "\n") {
		t.Errorf("the page's Markdown report differs from replay -format md:\n%s", got)
	}

	// The histogram: its bins are the workload's rows weighted by count.
	bins := eval[[][3]int64](tb, `[...document.querySelectorAll('#workload-bins tbody tr')].map(tr =>
		[Number(tr.dataset.from), Number(tr.dataset.to), Number(tr.dataset.requests)])`)
	if len(bins) != len(hist.Requests) {
		t.Fatalf("%d bins shown, want %d", len(bins), len(hist.Requests))
	}
	for i, b := range bins {
		if lo := int64(i)*hist.Width + 1; b[0] != lo || b[1] != lo+hist.Width-1 || b[2] != hist.Requests[i] {
			t.Errorf("bin %d: %v, want [%d %d %d]", i, b, lo, lo+hist.Width-1, hist.Requests[i])
		}
	}
	if n := eval[int](tb, `document.querySelectorAll('#workload-chart svg path').length`); n < 3 {
		t.Errorf("the histogram's SVG has %d paths", n)
	}

	// The exports are the replay command's bytes; the address holds the
	// config only, never the workload.
	dir := t.TempDir()
	tb.downloadsTo(dir)
	if got := tb.download(dir, "workload-export-json", "workload_replay.json"); !bytes.Equal(got, wantJSON.Bytes()) {
		t.Errorf("the JSON export differs from replay -format json (%d and %d bytes)", len(got), wantJSON.Len())
	}
	if got := tb.download(dir, "workload-export-csv", "workload_replay.csv"); !bytes.Equal(got, wantCSV.Bytes()) {
		t.Errorf("the CSV export differs from replay -format csv (%d and %d bytes)", len(got), wantCSV.Len())
	}
	tb.waitURL(page.ConfigQuery(cfg, nil).Encode())
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.CallBrowser(tb.ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: name}, Setting: browser.PermissionSettingGranted, Origin: tb.base}); err != nil {
			t.Fatalf("permission %s: %v", name, err)
		}
	}
	tb.do(chromedp.Click(chromedp.ID("workload-copy")))
	tb.waitWorkload(`document.getElementById('workload-share-status').textContent.includes('copied')`, "Copy report's confirmation", 10*time.Second)
	if got := eval[string](tb, `navigator.clipboard.readText()`, chromedp.EvalAwaitPromise); got != report.Markdown(res, cfg) {
		t.Errorf("Copy report copied %q, want replay -format md's report", got)
	}

	// The changed lines: the first 100, and the first one loads into the
	// explorer (fields and address follow).
	shown := min(len(res.Changed), 100)
	if got := eval[int](tb, `document.querySelectorAll('#workload-changed tbody tr').length`); got != shown {
		t.Errorf("%d changed lines listed, want %d", got, shown)
	}
	first := res.Changed[0]
	wl, err := estimator.NewWorkloadReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var line estimator.WorkloadLine
	for line.Line != first.Line {
		if err := wl.Next(&line); err != nil {
			t.Fatalf("line %d: %v", first.Line, err)
		}
	}
	loaded, err := line.Shape.Config(cfg)
	if err != nil {
		t.Fatal(err)
	}
	n := tb.renders()
	tb.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`#workload-changed tr[data-line="%d"] button.workload-load`, first.Line))))
	tb.waitRenders(n)
	if got, want := tb.value("input-rows"), fmt.Sprint(first.Rows); got != want {
		t.Errorf("#input-rows = %q after loading line %d, want %s", got, first.Line, want)
	}
	if got, want := tb.value("input-sequence_rows"), fmt.Sprint(loaded.Request.SequenceRows); got != want {
		t.Errorf("#input-sequence_rows = %q after loading line %d, want %s", got, first.Line, want)
	}
	tb.waitURL(page.ConfigQuery(loaded, nil).Encode())
	if got, want := tb.decisions(), expectedDecisions(t, loaded); got != want {
		t.Errorf("the explorer decides line %d %+v, the replay said %s/%s", first.Line, got, first.Baseline, first.Candidate)
	} else if want.baseline != first.Baseline.String() || want.candidate != first.Candidate.String() {
		t.Errorf("line %d estimates to %+v, the replay said %s/%s", first.Line, want, first.Baseline, first.Candidate)
	}
	// Loading a line does not re-base the replay:
	// it stays against the config it ran with, and says so; the button
	// replays against the explorer's config.
	tb.waitWorkload(`document.getElementById('workload-pinned') !== null &&
		(document.getElementById('workload-status')?.textContent ?? '').includes('does not re-base')`,
		"the replay kept after the load", 10*time.Second)
	if got := eval[string](tb, `document.querySelector('#workload-panel .workload-result, #workload .workload-result')?.dataset.key ?? ''`); got != page.ConfigQuery(cfg, nil).Encode() {
		t.Errorf("after the load the replay is for ?%s, want the config it ran with", got)
	}
	tb.do(chromedp.Click(chromedp.ID("workload-rebase")))
	tb.waitWorkload(fmt.Sprintf(`document.getElementById('workload-status')?.dataset.state === 'done' &&
		document.querySelector('#workload-panel .workload-result, #workload .workload-result')?.dataset.key === %s`,
		jsString(page.ConfigQuery(loaded, nil).Encode())), "the rerun against the loaded line's config", 60*time.Second)

	// A 1,000,000-line workload, generated in the page and dropped: it
	// runs in slices (the progress moves, the page answers), and cancel
	// stops it with nothing shown.
	start = time.Now()
	tb.do(chromedp.Evaluate[chromedp.Void](dropMillionJS))
	tb.waitWorkload(`Number(document.getElementById('workload-progress')?.dataset.lines) > 0`, "the long replay to start", 30*time.Second)
	first1 := eval[int64](tb, `Number(document.getElementById('workload-progress').dataset.lines)`)
	tb.waitWorkload(fmt.Sprintf(`Number(document.getElementById('workload-progress')?.dataset.lines) > %d`, first1),
		"the long replay to move on", 30*time.Second)
	// Frames keep coming while it runs: the longest gap between two
	// animation frames over a second, and the long tasks (over 50 ms) the
	// browser saw meanwhile. Logged, not asserted: a figure, not a test.
	frames := eval[[3]float64](tb, `new Promise(done => {
		const long = []; let obs = null;
		try { obs = new PerformanceObserver(l => l.getEntries().forEach(e => long.push(e.duration))); obs.observe({type: 'longtask'}); } catch (e) {}
		let last = performance.now(), worst = 0; const end = last + 1000;
		const f = t => { worst = Math.max(worst, t - last); last = t;
			if (t < end) requestAnimationFrame(f); else { if (obs) obs.disconnect(); done([worst, long.length, Math.max(0, ...long)]); } };
		requestAnimationFrame(f);
	})`, chromedp.EvalAwaitPromise)
	lines := eval[int64](tb, `Number(document.getElementById('workload-progress').dataset.lines)`)
	slice := eval[string](tb, `document.getElementById('workload-status').dataset.longestSliceMs`)
	t.Logf("1,000,000 lines: %d replayed %v after the drop; over 1 s of replaying, the longest gap between frames %.1f ms, %v long tasks (longest %.1f ms); the longest slice of Go so far %s ms",
		lines, time.Since(start), frames[0], frames[1], frames[2], slice)
	if lines >= 1000000 {
		t.Errorf("the replay was done before it could be cancelled (%d lines)", lines)
	}
	tb.do(chromedp.Click(chromedp.CSS(`#workload-cancel`)))
	tb.waitWorkload(`document.getElementById('workload-status')?.dataset.state === 'cancelled'`, "the cancel", 10*time.Second)
	if n := eval[int](tb, `document.querySelectorAll('#workload-table, #workload-progress').length`); n != 0 {
		t.Errorf("after cancel, %d of the table and progress bar remain", n)
	}

	// Bad input: a message naming the line and field, nothing shown.
	tb.do(chromedp.Evaluate[chromedp.Void](`document.getElementById('workload-text').value = 'rows,count\n100,1\n12x,1\n'`))
	tb.do(chromedp.Click(chromedp.CSS(`#workload-replay`)))
	tb.waitWorkload(`document.getElementById('workload-status')?.dataset.state === 'failed'`, "the bad workload's message", 10*time.Second)
	if got := tb.workloadStatus(); !bytes.Contains([]byte(got), []byte("line 3: request.rows")) {
		t.Errorf("status after a bad cell: %q", got)
	}

	// A 2 GB file (sparse on disk), picked: refused from its size, unread.
	huge := filepath.Join(t.TempDir(), "huge.csv")
	if f, err := os.Create(huge); err != nil {
		t.Fatal(err)
	} else if err := f.Truncate(2 << 30); err != nil {
		f.Close()
		t.Fatal(err)
	} else {
		f.Close()
	}
	tb.do(chromedp.SetUploadFiles(chromedp.ID("workload-file"), []string{huge}))
	tb.waitWorkload(`document.getElementById('workload-status')?.textContent.includes('huge.csv')`, "the 2 GB file's message", 10*time.Second)
	if got := tb.workloadStatus(); !strings.HasPrefix(got, "failed:") || !strings.Contains(got, "2,147,483,648 bytes") ||
		!strings.Contains(got, "headroom replay") {
		t.Errorf("status after a 2 GB file: %q", got)
	}

	if os.Getenv("HEADROOM_WORKLOAD_1M") == "1" {
		// The whole million, timed (make it part of a run by hand: the
		// figure goes to the report, not into an assertion).
		start = time.Now()
		tb.do(chromedp.Evaluate[chromedp.Void](dropMillionJS))
		tb.waitWorkload(`document.getElementById('workload-status')?.dataset.state === 'done' && !!document.querySelector('#workload-chart svg')`,
			"the whole 1,000,000-line replay", 100*time.Second)
		t.Logf("1,000,000 lines replayed in the browser, table and histogram shown: %v; the longest slice %s ms", time.Since(start),
			eval[string](tb, `document.getElementById('workload-status').dataset.longestSliceMs`))
	}
}

// dropMillionJS generates a 1,000,000-line workload in the page and drops
// it on the Workload panel.
const dropMillionJS = `(() => {
	const lines = ['rows,count'];
	for (let i = 0; i < 1000000; i++) lines.push(String(1 + (i * 7919) % 400000) + ',' + String(1 + i % 5));
	const dt = new DataTransfer();
	dt.items.add(new File([lines.join('\n')], 'million.csv', {type: 'text/csv'}));
	document.getElementById('workload-drop').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
})()`
