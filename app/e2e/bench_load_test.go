//go:build bench && !wasm

package e2e

// The figures of a cold load beyond its times: the renderer's
// CPU to ready, the DOM's nodes and the renderer's memory after the load,
// and the parts of the load's one long task.

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/systeminfo"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// benchSettle is how long after ready the nodes and memory are read: the
// page's work after its first drawing (the read-out prefetch, which starts
// 250 ms after the last drawing, the service worker's install) has had
// its turn.
const benchSettle = 2 * time.Second

// rendererCPU is every renderer process' CPU time (s since it started),
// by pid, as Chromium counts it (SystemInfo.getProcessInfo: all of the
// process' threads, V8's compile workers included).
func rendererCPU(ctx context.Context) (map[int64]float64, error) {
	res, err := chromedp.CallBrowser(ctx, systeminfo.GetProcessInfo, cdp.Empty{})
	if err != nil {
		return nil, err
	}
	out := map[int64]float64{}
	for _, p := range res.ProcessInfo {
		if p.Type == "renderer" {
			out[p.ID] = p.CPUTime
		}
	}
	return out, nil
}

// busiest is the renderer whose CPU time grew the most from before to
// after (a process new since before grew from 0): the tab that did the
// work, whichever process Chromium gave it (a new browser context's
// renderer is new; a spare one may have started before it was needed).
func busiest(before, after map[int64]float64) (pid int64, grew float64) {
	pid = -1
	for p, c := range after {
		if g := c - before[p]; g > grew || pid < 0 {
			pid, grew = p, g
		}
	}
	return pid, grew
}

// pssMB is the process' proportional set size (its own pages, and its
// share of those it shares) and its unique set size (Private_Clean plus
// Private_Dirty: its own pages only), in MB (10^6 bytes), from
// /proc/PID/smaps_rollup. PSS moves with how many other processes map the
// same files: Chromium's code is shared with every Chromium process on the
// machine, other tests' browsers included; USS does not.
func pssMB(pid int64) (pss, uss float64, err error) {
	data, err := os.ReadFile("/proc/" + strconv.FormatInt(pid, 10) + "/smaps_rollup")
	if err != nil {
		return 0, 0, err
	}
	found := false
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			continue
		}
		switch f[0] {
		case "Pss:":
			pss, found = kb*1024/1e6, true
		case "Private_Clean:", "Private_Dirty:":
			uss += kb * 1024 / 1e6
		}
	}
	if !found {
		return 0, 0, fmt.Errorf("no Pss line in /proc/%d/smaps_rollup", pid)
	}
	return pss, uss, nil
}

// nodeCensus counts the document's elements (getElementsByTagName('*'),
// the figure) and all its nodes (text and comments too), and the elements
// under each part of the page, to say where they are.
const nodeCensus = `(() => {
	let all = 0;
	const w = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
	while (w.nextNode()) all++;
	const parts = {};
	const count = (name, el) => { if (el) parts[name] = (parts[name] || 0) + 1 + el.getElementsByTagName('*').length; };
	count('head', document.head);
	count('header', document.querySelector('#explorer > header'));
	count('results', document.getElementById('results'));
	count('decisions', document.querySelector('.verdicts'));
	count('table', document.querySelector('section.table'));
	for (const el of document.querySelectorAll('aside.side > *')) {
		count('side .' + (el.className || el.tagName.toLowerCase()).split(' ')[0], el);
	}
	for (const el of document.querySelectorAll('.controls > details')) {
		count('controls: ' + (el.querySelector('summary') || {}).textContent, el);
	}
	for (const el of document.querySelectorAll('#explorer > *')) {
		if (!['HEADER', 'DIV'].includes(el.tagName) || el.id) count('explorer > ' + (el.id || el.className || el.tagName), el);
	}
	return {elements: document.getElementsByTagName('*').length, all, parts};
})()`

// censusResult is nodeCensus's answer.
type censusResult struct {
	Elements int            `json:"elements"`
	All      int            `json:"all"`
	Parts    map[string]int `json:"parts"`
}

// loadFigures is what one cold load adds to its times.
type loadFigures struct {
	cpuMs  float64 // the renderer's CPU time at ready
	pid    int64
	pss    float64 // MB, benchSettle after ready
	uss    float64 // MB, then
	census censusResult
	// metrics is the tab's Performance.getMetrics then: Nodes (every node
	// Blink holds for the tab, those of the server's page that go-app
	// replaced and that no collection has freed yet included), JSHeapUsedSize.
	metrics map[string]float64
	// nodesAfterGC is metrics' Nodes after a forced collection
	// (HeapProfiler.collectGarbage), taken after the memory was read.
	nodesAfterGC float64
}

// measuredColdLoad is coldLoad with the renderer's CPU time noted at the
// moment the page is ready (the ready script calls a binding, and the CPU
// times are asked for as the binding's event arrives: a few ms late), and
// the nodes and memory benchSettle later.
func measuredColdLoad(ctx context.Context, base string) (loadTiming, loadFigures, error) {
	var lf loadFigures
	before, err := rendererCPU(ctx)
	if err != nil {
		return loadTiming{}, lf, fmt.Errorf("SystemInfo.getProcessInfo: %w", err)
	}
	var (
		mu      sync.Mutex
		atReady map[int64]float64
		readyCh = make(chan struct{})
		once    sync.Once
	)
	err = chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventBindingCalled); ok && e.Name == "__benchReadyCPU" {
			once.Do(func() {
				go func() {
					m, err := rendererCPU(ctx)
					mu.Lock()
					if err == nil {
						atReady = m
					}
					mu.Unlock()
					close(readyCh)
				}()
			})
		}
	})
	if err != nil {
		return loadTiming{}, lf, err
	}
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, runtime.AddBinding, runtime.AddBindingParams{Name: "__benchReadyCPU"})
		return err
	})); err != nil {
		return loadTiming{}, lf, err
	}
	lt, err := coldLoad(ctx, base)
	if err != nil {
		return lt, lf, err
	}
	select {
	case <-readyCh:
	case <-time.After(10 * time.Second):
		return lt, lf, fmt.Errorf("the ready binding was not called")
	}
	mu.Lock()
	lf.pid, lf.cpuMs = busiest(before, atReady)
	mu.Unlock()
	lf.cpuMs *= 1e3
	time.Sleep(benchSettle)
	lf.census, err = chromedp.Run(ctx, chromedp.Evaluate[censusResult](nodeCensus))
	if err != nil {
		return lt, lf, err
	}
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, performance.Enable, performance.EnableParams{}); err != nil {
			return err
		}
		res, err := cdp.Call(ctx, tg, performance.GetMetrics, cdp.Empty{})
		lf.metrics = map[string]float64{}
		for _, m := range res.Metrics {
			lf.metrics[m.Name] = m.Value
		}
		return err
	})); err != nil {
		return lt, lf, err
	}
	// The busiest renderer since before is this tab's (the census above
	// cost it a little more CPU, no other tab any).
	now, err := rendererCPU(ctx)
	if err != nil {
		return lt, lf, err
	}
	if pid, _ := busiest(before, now); pid != lf.pid {
		return lt, lf, fmt.Errorf("the busiest renderer was %d at ready, %d after", lf.pid, pid)
	}
	if lf.pss, lf.uss, err = pssMB(lf.pid); err != nil {
		return lt, lf, err
	}
	err = chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, heapprofiler.CollectGarbage, cdp.Empty{}); err != nil {
			return err
		}
		res, err := cdp.Call(ctx, tg, performance.GetMetrics, cdp.Empty{})
		for _, m := range res.Metrics {
			if m.Name == "Nodes" {
				lf.nodesAfterGC = m.Value
			}
		}
		return err
	}))
	return lt, lf, err
}

// loadTaskParts splits a cold load's longest task on the page's renderer
// main thread by the page's marks (browser.Mark: headroom:main after Go's
// runtime and package init, headroom:init and headroom:computed around
// the explorer's first compute in OnInit, headroom:mounted when go-app
// has mounted the page and calls OnMount, in the same task), with V8's compilation of app.wasm inside the
// task (the streaming compile's end, the instantiation, and the lazy
// compile of each function at its first call) counted apart from the part
// it fell in.
type loadTaskParts struct {
	start, total float64 // ms since the navigation; ms
	compile      float64 // wasm compile and instantiate
	goInit       float64 // task start to headroom:main, less compile
	goApp        float64 // headroom:main to headroom:init (go-app's start, routing), less compile
	compute      float64 // headroom:init to headroom:computed, less compile
	mount        float64 // headroom:computed to headroom:mounted: go-app's mount, less compile
	rest         float64 // headroom:mounted (OnMount) to the task's end, less compile
	layout       float64 // style and layout forced inside the task (in the parts above)
	gc           float64 // V8's collections inside the task (in the parts above)
	lazy         int     // app.wasm's functions compiled at their first call inside the task
	missing      []string
}

func (p loadTaskParts) String() string {
	s := fmt.Sprintf("the load's long task at %.0f ms: %.0f ms = wasm compile and instantiate %.0f + Go runtime and init %.0f + go-app start %.0f + first compute %.0f + go-app mount %.0f + OnMount and after %.0f (style and layout inside: %.0f, V8 GC: %.0f); %d functions compiled at their first call",
		p.start, p.total, p.compile, p.goInit, p.goApp, p.compute, p.mount, p.rest, p.layout, p.gc, p.lazy)
	if len(p.missing) > 0 {
		s += "; marks not in the task: " + strings.Join(p.missing, ", ")
	}
	return s
}

// isWasmCompile reports whether a trace event is V8 compiling or
// instantiating WebAssembly on the thread it runs on.
func isWasmCompile(name string) bool {
	switch name {
	case "wasm.CompileLazy", "v8.wasm.compileConsumeDone", "wasm.FinishStreaming", "v8.wasm.instantiate",
		"wasm.InstantiateModule", "v8.wasm.compileConsume", "wasm.OnBytesReceived", "wasm.SyncCompile",
		"wasm.AsyncCompile", "v8.newInstance":
		return true
	}
	return false
}

// splitLoadTask finds the longest task on the main thread of the renderer
// that ran app.wasm (the one with the page's marks, else the one that
// compiled WebAssembly: other tabs' renderers are in the trace too) after
// start, and splits it (loadTaskParts).
//
// The marks are the page's own (performance.getEntriesByType), placed on
// the trace's clock by the first contentful paint both know: the trace
// does not always hold the user-timing events.
func splitLoadTask(events []traceEvent, threads map[[2]int]string, start float64, pm pageMarks) (loadTaskParts, bool) {
	var p loadTaskParts
	// The page's renderer is the one that compiled the most of app.wasm
	// (other tabs' renderers, idle, are in the trace too).
	compiled := map[int]float64{}
	for _, e := range events {
		if e.Ph == "X" && (e.Name == "wasm.CompileLazy" || e.Name == "v8.wasm.compileConsume") {
			compiled[e.Pid] += e.Dur
		}
	}
	pid, most := -1, 0.0
	for id, d := range compiled {
		if d > most {
			pid, most = id, d
		}
	}
	fcpTs := math.NaN()
	for _, e := range events {
		if e.Pid == pid && e.Name == "firstContentfulPaint" && e.Ts >= start {
			fcpTs = e.Ts // the last: the page's, not an earlier document's
		}
	}
	var task *traceEvent
	var main []traceEvent
	for i := range events {
		e := &events[i]
		if e.Pid != pid || threads[[2]int{e.Pid, e.Tid}] != "CrRendererMain" || e.Ts < start {
			continue
		}
		main = append(main, *e)
		if e.Ph == "X" && e.Name == "RunTask" && (task == nil || e.Dur > task.Dur) {
			task = e
		}
	}
	if task == nil {
		return p, false
	}
	t0, t1 := task.Ts, task.Ts+task.Dur
	p.start, p.total = (t0-start)/1e3, task.Dur/1e3
	// The page's clock on the trace's: by the long task both saw (its
	// start), else by the first contentful paint.
	marks := map[string]float64{}
	switch {
	case pm.LongTask >= 0 && math.Abs(pm.LongDur*1e3-task.Dur) < 0.2*task.Dur:
		for name, ms := range pm.Marks {
			marks[name] = t0 + (ms-pm.LongTask)*1e3
		}
	case pm.FCP >= 0 && !math.IsNaN(fcpTs):
		for name, ms := range pm.Marks {
			marks[name] = fcpTs + (ms-pm.FCP)*1e3
		}
	}
	bounds := []float64{t0}
	for _, m := range []string{"headroom:main", "headroom:init", "headroom:computed", "headroom:mounted"} {
		ts, ok := marks[m]
		if !ok || ts < t0 || ts > t1 {
			p.missing = append(p.missing, m)
			ts = bounds[len(bounds)-1]
		}
		bounds = append(bounds, max(ts, bounds[len(bounds)-1]))
	}
	bounds = append(bounds, t1)
	// The compile inside each part: the outermost compile events only
	// (compileConsumeDone holds FinishStreaming).
	compileIn := make([]float64, len(bounds)-1)
	slices.SortFunc(main, func(a, b traceEvent) int { return cmp.Compare(a.Ts, b.Ts) })
	coveredTo := math.Inf(-1)
	for _, e := range main {
		if e.Ph != "X" || e.Ts < t0 || e.Ts >= t1 {
			continue
		}
		if e.Name == "wasm.CompileLazy" {
			p.lazy++
		}
		switch {
		case isWasmCompile(e.Name) && e.Ts >= coveredTo:
			coveredTo = e.Ts + e.Dur
			for i := range compileIn {
				lo, hi := max(bounds[i], e.Ts), min(bounds[i+1], e.Ts+e.Dur)
				if hi > lo {
					compileIn[i] += hi - lo
				}
			}
		case e.Name == "Document::UpdateStyleAndLayout":
			p.layout += e.Dur
		case e.Name == "MajorGC" || e.Name == "MinorGC":
			p.gc += e.Dur
		}
	}
	part := func(i int) float64 { return (bounds[i+1] - bounds[i] - compileIn[i]) / 1e3 }
	for _, c := range compileIn {
		p.compile += c / 1e3
	}
	p.goInit, p.goApp, p.compute, p.mount, p.rest = part(0), part(1), part(2), part(3), part(4)
	p.layout /= 1e3
	p.gc /= 1e3
	return p, true
}

// tracedColdLoad is one cold load in a new browser context under Chrome's
// tracing: its events, its threads' names and its times.
func tracedColdLoad(t *testing.T, base string) ([]traceEvent, map[[2]int]string, loadTiming, pageMarks) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(e2e.browser, chromedp.WithNewBrowserContext())
	defer cancel()
	// Same origin first, so the load stays in the renderer being traced.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/web/headroom.css")); err != nil {
		t.Fatal(err)
	}
	var rec *traceRecorder
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		var err error
		rec, err = startTrace(ctx, tg, &tracing.TraceConfig{IncludedCategories: []string{
			"devtools.timeline", "v8", "v8.wasm", "blink", "loading", "toplevel", "blink.user_timing",
			"disabled-by-default-v8.compile", "disabled-by-default-devtools.timeline"}}, nil)
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	lt, err := coldLoad(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	// OnMount's mark, and the long task that holds it, which the ready
	// script's observer sees once the task has ended.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](mountedJS, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Logf("the mount's mark or its long task not seen in 30 s (%v): the parts after it may be missing", err)
	}
	marks, err := chromedp.Run(ctx, chromedp.Evaluate[pageMarks](pageMarksJS))
	if err != nil {
		t.Fatal(err)
	}
	stopCtx, cancelStop := context.WithTimeout(ctx, time.Minute)
	defer cancelStop()
	events, err := rec.stop(stopCtx)
	if err != nil {
		t.Fatal(err)
	}
	threads := map[[2]int]string{}
	for _, e := range events {
		if e.Ph == "M" && e.Name == "thread_name" {
			threads[[2]int{e.Pid, e.Tid}], _ = e.Args["name"].(string)
		}
	}
	return events, threads, lt, marks
}

// pageMarks is the page's performance marks, its longest task (from the
// ready script's long-task observer) and its first contentful paint, ms
// since its time origin.
type pageMarks struct {
	Marks    map[string]float64 `json:"marks"`
	FCP      float64            `json:"fcp"`
	LongTask float64            `json:"longTask"` // its start; -1: none seen
	LongDur  float64            `json:"longDur"`
}

// mountedJS is true once the page has marked OnMount and a long task
// ending at or after that mark has been observed.
const mountedJS = `(() => {
	const m = performance.getEntriesByName('headroom:mounted')[0];
	return !!m && (window.__benchLongTasks || []).some(e => e.start + e.dur >= m.startTime);
})()`

const pageMarksJS = `(() => {
	const marks = {};
	for (const m of performance.getEntriesByType('mark')) if (!(m.name in marks)) marks[m.name] = m.startTime;
	const fcp = performance.getEntriesByName('first-contentful-paint')[0];
	let lt = {start: -1, dur: 0};
	for (const e of window.__benchLongTasks || []) if (e.dur > lt.dur) lt = e;
	return {marks, fcp: fcp ? fcp.startTime : -1, longTask: lt.start, longDur: lt.dur};
})()`

// navStart is the trace's navigation start (or its commit), in us.
func navStart(events []traceEvent) float64 {
	start := math.Inf(1)
	for _, e := range events {
		if (e.Name == "navigationStart" || e.Name == "DocumentLoader::CommitNavigation") && e.Ts < start {
			start = e.Ts
		}
	}
	return start
}
