//go:build !wasm

package e2e

// The measured truth on the Observed peaks panel in a real
// browser: a generated snapshot dropped on the panel gives the peak,
// both revisions' predictions and the live blocks measure finds; its
// points and its learned profile apply to the config; a truncated
// snapshot is refused by name with nothing changed; ART's planner-miss
// reports dropped together give their comparisons.

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"headroom/app/ui/page"
	"headroom/estimator"
	"headroom/measure"
)

// dropFiles drops files (name: bytes) on the element id, as a drag from
// the desktop does. The bytes go as base64, decoded in a plain loop:
// Uint8Array.from with a function per byte took 3.8 s for the 36 MB
// snapshot of TestE2EMeasuredCancel (Node, load 9), the loop 0.6 s, and
// the slowed run slows it 4x again.
func (tb *tab) dropFiles(id string, names []string, files [][]byte) {
	tb.t.Helper()
	var adds strings.Builder
	for i, n := range names {
		fmt.Fprintf(&adds, "dt.items.add(new File([bytes(%s)], %s));\n",
			jsString(base64.StdEncoding.EncodeToString(files[i])), jsString(n))
	}
	tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const bytes = b64 => {
			const s = atob(b64), u = new Uint8Array(s.length);
			for (let i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
			return u;
		};
		const dt = new DataTransfer();
		%s
		document.getElementById(%s).dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
	})()`, adds.String(), jsString(id))))
}

// measuredLink is the page the tests drop on: Qwen3-Next at 4,096 rows
// (the generated snapshots' config, measure/testdata/README.md), as an
// explicit link, and the config the page reads from it.
func measuredLink(t *testing.T) (string, estimator.Config) {
	t.Helper()
	list, err := page.Presets()
	if err != nil {
		t.Fatal(err)
	}
	q := url.Values{page.KeyPreset: {"qwen3-next-80b-a3b"}, "rows": {"4096"}, "sequence_rows": {"4096"}}
	return "?" + q.Encode(), page.Decode(q, list).Cfg
}

// measuredStatus is what the measured part's status shows, for waits.
const measuredStatus = `(() => { const s = document.getElementById('measured-status');
	return s ? s.dataset.state + ': ' + s.textContent.replace(/\s+/g, ' ').trim() : '<no #measured-status>'; })()`

// TestE2EMeasuredSnapshot drops measure/testdata/snapshots/head.pickle on
// the Observed peaks panel of the defaults at 4,096 rows and reads what
// headroom measure computes: the peak, the predictions, the live blocks
// and the tensors they match; then applies the points and the learned
// profile, and refuses a truncated snapshot without losing the shown one.
func TestE2EMeasuredSnapshot(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "measure", "testdata", "snapshots", "head.pickle"))
	if err != nil {
		t.Fatal(err)
	}
	link, cfg := measuredLink(t)
	devs := analyzeFile(t, filepath.Join("..", "..", "measure", "testdata", "snapshots", "head.pickle"))
	dev := &devs[0]
	m, err := measure.Compare(cfg, dev)
	if err != nil {
		t.Fatal(err)
	}
	points := measure.ObservedPoints(dev, m[1].Rows)

	tb := newTab(t)
	tb.open(link)
	tb.waitFor("the measured part of the panel", `!!document.getElementById('measured-status')`, 10*time.Second)
	tb.dropFiles("observed-panel", []string{"head.pickle"}, [][]byte{data})
	tb.waitFor("the snapshot to be read and drawn", `document.getElementById('measured-status')?.dataset.state === 'done' &&
		!!document.querySelector('#measured-chart-0 svg') || `+measuredStatus, 60*time.Second)
	if got := tb.reportText(); got != "" {
		t.Errorf("the drop on the Observed peaks panel reached the config import too: %q", got)
	}

	if got := eval[string](tb, `document.getElementById('measured-peak-0').dataset.peakBytes`); got != fmt.Sprint(dev.PeakBytes) {
		t.Errorf("the page's peak is %s bytes; headroom measure says %d", got, dev.PeakBytes)
	}
	pred := eval[[]string](tb, `[...document.querySelectorAll('#measured-compare-0 tbody tr')].map(tr => tr.children[2].textContent + ' | ' + tr.children[4].textContent)`)
	if len(pred) != 2 {
		t.Fatalf("%d revisions in #measured-compare-0", len(pred))
	}
	for k := range m {
		if want := estimator.Group(m[k].PredictedBytes) + " | " + m[k].Best.Summary; pred[k] != want {
			t.Errorf("%s: %q, want %q", m[k].Revision, pred[k], want)
		}
	}
	sizes := eval[[]string](tb, `[...document.querySelectorAll('#measured-live-0 tbody tr')].map(tr => tr.dataset.size)`)
	if len(sizes) != min(len(dev.LiveAtPeak), 50) {
		t.Errorf("%d live blocks shown, want %d", len(sizes), min(len(dev.LiveAtPeak), 50))
	}
	for i := range sizes {
		if sizes[i] != fmt.Sprint(dev.LiveAtPeak[i].Size) {
			t.Errorf("live block %d: %s bytes, want %d", i, sizes[i], dev.LiveAtPeak[i].Size)
		}
	}
	priced := eval[string](tb, `document.getElementById('measured-live-0').textContent`)
	for _, tn := range m[1].Best.Tensors {
		if tn.Found && !strings.Contains(priced, tn.Name) {
			t.Errorf("the live table does not name the matched tensor %s", tn.Name)
		}
	}

	// The panel with the snapshot shown passes axe-core (when it is
	// installed: make axe; TestE2EObservedPeaks requires it).
	if src, err := os.ReadFile(filepath.Join("..", "..", "bin", "node_modules", "axe-core", "axe.min.js")); err == nil {
		for _, v := range tb.runAxe(string(src)) {
			if v.Impact == "serious" || v.Impact == "critical" {
				t.Errorf("axe-core: %s (%s): %s\n    %s", v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "\n    "))
			}
		}
	}

	// The points replace the box's, and the table compares them.
	tb.do(chromedp.Click(chromedp.ID("measured-use-points")))
	tb.waitFor("the measured points in the table", fmt.Sprintf(`document.querySelectorAll('#obs-table tbody tr').length === %d || `+obsShowExpr, len(points)), 30*time.Second)
	if got, want := strings.TrimSpace(eval[string](tb, `document.getElementById('obs-text').value`)), strings.TrimSpace(estimator.FormatObserved(points)); got != want {
		t.Errorf("the box has %q, want %q", got, want)
	}

	// The learned profile switches the trainer to ART on the click.
	tb.waitFor("the learned profile's button", `(b => b && !b.disabled || (b ? 'disabled' : 'no button; ' + document.getElementById('measured')?.textContent))(document.getElementById('measured-use-profile'))`, 10*time.Second)
	tb.do(chromedp.Evaluate[chromedp.Void](`document.getElementById('measured-use-profile').click()`))
	tb.waitFor("profile=art and profile_memory in the address", `location.search.includes('profile=art') && location.search.includes('profile_memory=') || location.search + ' ' + document.getElementById('measured-use-status')?.textContent`, 30*time.Second)

	// A truncated snapshot is refused by name; the shown one stays.
	tb.dropFiles("observed-panel", []string{"cut.pickle"}, [][]byte{data[:len(data)/2]})
	tb.waitFor("the truncated snapshot refused", `document.getElementById('measured-status')?.dataset.state === 'failed' &&
		document.getElementById('measured-status').textContent.includes('cut.pickle') || `+measuredStatus, 30*time.Second)
	if got := eval[string](tb, `document.getElementById('measured-peak-0')?.dataset.peakBytes ?? ''`); got != fmt.Sprint(dev.PeakBytes) {
		t.Errorf("after a bad file the peak shown is %q", got)
	}
	tb.checkConsole()
}

// TestE2EMeasuredReports drops the generated planner-miss reports
// together and reads their comparisons and skipped reports as
// measure.ImportReports makes them.
func TestE2EMeasuredReports(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join("..", "..", "measure", "testdata", "reports", "*.json"))
	var raws [][]byte
	var base []string
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		raws, base = append(raws, b), append(base, filepath.Base(n))
	}
	link, cfg := measuredLink(t)
	imp, err := measure.ImportReports(base, raws, cfg.Budget.InUseBytes)
	if err != nil {
		t.Fatal(err)
	}
	tb := newTab(t)
	tb.open(link)
	tb.waitFor("the measured part of the panel", `!!document.getElementById('measured-status')`, 10*time.Second)
	tb.dropFiles("observed-panel", base, raws)
	tb.waitFor("the reports imported", `document.getElementById('measured-status')?.dataset.state === 'done' &&
		!!document.getElementById('measured-reports') || `+measuredStatus, 30*time.Second)
	if got := eval[int](tb, `document.querySelectorAll('#measured-reports tbody tr').length`); got != len(imp.Comparisons) {
		t.Errorf("%d comparisons, want %d", got, len(imp.Comparisons))
	}
	if got := eval[int](tb, `document.querySelectorAll('#measured-skipped li').length`); got != len(imp.Skipped) {
		t.Errorf("%d skipped, want %d", got, len(imp.Skipped))
	}
	if got := eval[string](tb, `document.getElementById('measured-use-points').dataset.points`); got != fmt.Sprint(len(imp.Points)) {
		t.Errorf("%s points offered, want %d", got, len(imp.Points))
	}
	tb.checkConsole()
}

// largeSnapshot writes gen.py --large's snapshot of pairs allocations
// and frees; the test is skipped without python3.
func largeSnapshot(t *testing.T, pairs int) (string, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "large.pickle")
	gen := exec.Command("python3", filepath.Join("..", "..", "measure", "testdata", "gen.py"), "--large", fmt.Sprint(pairs), path)
	if out, err := gen.CombinedOutput(); err != nil {
		t.Skipf("python3 cannot write the large snapshot: %v %s", err, out)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the large snapshot has %d bytes", len(data))
	return path, data
}

// TestE2EMeasuredLarge drops a snapshot of many slices (gen.py --large)
// and reads to the end the peak headroom measure finds.
func TestE2EMeasuredLarge(t *testing.T) {
	path, data := largeSnapshot(t, 40000)
	devs := analyzeFile(t, path)
	link, _ := measuredLink(t)
	tb := newTab(t)
	tb.open(link)
	tb.waitFor("the measured part of the panel", `!!document.getElementById('measured-status')`, 10*time.Second)
	start := time.Now()
	tb.dropFiles("observed-panel", []string{"large.pickle"}, [][]byte{data})
	tb.waitFor("the large snapshot read", `document.getElementById('measured-status')?.dataset.state === 'done' &&
		!!document.getElementById('measured-peak-0') || `+measuredStatus, 90*time.Second)
	t.Logf("read and drawn in %v", time.Since(start))
	if got := eval[string](tb, `document.getElementById('measured-peak-0').dataset.peakBytes`); got != fmt.Sprint(devs[0].PeakBytes) {
		t.Errorf("the page's peak is %s bytes; headroom measure says %d", got, devs[0].PeakBytes)
	}
	tb.checkConsole()
}

// TestE2EMeasuredCancel drops a large generated snapshot (gen.py --large)
// and cancels its read from the progress bar's button: the page answers
// while it reads, the read stops as cancelled, and nothing is shown.
func TestE2EMeasuredCancel(t *testing.T) {
	_, data := largeSnapshot(t, 400000)
	link, _ := measuredLink(t)
	tb := newTab(t)
	tb.open(link)
	tb.waitFor("the measured part of the panel", `!!document.getElementById('measured-status')`, 10*time.Second)
	tb.dropFiles("observed-panel", []string{"large.pickle"}, [][]byte{data})
	tb.waitFor("the progress bar", `!!document.getElementById('measured-progress') || `+measuredStatus, 30*time.Second)
	frames := eval[int](tb, `new Promise(r => { let n = 0; const t0 = performance.now();
		(function f() { n++; if (performance.now() - t0 < 1000) requestAnimationFrame(f); else r(n); })(); })`, chromedp.EvalAwaitPromise)
	t.Logf("frames painted in the second after the progress bar showed: %d", frames)
	if frames < 2 {
		t.Errorf("the page painted %d frames in a second while reading", frames)
	}
	tb.do(chromedp.Evaluate[chromedp.Void](`document.getElementById('measured-cancel')?.click()`))
	tb.waitFor("the read cancelled", `document.getElementById('measured-status')?.dataset.state === 'cancelled' || `+measuredStatus, 30*time.Second)
	if eval[bool](tb, `!!document.getElementById('measured-snapshot') || !!document.getElementById('measured-progress')`) {
		t.Error("a cancelled read still shows a snapshot or its progress")
	}
	tb.checkConsole()
}

// analyzeFile is what headroom measure finds in the snapshot at path: its
// devices' peaks, the figures the page must show.
func analyzeFile(t *testing.T, path string) []measure.DeviceReport {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	snap, err := measure.ReadSnapshot(f, measure.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	devs, err := measure.Analyze(snap, 0)
	if err != nil {
		t.Fatal(err)
	}
	return devs
}
