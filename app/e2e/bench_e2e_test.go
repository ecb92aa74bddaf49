//go:build bench && !wasm

package e2e

// make bench: the figures of BENCHMARKS.md, measured in headless Chromium
// against the explorer that make wasm built, plus the Go benchmarks they
// sit beside. Behind the bench build tag, so make test never runs it and
// nothing here asserts a time.
//
//	make bench
//	go test -tags bench -run '^TestBench$' -v ./app/e2e -args -bench.out=FILE

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"headroom/app/server"
	"headroom/app/ui"
)

var (
	benchOut    = flag.String("bench.out", "", "write the summary lines (name: value unit) to this file too")
	benchInputs = flag.Int("bench.inputs", 200, "slider inputs timed")
	benchWarmup = flag.Int("bench.warmup", 20, "slider inputs before the timed ones, not counted")
	benchLoads  = flag.Int("bench.loads", 10, "cold page loads timed")
	benchCount  = flag.Int("bench.count", 5, "runs of each Go benchmark (the median is reported)")
	benchWeb    = flag.String("bench.web", "", "web directory to serve (default: the project's web/, as make wasm leaves it)")
	benchGo     = flag.Bool("bench.go", true, "run the Go benchmarks (false: the browser's figures only, for a quicker run)")
	benchQuery  = flag.String("bench.query", "", "the page's query for the timed inputs, with its ? (?profile=art: under ART's code); empty: the default page")
)

// figure is one line of the summary.
type figure struct {
	name  string
	value float64
	unit  string
}

func (f figure) String() string {
	return f.name + ": " + strconv.FormatFloat(f.value, 'f', -1, 64) + " " + f.unit
}

// TestBench measures the eight figures of the issue (TestBenchReplay adds
// replay_1m_native_ms) and prints them last,
// one line each, as "name: value unit".
func TestBench(t *testing.T) {
	root, ok := server.ProjectRoot(mustGetwd(t))
	if !ok {
		t.Fatal("run from inside the project")
	}
	var figs []figure

	// The Go benchmarks first, while no browser shares the two cores.
	sweepWasm, mapWasm, chart := math.NaN(), math.NaN(), math.NaN()
	if *benchGo {
		sweepNative := goBench(t, root, nil, "./estimator", "Sweep512")
		sweepWasm = goBench(t, root, []string{"GOOS=js", "GOARCH=wasm"}, "./estimator", "Sweep512",
			"-exec", filepath.Join(goEnv(t, "GOROOT"), "lib", "wasm", "go_js_wasm_exec"))
		mapWasm = goBench(t, root, []string{"GOOS=js", "GOARCH=wasm"}, "./estimator", "Map128",
			"-exec", filepath.Join(goEnv(t, "GOROOT"), "lib", "wasm", "go_js_wasm_exec"))
		chart = goBench(t, root, nil, "./app/chart", "ChartRenderSVG")
		t.Logf("estimator sweep, 512 points, both revisions: %.0f us native, %.0f us in WebAssembly (Node %s)",
			sweepNative/1e3, sweepWasm/1e3, nodeVersion())
		t.Logf("estimator map, 128 columns, both revisions, in WebAssembly: %.1f ms", mapWasm/1e6)
		t.Logf("chart render (SVG, 512 points), native: %.0f us", chart/1e3)
	}

	web := benchWebDir(t)
	base := benchStart(t, web)

	wire, enc := wireBytes(t, base)
	t.Logf("GET /web/app.wasm, Accept-Encoding: br, gzip: %d bytes on the wire, Content-Encoding %q", wire, enc)

	lat, cpuIn := inputLatencies(t, *benchQuery)
	artQuery := "?profile=art"
	if *benchQuery != "" {
		artQuery = *benchQuery + "&profile=art"
	}
	latArt, cpuInArt := inputLatencies(t, artQuery)
	loads, chartPaint, after := coldLoads(t, base)
	task := loadTask(t, base)
	visit := firstVisitBytes(t, web)

	figs = append(figs,
		figure{"input_to_paint_p50_ms", round(percentile(lat, 50), 1), "ms"},
		figure{"input_to_paint_p95_ms", round(percentile(lat, 95), 1), "ms"},
		figure{"cpu_per_input_ms", round(cpuIn, 1), "ms"},
		figure{"input_to_dom_art_p50_ms", round(percentile(latArt, 50), 1), "ms"},
		figure{"input_to_dom_art_p95_ms", round(percentile(latArt, 95), 1), "ms"},
		figure{"cpu_per_input_art_ms", round(cpuInArt, 1), "ms"},
		figure{"sweep_wasm_us", round(sweepWasm/1e3, 0), "us"},
		figure{"map_wasm_ms", round(mapWasm/1e6, 1), "ms"},
		figure{"wasm_wire_bytes", float64(wire), "bytes"},
		figure{"load_to_interactive_ms", round(percentile(loads, 50), 0), "ms"},
		figure{"chart_render_native_us", round(chart/1e3, 0), "us"},
		figure{"first_chart_paint_ms", round(percentile(chartPaint, 50), 0), "ms"},
		figure{"first_visit_wire_bytes", float64(visit), "bytes"},
		figure{"dom_elements_after_load", after.elements, "elements"},
		figure{"dom_nodes_after_load", after.nodes, "nodes"},
		figure{"renderer_nodes_after_load", after.blinkNodes, "nodes"},
		figure{"renderer_nodes_after_gc", after.blinkNodesGC, "nodes"},
		figure{"renderer_pss_mb", round(after.pss, 1), "MB"},
		figure{"renderer_uss_mb", round(after.uss, 1), "MB"},
		figure{"renderer_cpu_to_ready_ms", round(after.cpuMs, 0), "ms"},
		figure{"load_task_ms", round(task.total, 0), "ms"},
		figure{"load_task_wasm_compile_ms", round(task.compile, 0), "ms"},
		figure{"load_task_go_init_ms", round(task.goInit, 0), "ms"},
		figure{"load_task_goapp_start_ms", round(task.goApp, 0), "ms"},
		figure{"load_task_first_compute_ms", round(task.compute, 0), "ms"},
		figure{"load_task_mount_ms", round(task.mount, 0), "ms"},
		figure{"load_task_after_mount_ms", round(task.rest, 0), "ms"},
	)
	var b strings.Builder
	for _, f := range figs {
		if !math.IsNaN(f.value) { // -bench.go=false: no Go benchmarks
			b.WriteString(f.String() + "\n")
		}
	}
	fmt.Print(b.String())
	if *benchOut != "" {
		if err := os.WriteFile(*benchOut, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func mustGetwd(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

func goEnv(t *testing.T, key string) string {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", key, err)
	}
	return strings.TrimSpace(string(out))
}

func nodeVersion() string {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(out))
}

// goBench runs one Go benchmark -bench.count times in pkg (from the
// project root, with env added) and returns the median ns/op.
func goBench(t *testing.T, root string, env []string, pkg, name string, extra ...string) float64 {
	t.Helper()
	args := append([]string{"test", "-run", "^$", "-bench", "^Benchmark" + name + "$",
		"-count", strconv.Itoa(*benchCount)}, extra...)
	args = append(args, pkg)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), env...)
	t.Logf("%s go %s", strings.Join(env, " "), strings.Join(args, " "))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	var ns []float64
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark"+name) {
			continue
		}
		for i := 1; i < len(f); i++ {
			if f[i] == "ns/op" {
				v, err := strconv.ParseFloat(f[i-1], 64)
				if err != nil {
					t.Fatalf("benchmark line %q: %v", line, err)
				}
				ns = append(ns, v)
			}
		}
	}
	if len(ns) == 0 {
		t.Fatalf("no ns/op in the output of go %s:\n%s", strings.Join(args, " "), out)
	}
	t.Logf("  ns/op: %v", ns)
	return percentile(ns, 50)
}

// benchWebDir is the directory served: the project's web/ as make wasm
// leaves it (app.wasm and its brotli -q 11 and gzip copies), so the
// figures are those of the build the site ships, not of the e2e tests'
// quicker one.
func benchWebDir(t *testing.T) string {
	t.Helper()
	web, err := server.FindWebDir(*benchWeb)
	if err != nil {
		t.Fatal(err)
	}
	wasm := filepath.Join(web, "app.wasm")
	fi, err := os.Stat(wasm)
	if err != nil {
		t.Fatalf("%v: run make bench, which builds it (make wasm)", err)
	}
	for _, c := range []string{".br", ".gz"} {
		ci, err := os.Stat(wasm + c)
		if err != nil || ci.ModTime().Before(fi.ModTime()) {
			t.Logf("warning: %s%s is missing or older than app.wasm: serve sends something else", wasm, c)
		}
	}
	t.Logf("serving %s (app.wasm %d bytes, built %s)", web, fi.Size(), fi.ModTime().Format(time.RFC3339))
	return web
}

// benchStart starts the e2e harness's server on web and its browser, in
// place of startE2E (which builds its own app.wasm), so newTab works.
func benchStart(t *testing.T, web string) string {
	t.Helper()
	e2e.once.Do(func() {
		chromium, err := findChromium()
		if err != nil {
			e2e.err = err
			return
		}
		if out, err := exec.Command(chromium, "--version").Output(); err == nil {
			t.Logf("browser: %s", strings.TrimSpace(string(out)))
		}
		if e2e.dir, e2e.err = os.MkdirTemp("", "headroom-bench-"); e2e.err != nil {
			return
		}
		e2e.stop = append(e2e.stop, func() { os.RemoveAll(e2e.dir) })
		if e2e.base, e2e.err = startE2EServer(web); e2e.err != nil {
			return
		}
		e2e.browser, e2e.err = startBrowser(chromium, filepath.Join(e2e.dir, "profile"))
	})
	if e2e.err != nil {
		t.Fatalf("bench setup: %v", e2e.err)
	}
	return e2e.base
}

// wireBytes fetches app.wasm as a browser asks for it and counts the bytes
// of the body as sent, without decoding them.
func wireBytes(t *testing.T, base string) (int64, string) {
	t.Helper()
	req, err := http.NewRequest("GET", base+"/web/app.wasm", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Encoding", "br, gzip")
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /web/app.wasm: status %d, %d bytes, %v", resp.StatusCode, n, err)
	}
	return n, resp.Header.Get("Content-Encoding")
}

// slideInput is one timed input (see ui.SlideInput).
type slideInput = ui.SlideInput

// benchSliders are the sliders the inputs move: the model's, the
// request's, FC2's and the budget's, including rows, the swept axis
// (which moves only the chart's marker, a cheaper render).
var benchSliders = []string{"vocab_size", "rows", "chunk_rows", "num_experts_per_tok", "hidden_size",
	"sequence_rows", "input_width", "capacity_bytes"}

// benchSteps are the position steps, small (a nudge) to large (a fling).
var benchSteps = []int{1, 2, 3, 5, 10, 20, 40, 80, 150, 300}

// inputPlan makes n inputs from the default page that each change the
// config to a valid one (see ui.SlideInputs).
func inputPlan(t *testing.T, query string, n int) []slideInput {
	t.Helper()
	plan, err := ui.SlideInputsAt(query, n, benchSliders, benchSteps)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

// slideJS times each input in the page. For each: wait for a frame, then
// the input's delay (a random phase in the frame, as input arrives from a
// person); t0 = performance.now(); set the range input's value and
// dispatch 'input' as the browser does; dom = when #explorer's
// data-renders passes its value before the input (a MutationObserver: its
// callback runs right after the script that wrote the DOM, the render);
// frame = the start of the next animation frame (the one the render ran
// in, unless it ran in the input's own task); painted = a message posted
// at dom (from the next frame's callback when the render ran in the
// input's task), which runs after that frame's style, layout and paint. Times are ms since t0, except renderMs, the explorer's own
// data-render-ms (estimate, sweep and SVG, before the DOM writes).
const slideJS = `(async (plan) => {
	const root = document.getElementById('explorer');
	const nextFrame = () => new Promise(r => requestAnimationFrame(r));
	const sleep = ms => new Promise(r => setTimeout(r, ms));
	const out = [];
	for (const [i, p] of plan.entries()) {
		await nextFrame();
		await sleep(p.delay);
		const el = document.getElementById('slider-' + p.key);
		if (!el) throw new Error('no #slider-' + p.key);
		const n = Number(root.dataset.renders);
		let frameAt = NaN;
		const dom = new Promise((resolve, reject) => {
			const obs = new MutationObserver(() => {
				if (Number(root.dataset.renders) > n) { obs.disconnect(); resolve(performance.now()); }
			});
			obs.observe(root, {attributes: true, attributeFilter: ['data-renders']});
			setTimeout(() => { obs.disconnect(); reject(new Error('input ' + i + ' (' + p.key + ' to ' + p.pos + '): no render in 5 s')); }, 5000);
		});
		const t0 = performance.now();
		el.value = String(p.pos);
		el.dispatchEvent(new Event('input', {bubbles: true}));
		const handled = performance.now();
		requestAnimationFrame(ts => { frameAt = ts; });
		const tDom = await dom;
		const tPaint = await new Promise(r => {
			const post = () => {
				const ch = new MessageChannel();
				ch.port1.onmessage = () => r(performance.now());
				ch.port2.postMessage(0);
			};
			// Written in the input's own task: the frame that paints it is
			// the next one, so post from its animation callback.
			// (the observer's callback runs once this script awaits, just
			// after the handler: within 1 ms).
			if (tDom - handled < 1) requestAnimationFrame(post); else post();
		});
		await nextFrame(); // frameAt is set by now
		out.push({key: p.key, handled: handled - t0, frame: frameAt - t0, dom: tDom - t0,
			painted: tPaint - t0, renderMs: Number(root.dataset.renderMs)});
	}
	return out;
})(%s)`

// frameWait is how long the render waited for an animation frame: none
// when it ran in the input's own task (the DOM was written before the
// handler returned: the observer saw it within 1 ms of the return, when
// the timing script awaited).
func (r inputTiming) frameWait() float64 {
	if r.DOM-r.Handled < 1 {
		return 0
	}
	return max(0, r.Frame)
}

// inputTiming is one input's times, in ms after the input event.
type inputTiming struct {
	Key      string  `json:"key"`
	Handled  float64 `json:"handled"`  // the input handler returned
	Frame    float64 `json:"frame"`    // the animation frame that rendered began
	DOM      float64 `json:"dom"`      // chart, panels and table in the DOM
	Painted  float64 `json:"painted"`  // that frame's style, layout and paint done
	RenderMs float64 `json:"renderMs"` // the explorer's compute (data-render-ms)
}

// inputLatencies sends the warm-up and timed inputs to the page query
// opens and returns the timed ones' input-to-DOM times, and the CPU time
// the tab's renderer spent per timed input (all its threads, the timing
// script's own share included: its waits are idle).
func inputLatencies(t *testing.T, query string) ([]float64, float64) {
	t.Helper()
	plan := inputPlan(t, query, *benchWarmup+*benchInputs)
	tb := newTab(t)
	tb.open(query)
	t.Logf("inputs on the page %q, whose address is ?%s", query, eval[string](tb, `document.getElementById('explorer').dataset.query`))
	fps := eval[float64](tb, `(async () => {
		const t = [];
		for (let i = 0; i < 31; i++) t.push(await new Promise(r => requestAnimationFrame(r)));
		return 30000 / (t[30] - t[0]);
	})()`, chromedp.EvalAwaitPromise)
	t.Logf("animation frames: %.1f per second", fps)
	js, _ := json.Marshal(plan[:*benchWarmup])
	eval[[]inputTiming](tb, fmt.Sprintf(slideJS, js), chromedp.EvalAwaitPromise)
	before, err := rendererCPU(tb.ctx)
	if err != nil {
		t.Fatal(err)
	}
	js, _ = json.Marshal(plan[*benchWarmup:])
	res := eval[[]inputTiming](tb, fmt.Sprintf(slideJS, js), chromedp.EvalAwaitPromise)
	if len(res) != len(plan)-*benchWarmup {
		t.Fatalf("%d timings for %d inputs", len(res), len(plan)-*benchWarmup)
	}
	now, err := rendererCPU(tb.ctx)
	if err != nil {
		t.Fatal(err)
	}
	pid, cpu := busiest(before, now)
	cpuPer := cpu * 1e3 / float64(len(res))
	if pss, uss, err := pssMB(pid); err == nil {
		t.Logf("the tab's renderer after the inputs: PSS %.1f MB, USS %.1f MB", pss, uss)
	}
	col := func(f func(inputTiming) float64) []float64 {
		v := make([]float64, len(res))
		for i, r := range res {
			v[i] = f(r)
		}
		return v
	}
	dom := col(func(r inputTiming) float64 { return r.DOM })
	t.Logf("%d inputs (after %d not counted), ms after the input event, p50 / p95 / max:", len(res), *benchWarmup)
	for _, c := range []struct {
		name string
		v    []float64
	}{
		{"input handler returned", col(func(r inputTiming) float64 { return r.Handled })},
		{"waiting for the frame", col(func(r inputTiming) float64 { return r.frameWait() })},
		{"render (frame start to DOM)", col(func(r inputTiming) float64 { return r.DOM - r.frameWait() })},
		{"  of which data-render-ms", col(func(r inputTiming) float64 { return r.RenderMs })},
		{"DOM updated (the figure)", dom},
		{"painted (frame done)", col(func(r inputTiming) float64 { return r.Painted })},
	} {
		t.Logf("  %-30s %6.1f %6.1f %6.1f", c.name, percentile(c.v, 50), percentile(c.v, 95), slices.Max(c.v))
	}
	inTask := 0
	for _, r := range res {
		if r.frameWait() == 0 {
			inTask++
		}
	}
	t.Logf("  rendered in the input's own task: %d of %d; the renderer's CPU: %.1f ms an input", inTask, len(res), cpuPer)
	bySlider := map[string][]float64{}
	for _, r := range res {
		bySlider[r.Key] = append(bySlider[r.Key], r.DOM-r.frameWait())
	}
	for _, k := range benchSliders {
		if v := bySlider[k]; len(v) > 0 {
			t.Logf("  render after %-20s n=%3d p50 %5.1f p95 %5.1f", k, len(v), percentile(v, 50), percentile(v, 95))
		}
	}
	return dom, cpuPer
}

// readyScript runs in every new document before the page's own scripts:
// it notes performance.now() (ms since navigation start) when the
// WebAssembly side has rendered the explorer, by the e2e tests' readyExpr.
//
// It also notes __benchChartPaintAt: the chart's <svg> and the controls
// (the rows slider) are on screen, whoever drew them (the server's HTML or
// app.wasm): checked at the start of every animation frame, the chart
// counts when the topmost element at a point of it is the chart (no
// loading cover over it); the time is when that frame has painted (a
// message posted from its callback runs after the paint), or
// first-contentful-paint if later. __benchChartGone counts the frames
// after that which had no chart: a visible jump.
const readyScript = `(() => {
	const onScreen = () => {
		const svg = document.querySelector('#chart svg');
		if (!svg || !document.getElementById('slider-rows')) return false;
		const r = svg.getBoundingClientRect();
		if (r.width < 1 || r.height < 1 || r.top >= innerHeight) return false;
		const x = Math.min(innerWidth - 1, Math.max(0, r.left + r.width / 2));
		const y = Math.min(innerHeight - 1, Math.max(0, r.top + Math.min(r.height, innerHeight - r.top) / 2));
		const top = document.elementFromPoint(x, y);
		return !!top && !!top.closest('#chart');
	};
	window.__benchChartGone = 0;
	let noted = false;
	const watch = () => {
		if (noted) {
			if (!document.querySelector('#chart svg')) window.__benchChartGone++;
			if (window.__benchReadyAt === undefined) requestAnimationFrame(watch);
			return;
		}
		if (onScreen()) {
			noted = true;
			const ch = new MessageChannel();
			ch.port1.onmessage = () => {
				const fcp = performance.getEntriesByName('first-contentful-paint')[0];
				window.__benchChartPaintAt = Math.max(performance.now(), fcp ? fcp.startTime : 0);
			};
			ch.port2.postMessage(0);
		}
		requestAnimationFrame(watch);
	};
	requestAnimationFrame(watch);
	// The page's long tasks, on its own clock (bench_load_test.go places
	// the trace's task and the page's marks on one clock by them).
	window.__benchLongTasks = [];
	try {
		new PerformanceObserver(l => { for (const e of l.getEntries()) window.__benchLongTasks.push({start: e.startTime, dur: e.duration}); })
			.observe({type: 'longtask', buffered: true});
	} catch (e) {}
	const ready = () => {
		const e = document.getElementById('explorer');
		return !!e && e.dataset.ready === '1' && !!document.querySelector('#chart svg');
	};
	const obs = new MutationObserver(() => {
		if (window.__benchReadyAt === undefined && ready()) {
			window.__benchReadyAt = performance.now();
			if (window.__benchReadyCPU) window.__benchReadyCPU(''); // bench_load_test.go: the CPU time now
			obs.disconnect();
		}
	});
	obs.observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready']});
})()`

// loadTiming is one cold load's milestones, ms since navigation start.
type loadTiming struct {
	Ready       float64 `json:"ready"`       // WebAssembly running, chart drawn
	ChartPaint  float64 `json:"chartPaint"`  // the chart and the controls painted
	ChartGone   float64 `json:"chartGone"`   // frames without the chart after it showed
	DocEnd      float64 `json:"docEnd"`      // the page's HTML received
	WasmStart   float64 `json:"wasmStart"`   // app.wasm requested
	WasmEnd     float64 `json:"wasmEnd"`     // app.wasm received
	WasmEncoded float64 `json:"wasmEncoded"` // app.wasm's bytes on the wire
}

// afterLoad is the median over the cold loads of what bench_load_test.go
// measures beside their times.
type afterLoad struct {
	elements float64 // document.getElementsByTagName('*').length, benchSettle after ready
	nodes    float64 // the document's nodes, text and comments too
	// blinkNodes is Performance.getMetrics' Nodes: every node Blink
	// holds for the tab, the server's page that go-app replaced included
	// until a collection frees it.
	blinkNodes float64
	// blinkNodesGC is the same count after a forced collection
	// (HeapProfiler.collectGarbage), read after the memory: the nodes
	// something still holds.
	blinkNodesGC float64
	pss          float64 // the tab's renderer's PSS then, MB
	uss          float64 // and its USS
	cpuMs        float64 // the tab's renderer's CPU time at ready
}

// coldLoads loads the page -bench.loads times, each in a new browser
// context (its own empty cache and no service worker, as a first visit)
// with the cache disabled too, and returns the times to interactive and
// to the chart and controls painted, and the medians of the nodes, memory
// and CPU (measuredColdLoad).
func coldLoads(t *testing.T, base string) (ready, chartPaint []float64, after afterLoad) {
	t.Helper()
	var loads []loadTiming
	var elems, all, blink, blinkGC, pss, uss, cpu []float64
	for i := 0; i < *benchLoads; i++ {
		ctx, cancel := chromedp.NewContext(e2e.browser, chromedp.WithNewBrowserContext())
		lt, lf, err := measuredColdLoad(ctx, base)
		cancel()
		if err != nil {
			t.Fatalf("cold load %d: %v", i+1, err)
		}
		elems, pss, cpu = append(elems, float64(lf.census.Elements)), append(pss, lf.pss), append(cpu, lf.cpuMs)
		all, blink = append(all, float64(lf.census.All)), append(blink, lf.metrics["Nodes"])
		uss, blinkGC = append(uss, lf.uss), append(blinkGC, lf.nodesAfterGC)
		if i == 0 {
			t.Logf("after a cold load (%v later): %d elements, %d nodes in all (text and comments too), Blink's Nodes %.0f (%.0f after a forced collection), JS heap used %.1f MB; elements by part: %v",
				benchSettle, lf.census.Elements, lf.census.All, lf.metrics["Nodes"], lf.nodesAfterGC, lf.metrics["JSHeapUsedSize"]/1e6, lf.census.Parts)
		}
		ready = append(ready, lt.Ready)
		chartPaint = append(chartPaint, lt.ChartPaint)
		if lt.ChartGone > 0 {
			t.Logf("cold load %d: the chart left the screen for %.0f frames after it showed", i+1, lt.ChartGone)
		}
		loads = append(loads, lt)
	}
	col := func(f func(loadTiming) float64) float64 {
		v := make([]float64, len(loads))
		for i, l := range loads {
			v[i] = f(l)
		}
		return percentile(v, 50)
	}
	t.Logf("%d cold loads, ms since navigation start (median): HTML %.0f, chart and controls painted %.0f, app.wasm requested %.0f, received %.0f (%.0f bytes), interactive %.0f; all: %v, chart painted: %v",
		len(loads), col(func(l loadTiming) float64 { return l.DocEnd }), col(func(l loadTiming) float64 { return l.ChartPaint }),
		col(func(l loadTiming) float64 { return l.WasmStart }),
		col(func(l loadTiming) float64 { return l.WasmEnd }), col(func(l loadTiming) float64 { return l.WasmEncoded }),
		col(func(l loadTiming) float64 { return l.Ready }), roundAll(ready), roundAll(chartPaint))
	t.Logf("the tab's renderer: CPU to ready %v ms, PSS %v MB, USS %v MB (%v after ready); elements %v, all nodes %v, Blink's Nodes %v (%v after a forced collection)",
		roundAll(cpu), roundAll(pss), roundAll(uss), benchSettle, roundAll(elems), roundAll(all), roundAll(blink), roundAll(blinkGC))
	return ready, chartPaint, afterLoad{elements: percentile(elems, 50), nodes: percentile(all, 50), blinkNodes: percentile(blink, 50), blinkNodesGC: percentile(blinkGC, 50),
		pss: percentile(pss, 50), uss: percentile(uss, 50), cpuMs: percentile(cpu, 50)}
}

// benchTraces is how many traced cold loads loadTask splits.
const benchTraces = 3

// loadTask traces benchTraces cold loads and returns the medians of their
// long task's parts (splitLoadTask).
func loadTask(t *testing.T, base string) loadTaskParts {
	t.Helper()
	var parts []loadTaskParts
	for i := 0; len(parts) < benchTraces && i < 3*benchTraces; i++ {
		events, threads, _, marks := tracedColdLoad(t, base)
		p, ok := splitLoadTask(events, threads, navStart(events), marks)
		t.Logf("traced cold load %d: %s", i+1, p)
		if !ok || len(p.missing) > 0 {
			continue // a trace that lost events: another load
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		t.Fatalf("no traced cold load of %d held the long task and the page's marks", 3*benchTraces)
	}
	med := func(f func(loadTaskParts) float64) float64 {
		v := make([]float64, len(parts))
		for i, p := range parts {
			v[i] = f(p)
		}
		return percentile(v, 50)
	}
	return loadTaskParts{
		start: med(func(p loadTaskParts) float64 { return p.start }), total: med(func(p loadTaskParts) float64 { return p.total }),
		compile: med(func(p loadTaskParts) float64 { return p.compile }), goInit: med(func(p loadTaskParts) float64 { return p.goInit }),
		goApp: med(func(p loadTaskParts) float64 { return p.goApp }), compute: med(func(p loadTaskParts) float64 { return p.compute }),
		mount: med(func(p loadTaskParts) float64 { return p.mount }), rest: med(func(p loadTaskParts) float64 { return p.rest }),
		layout: med(func(p loadTaskParts) float64 { return p.layout }), gc: med(func(p loadTaskParts) float64 { return p.gc }),
		lazy: int(med(func(p loadTaskParts) float64 { return float64(p.lazy) })),
	}
}

func coldLoad(ctx context.Context, base string) (loadTiming, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 800),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			if _, err := cdp.Call(ctx, tg, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
				return err
			}
			_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: readyScript})
			return err
		}),
		chromedp.Navigate(base+"/"),
	)
	if err != nil {
		return loadTiming{}, err
	}
	return chromedp.Run(ctx, chromedp.Poll[loadTiming](`(() => {
		if (window.__benchReadyAt === undefined || window.__benchChartPaintAt === undefined) return null;
		const nav = performance.getEntriesByType('navigation')[0];
		const w = performance.getEntriesByType('resource').find(e => e.name.endsWith('/web/app.wasm'));
		return {ready: window.__benchReadyAt, chartPaint: window.__benchChartPaintAt, chartGone: window.__benchChartGone, docEnd: nav ? nav.responseEnd : NaN,
			wasmStart: w ? w.startTime : NaN, wasmEnd: w ? w.responseEnd : NaN, wasmEncoded: w ? w.encodedBodySize : NaN};
	})()`, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(50*time.Second)))
}

// percentile is the p-th percentile of v by linear interpolation between
// the closest ranks (p 50 of an even count is the mean of the middle two).
func percentile(v []float64, p float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	slices.Sort(s)
	r := p / 100 * float64(len(s)-1)
	lo := int(math.Floor(r))
	if lo >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[lo] + (r-float64(lo))*(s[lo+1]-s[lo])
}

func round(v float64, decimals int) float64 {
	m := math.Pow(10, float64(decimals))
	return math.Round(v*m) / m
}

func roundAll(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = round(x, 0)
	}
	return out
}
