//go:build !wasm

package e2e

// A snapshot larger than the page once took (256 MiB) read on the
// Observed peaks panel in a real browser: picked from disk (the test
// never copies hundreds of MB through the DevTools protocol), read in two
// passes with one progress bar, cancelled in its second pass with the
// snapshot shown before left as it was, then read to the end with the
// peak headroom measure computes natively. The probe here is also make
// bench-measure-page's (bench_measure_page_test.go).

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"headroom/measure/snapgen"
)

// wasmInstanceProbe keeps the page's WebAssembly instance, so a test can
// read its memory's size (Go's wasm exports it as mem; the heap never
// shrinks, so its size is the read's peak). It must run before the page's
// scripts: tab.probeWasm installs it for every document.
const wasmInstanceProbe = `(() => {
	for (const name of ['instantiateStreaming', 'instantiate']) {
		const orig = WebAssembly[name];
		WebAssembly[name] = async (...args) => {
			const r = await orig.apply(WebAssembly, args);
			if (r && r.instance) window.__measuredWasm = r.instance;
			return r;
		};
	}
})()`

// probeWasm installs wasmInstanceProbe for the documents the tab opens
// from now on.
func (tb *tab) probeWasm() {
	tb.t.Helper()
	tb.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: wasmInstanceProbe})
		return err
	}))
}

// readProbe watches a read from the moment it is installed, in every
// animation frame: the passes the progress bar showed (data-pass; 0
// while the file's head is read, before it is known to be a snapshot, is
// not a pass) and the highest value it had in each (of 1000), when the
// status first said done, the gaps between two frames while the status
// said reading (the longest, where it came, the 99th percentile, how
// many exceeded 50 ms) and the longest over the whole probe (which
// includes drawing the result), and the main thread's long tasks (50 ms and over,
// PerformanceObserver 'longtask'). With cancelInPass2 it clicks Cancel in
// the first frame that shows the second pass.
const readProbe = `((cancelInPass2) => {
	if (window.__readProbe) window.__readProbe.stopped = true;
	const w = window.__readProbe = {passes: [], bar: {}, longestTask: 0, longTasks: 0, longestFrameGap: 0, longestReadingGap: 0,
		frames: 0, gaps: [], said: {}, start: performance.now(), doneAt: 0, cancelledAt: 0, clicked: false};
	w.observer = new PerformanceObserver(list => {
		for (const e of list.getEntries()) { w.longTasks++; w.longestTask = Math.max(w.longestTask, e.duration); }
	});
	try { w.observer.observe({type: 'longtask'}); } catch (e) { w.longestTask = -1; }
	let last = performance.now(), wasReading = false;
	const frame = now => {
		if (w.stopped) { w.observer.disconnect(); return; }
		w.frames++;
		w.longestFrameGap = Math.max(w.longestFrameGap, now - last);
		const state = document.getElementById('measured-status')?.dataset.state;
		if (state === 'reading' && wasReading) w.gaps.push(now - last);
		if (state === 'reading' && wasReading && now - last > w.longestReadingGap) {
			w.longestReadingGap = now - last;
			const p = document.getElementById('measured-progress');
			w.readingGapAt = {pass: p?.dataset.pass, bar: Number(p?.value), second: (now - w.start) / 1000};
		}
		wasReading = state === 'reading';
		last = now;
		const p = document.getElementById('measured-progress');
		if (p && p.dataset.pass !== '0') {
			const k = p.dataset.pass;
			if (!w.passes.includes(k)) {
				w.passes.push(k);
				w.said[k] = document.getElementById('measured-status').textContent.replace(/\s+/g, ' ').trim();
			}
			w.bar[k] = Math.max(w.bar[k] ?? 0, Number(p.value));
			if (cancelInPass2 && k === '2' && !w.clicked) { w.clicked = true; document.getElementById('measured-cancel').click(); }
		}
		if (state === 'done' && !w.doneAt && w.passes.length) w.doneAt = now;
		if (state === 'cancelled' && !w.cancelledAt) w.cancelledAt = now;
		requestAnimationFrame(frame);
	};
	requestAnimationFrame(frame);
})`

// pageRead is what the probe saw of one read.
type pageRead struct {
	Passes          []string           `json:"passes"`
	Bar             map[string]float64 `json:"bar"`
	Said            map[string]string  `json:"said"` // the status when each pass first showed
	Seconds         float64            `json:"seconds"`
	LongestTaskMS   float64            `json:"longestTask"` // -1: the browser has no longtask entries
	LongTasks       int                `json:"longTasks"`
	LongestFrameMS  float64            `json:"longestFrameGap"`
	ReadingFrameMS  float64            `json:"longestReadingGap"` // while the status said reading
	ReadingGapAt    map[string]any     `json:"readingGapAt"`      // where the read was when it came
	P99ReadingMS    float64            `json:"p99ReadingGap"`     // the 99th percentile of the gaps while reading
	GapsOver50      int                `json:"gapsOver50"`        // gaps of more than 50 ms while reading
	ReadingFrames   int                `json:"readingFrames"`     // frames while reading
	Frames          int                `json:"frames"`
	WasmMemoryBytes float64            `json:"wasm"` // -1: the probe found no instance
	Status          string             `json:"status"`
}

// readPicked picks the file at path in the panel's file input, as the
// file dialog does, and waits (for at most timeout) until the status is
// done with that file's name, or, with cancelInPass2, cancelled after the
// probe clicked Cancel in the second pass. A failed read fails the test at
// once with the panel's message.
func (tb *tab) readPicked(path string, cancelInPass2 bool, timeout time.Duration) pageRead {
	tb.t.Helper()
	name := filepath.Base(path)
	tb.do(chromedp.Evaluate[chromedp.Void](readProbe + "(" + js(cancelInPass2) + ")"))
	tb.do(chromedp.SetUploadFiles(chromedp.ID("measured-file"), []string{path}))
	want := "done"
	if cancelInPass2 {
		want = "cancelled"
	}
	cond := `(() => { const s = document.getElementById('measured-status'), p = document.getElementById('measured-progress'), w = window.__readProbe;
		return {state: s?.dataset.state, text: s?.textContent.replace(/\s+/g, ' ').trim(), pass: p?.dataset.pass, bar: p?.value,
			passes: w.passes, done: w.doneAt > 0, cancelled: w.cancelledAt > 0}; })()`
	type seen struct {
		State, Text, Pass string
		Bar               float64
		Passes            []string
		Done, Cancelled   bool
	}
	tb.waitUntil("the read of "+name+" to end "+want, timeout, func() (bool, string) {
		v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[seen](cond))
		if err != nil {
			return false, "evaluating: " + err.Error()
		}
		saw := fmt.Sprintf("%+v", v)
		if v.State == "failed" {
			tb.t.Fatalf("the read of %s failed: %s", name, v.Text)
		}
		ok := v.State == want && (want == "done" && v.Done && strings.Contains(v.Text, name) || want == "cancelled" && v.Cancelled)
		return ok, saw
	})
	res := eval[pageRead](tb, `(w => { w.stopped = true;
		return {passes: w.passes, said: w.said, bar: w.bar, seconds: ((w.doneAt || w.cancelledAt) - w.start) / 1000,
			longestTask: w.longestTask, longTasks: w.longTasks, longestFrameGap: w.longestFrameGap,
			longestReadingGap: w.longestReadingGap, readingGapAt: w.readingGapAt, frames: w.frames,
			p99ReadingGap: w.gaps.length ? w.gaps.sort((a, b) => a - b)[Math.floor(w.gaps.length * 0.99)] : 0,
			gapsOver50: w.gaps.filter(g => g > 50).length, readingFrames: w.gaps.length,
			wasm: window.__measuredWasm ? window.__measuredWasm.exports.mem.buffer.byteLength : -1,
			status: document.getElementById('measured-status').textContent.replace(/\s+/g, ' ').trim()}; })(window.__readProbe)`)
	return res
}

// writeGeneratedSnapshot writes about target bytes of generated snapshot
// (the benchmark's options) to path, unless a file of about that size is
// there, and returns its size.
func writeGeneratedSnapshot(t testing.TB, path string, target int64) int64 {
	t.Helper()
	if fi, err := os.Stat(path); err == nil && fi.Size() > target*9/10 && fi.Size() < target*11/10 {
		return fi.Size()
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := snapgen.Write(f, snapgen.Options{Seed: 1, TargetBytes: target, AnnotateEvery: 10000, OOMAt: 5000})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	return st.Bytes
}

// TestE2EMeasuredPastOldLimit reads a generated snapshot just over the
// 256 MiB the page once refused: a small snapshot is shown first; the
// large one's read, cancelled in its second pass, leaves it shown; read
// again to the end, the large one's peak is the one headroom measure
// finds, and the progress bar was seen in both passes, the first filling
// at most its first half.
func TestE2EMeasuredPastOldLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "past-limit.pickle")
	size := writeGeneratedSnapshot(t, path, 260<<20)
	if size <= 256<<20 {
		t.Fatalf("the generated snapshot has %d bytes, not more than 256 MiB", size)
	}
	devs := analyzeFile(t, path)
	head := analyzeFile(t, filepath.Join("..", "..", "measure", "testdata", "snapshots", "head.pickle"))
	headData, err := os.ReadFile(filepath.Join("..", "..", "measure", "testdata", "snapshots", "head.pickle"))
	if err != nil {
		t.Fatal(err)
	}
	link, _ := measuredLink(t)
	tb := newTabFor(t, slow(40*time.Minute))
	tb.probeWasm()
	tb.open(link)
	tb.waitFor("the measured part of the panel", `!!document.getElementById('measured-status')`, 10*time.Second)
	tb.dropFiles("observed-panel", []string{"head.pickle"}, [][]byte{headData})
	tb.waitFor("the small snapshot shown", `document.getElementById('measured-status')?.dataset.state === 'done' &&
		!!document.getElementById('measured-peak-0') || `+measuredStatus, 60*time.Second)
	peakShown := func() string {
		return eval[string](tb, `document.getElementById('measured-peak-0')?.dataset.peakBytes ?? '(no peak shown)'`)
	}
	if got := peakShown(); got != fmt.Sprint(head[0].PeakBytes) {
		t.Fatalf("the small snapshot's peak is %s, want %d", got, head[0].PeakBytes)
	}

	c := tb.readPicked(path, true, 20*time.Minute)
	t.Logf("cancelled in the second pass after %.1f s: %+v", c.Seconds, c)
	if !slices.Equal(c.Passes, []string{"1", "2"}) {
		t.Errorf("the bar showed the passes %v before Cancel, want [1 2]", c.Passes)
	}
	if got := peakShown(); got != fmt.Sprint(head[0].PeakBytes) {
		t.Errorf("after Cancel in the second pass the peak shown is %s, want the small snapshot's %d", got, head[0].PeakBytes)
	}
	if eval[bool](tb, `!!document.getElementById('measured-progress')`) {
		t.Error("a cancelled read still shows its progress")
	}

	r := tb.readPicked(path, false, 20*time.Minute)
	t.Logf("%d bytes read in %.1f s (%.1f MB/s); the bar's highest value in each pass (of 1000): %v; longest task %.0f ms (%d of 50 ms or more), longest frame gap %.0f ms while reading and %.0f ms with the result drawn, over %d frames; WebAssembly memory %.0f MB",
		size, r.Seconds, float64(size)/1e6/r.Seconds, r.Bar, r.LongestTaskMS, r.LongTasks, r.ReadingFrameMS, r.LongestFrameMS, r.Frames, r.WasmMemoryBytes/1e6)
	if got := peakShown(); got != fmt.Sprint(devs[0].PeakBytes) {
		t.Errorf("the page's peak is %s bytes; headroom measure says %d", got, devs[0].PeakBytes)
	}
	if !slices.Equal(r.Passes, []string{"1", "2"}) {
		t.Errorf("the bar showed the passes %v, want [1 2]", r.Passes)
	}
	for _, k := range []string{"1", "2"} {
		if want := "(pass " + k + " of 2)"; !strings.Contains(r.Said[k], want) {
			t.Errorf("in pass %s the status said %q, not %q", k, r.Said[k], want)
		}
	}
	if r.Bar["1"] > 500 || r.Bar["2"] <= 500 {
		t.Errorf("the bar's highest value was %v in pass 1 and %v in pass 2 (of 1000): the first pass fills the first half, the second the rest", r.Bar["1"], r.Bar["2"])
	}
	b, _ := json.Marshal(r)
	t.Logf("probe: %s", b)
	tb.checkConsole()
}
