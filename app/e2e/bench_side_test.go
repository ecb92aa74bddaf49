//go:build bench && !wasm

package e2e

// make bench's side-by-side figures: Headroom beside the peer (a static
// VRAM calculator, a Next.js export served as a static host serves it),
// measured by one harness in one browser, interleaved, and printed with
// each figure's ratio (Headroom over the peer). What "interactive" and
// "the chart on screen" mean on each page is in sideTargets.
//
//	go test -tags bench -run '^TestBenchSide$' -v ./app/e2e -args -bench.peer=DIR

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

var (
	benchPeer       = flag.String("bench.peer", "", "the peer's folder (serve.py and its static site): TestBenchSide serves it with serve.py and measures it beside Headroom")
	benchSideLoads  = flag.Int("bench.sideloads", 3, "TestBenchSide: rounds; each round has one cold load, one first and second visit, and a share of the inputs, of each page")
	benchSideInputs = flag.Int("bench.sideinputs", 150, "TestBenchSide: inputs timed on each page, split over the rounds")
	benchFloor      = flag.String("bench.floor", "", "the brotli copy of go-app's smallest page (make floor's bin/floor.wasm.br): TestBenchSide and TestBenchFloor judge bytes against it")
)

// sideTarget is one page measured side by side.
type sideTarget struct {
	name string
	base string // http://127.0.0.1:PORT, the page at /
	// ready is a JavaScript expression, true once the page is
	// interactive (see sideTargets).
	ready string
	// chart is the selector of the chart (or the first result drawn),
	// control the selector of a control that must be there too, and root
	// the chart's container: the chart is on screen when the topmost
	// element at a point of it is inside root.
	chart, control, root string
	// kind picks the input script's way to change and watch the page.
	kind string
	// plan makes n inputs, in order, from the page as it opens.
	plan func(t *testing.T, n int) []sideInput
}

// sideInput is one timed input: the control (a slider's key on Headroom,
// a text field's label on the peer), the value it is set to, and a delay
// after a frame starts (a random phase, as a person's input arrives).
type sideInput struct {
	Key   string  `json:"key"`
	Value string  `json:"value"`
	Delay float64 `json:"delay"`
}

// sideTargets defines the two pages.
//
// Headroom is interactive when the WebAssembly side has rendered the
// explorer (data-ready="1") with its chart: from then on a slider input
// redraws it. Its chart on screen is #chart's <svg> with the rows slider.
//
// The peer's server HTML already holds its fields and the text of its
// first result (the total), but nothing responds to them until React has
// hydrated the page, and its chart (recharts, inside a ResponsiveContainer
// that draws only after it has measured itself in the browser) is drawn
// only after that. So the peer is interactive when its chart's <svg> is
// in the document and the Batch Size field carries React's props (the
// handlers that recompute the result on an input event: typing into it
// then changes the total); its chart on screen is that <svg>, with the
// fields. An input on the peer types a new number into Batch Size or
// Sequence Length (React's onChange listens to the input event) and its
// DOM figure is when the total's text changes; on Headroom it moves a
// slider and waits for #explorer's data-renders to pass its value.
func sideTargets(headroom, peer string) []sideTarget {
	return []sideTarget{
		{
			name: "Headroom", base: headroom, kind: "headroom",
			ready: readyExpr,
			chart: "#chart svg", control: "#slider-rows", root: "#chart",
			plan: func(t *testing.T, n int) []sideInput {
				var out []sideInput
				for _, p := range inputPlan(t, "", n) {
					out = append(out, sideInput{Key: p.Key, Value: strconv.Itoa(p.Pos), Delay: p.DelayMs})
				}
				return out
			},
		},
		{
			name: "peer", base: peer, kind: "peer",
			ready: `(() => {
				if (!document.querySelector('.recharts-wrapper svg.recharts-surface')) return false;
				const l = [...document.querySelectorAll('label')].find(l => l.textContent === 'Batch Size');
				const el = l && document.getElementById(l.htmlFor);
				return !!el && Object.keys(el).some(k => k.startsWith('__reactProps$'));
			})()`,
			chart: ".recharts-wrapper svg.recharts-surface", control: "input[type=text]", root: ".recharts-wrapper",
			plan: peerPlan,
		},
	}
}

// peerPlan types n new numbers into the peer's Batch Size (1 to 32) and
// Sequence Length (128 to 4096) fields, each different from the field's
// value before, so each input changes the total.
func peerPlan(t *testing.T, n int) []sideInput {
	rng := rand.New(rand.NewPCG(29, 4))
	cur := map[string]int{"Batch Size": 4, "Sequence Length": 512}
	lengths := []int{128, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096}
	var out []sideInput
	for len(out) < n {
		k, v := "Batch Size", 1+rng.IntN(32)
		if rng.IntN(2) == 0 {
			k, v = "Sequence Length", lengths[rng.IntN(len(lengths))]
		}
		if v == cur[k] {
			continue
		}
		cur[k] = v
		out = append(out, sideInput{Key: k, Value: strconv.Itoa(v), Delay: math.Round(rng.Float64()*16*100) / 100})
	}
	return out
}

// sideReadyScript runs in every new document before the page's own
// scripts. It notes __benchReadyAt (ms since navigation start) the first
// time the target's ready expression holds, checked on every DOM change
// and at every animation frame, and calls the __benchReadyCPU binding
// then (the harness reads the renderer's CPU time as the call arrives);
// and __benchChartPaintAt, when the frame in which the chart and the
// control were first on screen (the topmost element at a point of the
// chart inside its container) has painted, or the first contentful
// paint if that is later.
const sideReadyScript = `((readyFn, chartSel, controlSel, rootSel) => {
	const ready = () => { try { return readyFn(); } catch (e) { return false; } };
	const onScreen = () => {
		const svg = document.querySelector(chartSel);
		if (!svg || !document.querySelector(controlSel)) return false;
		const r = svg.getBoundingClientRect();
		if (r.width < 1 || r.height < 1 || r.top >= innerHeight) return false;
		const x = Math.min(innerWidth - 1, Math.max(0, r.left + r.width / 2));
		const y = Math.min(innerHeight - 1, Math.max(0, r.top + Math.min(r.height, innerHeight - r.top) / 2));
		const top = document.elementFromPoint(x, y);
		return !!top && !!top.closest(rootSel);
	};
	const noteReady = () => {
		if (window.__benchReadyAt !== undefined || !ready()) return;
		window.__benchReadyAt = performance.now();
		if (window.__benchReadyCPU) window.__benchReadyCPU('');
	};
	let painted = false;
	const frame = () => {
		noteReady();
		if (!painted && onScreen()) {
			painted = true;
			const ch = new MessageChannel();
			ch.port1.onmessage = () => {
				const fcp = performance.getEntriesByName('first-contentful-paint')[0];
				window.__benchChartPaintAt = Math.max(performance.now(), fcp ? fcp.startTime : 0);
			};
			ch.port2.postMessage(0);
		}
		if (!painted || window.__benchReadyAt === undefined) requestAnimationFrame(frame);
	};
	requestAnimationFrame(frame);
	new MutationObserver(noteReady).observe(document, {subtree: true, childList: true, attributes: true});
})(() => %s, %q, %q, %q)`

func (st sideTarget) script() string {
	return fmt.Sprintf(sideReadyScript, st.ready, st.chart, st.control, st.root)
}

// sideLoad is one cold load's figures.
type sideLoad struct {
	Ready      float64 `json:"ready"`      // interactive, ms since navigation start
	ChartPaint float64 `json:"chartPaint"` // the chart on screen, painted
	FCP        float64 `json:"fcp"`        // first contentful paint
	cpuMs      float64 // the renderer's CPU time at ready
	pss, uss   float64 // MB, benchSettle after ready
	domNodes   float64 // the document's nodes then (text and comments too)
	blinkGC    float64 // Blink's Nodes after a forced collection
}

// sideColdLoad loads the target's page in a new browser context (an
// empty cache, disabled too, and no service worker), and reads its
// figures: the times, the renderer's CPU at ready, and benchSettle later
// its memory and nodes.
func sideColdLoad(browser context.Context, st sideTarget) (sideLoad, error) {
	bctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	defer cancel()
	ctx, cancelT := context.WithTimeout(bctx, 2*time.Minute)
	defer cancelT()
	var sl sideLoad
	before, err := rendererCPU(ctx)
	if err != nil {
		return sl, err
	}
	atReady := make(chan map[int64]float64, 1)
	var once sync.Once
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventBindingCalled); ok && e.Name == "__benchReadyCPU" {
			once.Do(func() {
				go func() {
					m, _ := rendererCPU(ctx)
					atReady <- m
				}()
			})
		}
	}); err != nil {
		return sl, err
	}
	err = chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 800),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			if _, err := cdp.Call(ctx, tg, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
				return err
			}
			if _, err := cdp.Call(ctx, tg, runtime.AddBinding, runtime.AddBindingParams{Name: "__benchReadyCPU"}); err != nil {
				return err
			}
			_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: st.script()})
			return err
		}),
		chromedp.Navigate(st.base+"/"),
	)
	if err != nil {
		return sl, err
	}
	times, err := chromedp.Run(ctx, chromedp.Poll[sideLoad](`(() => {
		if (window.__benchReadyAt === undefined || window.__benchChartPaintAt === undefined) return null;
		const fcp = performance.getEntriesByName('first-contentful-paint')[0];
		return {ready: window.__benchReadyAt, chartPaint: window.__benchChartPaintAt, fcp: fcp ? fcp.startTime : NaN};
	})()`, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(90*time.Second)))
	if err != nil {
		last, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify({ready: window.__benchReadyAt, chart: window.__benchChartPaintAt, state: document.readyState})`))
		return sl, fmt.Errorf("%s: interactive and the chart on screen: %w (last: %s)", st.name, err, last)
	}
	sl.Ready, sl.ChartPaint, sl.FCP = times.Ready, times.ChartPaint, times.FCP
	var pid int64
	select {
	case m := <-atReady:
		var cpu float64
		pid, cpu = busiest(before, m)
		sl.cpuMs = cpu * 1e3
	case <-time.After(10 * time.Second):
		return sl, fmt.Errorf("%s: the ready binding was not called", st.name)
	}
	time.Sleep(benchSettle)
	n, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`(() => {
		let n = 0;
		const w = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
		while (w.nextNode()) n++;
		return n;
	})()`))
	if err != nil {
		return sl, err
	}
	sl.domNodes = n
	now, err := rendererCPU(ctx)
	if err != nil {
		return sl, err
	}
	if p, _ := busiest(before, now); p != pid {
		return sl, fmt.Errorf("%s: the busiest renderer was %d at ready, %d after", st.name, pid, p)
	}
	if sl.pss, sl.uss, err = pssMB(pid); err != nil {
		return sl, err
	}
	if err := collectGarbage(ctx); err != nil {
		return sl, err
	}
	err = chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, performance.Enable, performance.EnableParams{}); err != nil {
			return err
		}
		res, err := cdp.Call(ctx, tg, performance.GetMetrics, cdp.Empty{})
		for _, m := range res.Metrics {
			if m.Name == "Nodes" {
				sl.blinkGC = m.Value
			}
		}
		return err
	}))
	return sl, err
}

// byteCounter is a loopback proxy to a server that counts every byte it
// carries, both ways, headers included: what a visit moves on the wire.
type byteCounter struct {
	ln     net.Listener
	n      atomic.Int64
	target string
	wg     sync.WaitGroup
	mu     sync.Mutex
	conns  []net.Conn
}

func newByteCounter(target string) (*byteCounter, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	bc := &byteCounter{ln: ln, target: target}
	bc.wg.Add(1)
	go bc.serve()
	return bc, nil
}

func (bc *byteCounter) base() string { return "http://" + bc.ln.Addr().String() }

func (bc *byteCounter) serve() {
	defer bc.wg.Done()
	for {
		c, err := bc.ln.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", bc.target)
		if err != nil {
			c.Close()
			continue
		}
		bc.mu.Lock()
		bc.conns = append(bc.conns, c, up)
		bc.mu.Unlock()
		bc.wg.Add(2)
		// Each write is counted as it happens (countingConn), so the
		// count moves while keep-alive connections stay open.
		pipe := func(dst, src net.Conn) {
			defer bc.wg.Done()
			io.Copy(&countingConn{Conn: dst, n: &bc.n}, src)
			// The other direction ends too: a closed side ends the pair.
			dst.Close()
			src.Close()
		}
		go pipe(up, c)
		go pipe(c, up)
	}
}

// close stops the proxy and waits for its goroutines.
func (bc *byteCounter) close() {
	bc.ln.Close()
	bc.mu.Lock()
	for _, c := range bc.conns {
		c.Close()
	}
	bc.mu.Unlock()
	bc.wg.Wait()
}

// visits is a first visit's bytes on the wire and the next visit's time
// to interactive, in one browser context.
type visits struct {
	firstBytes  float64
	secondReady float64
}

// sideVisits opens the target's page through a byte-counting proxy in a
// new browser context (an empty cache, no service worker, the HTTP cache
// on, as a person's first visit), waits until it is interactive, any
// service worker it registered is activated, and no byte has moved for a
// second, and counts the bytes (the browser's requests and the answers);
// then visits the
// page again in the same context and times it to interactive.
func sideVisits(browser context.Context, st sideTarget) (visits, error) {
	var v visits
	host := strings.TrimPrefix(st.base, "http://")
	bc, err := newByteCounter(host)
	if err != nil {
		return v, err
	}
	defer bc.close()
	bctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	defer cancel()
	ctx, cancelT := context.WithTimeout(bctx, 2*time.Minute)
	defer cancelT()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: st.script()})
			return err
		}),
		chromedp.Navigate(bc.base()+"/")); err != nil {
		return v, err
	}
	settled := `(async () => {
		if (window.__benchReadyAt === undefined) return null;
		const reg = navigator.serviceWorker && await navigator.serviceWorker.getRegistration();
		if (reg && (!reg.active || reg.active.state !== 'activated' || reg.installing || reg.waiting)) return null;
		return window.__benchReadyAt;
	})()`
	if _, err := chromedp.Run(ctx, chromedp.Poll[float64](settled, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(90*time.Second))); err != nil {
		return v, fmt.Errorf("%s: first visit: %w", st.name, err)
	}
	last, quietSince := bc.n.Load(), time.Now()
	for deadline := time.Now().Add(30 * time.Second); time.Since(quietSince) < time.Second; {
		if time.Now().After(deadline) {
			return v, fmt.Errorf("%s: first visit: bytes still moving 30 s after it was interactive (%d)", st.name, last)
		}
		time.Sleep(100 * time.Millisecond)
		if n := bc.n.Load(); n != last {
			last, quietSince = n, time.Now()
		}
	}
	v.firstBytes = float64(last)
	if err := chromedp.Do(ctx, chromedp.Navigate(bc.base()+"/")); err != nil {
		return v, err
	}
	ready, err := chromedp.Run(ctx, chromedp.Poll[float64](`window.__benchReadyAt === undefined ? null : window.__benchReadyAt`,
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(90*time.Second)))
	if err != nil {
		return v, fmt.Errorf("%s: second visit: %w", st.name, err)
	}
	v.secondReady = ready
	return v, nil
}

// sideInputJS times each input of a plan on the page (as slideJS does on
// Headroom alone): after a frame and the input's delay, t0; set the
// control's value and dispatch 'input' as the browser does; dom = when
// the page's mark changed (a MutationObserver: right after the script
// that wrote the DOM); painted = a message posted then (from the next
// frame's callback when the DOM was written in the input's own task),
// which runs after that frame's style, layout and paint.
const sideInputJS = `(async (plan, kind) => {
	const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
	const pages = {
		headroom: {
			root: () => document.getElementById('explorer'),
			mark: () => document.getElementById('explorer').dataset.renders,
			watch: {attributes: true, attributeFilter: ['data-renders']},
			control: key => document.getElementById('slider-' + key),
		},
		peer: {
			total: () => [...document.querySelectorAll('p')].find(p => p.textContent.startsWith('Total VRAM usage is')),
			root() { return this.total().closest('ul') || document.body; },
			mark() { return this.total().textContent; },
			watch: {subtree: true, childList: true, characterData: true},
			control: key => {
				const l = [...document.querySelectorAll('label')].find(l => l.textContent === key);
				return l && document.getElementById(l.htmlFor);
			},
		},
	};
	const pg = pages[kind];
	const nextFrame = () => new Promise(r => requestAnimationFrame(r));
	const sleep = ms => new Promise(r => setTimeout(r, ms));
	const out = [];
	for (const [i, p] of plan.entries()) {
		await nextFrame();
		await sleep(p.delay);
		const el = pg.control(p.key);
		if (!el) throw new Error('no control ' + p.key);
		const root = pg.root();
		const was = pg.mark();
		const dom = new Promise((resolve, reject) => {
			const obs = new MutationObserver(() => {
				if (pg.mark() !== was) { obs.disconnect(); resolve(performance.now()); }
			});
			obs.observe(root, pg.watch);
			setTimeout(() => { obs.disconnect(); reject(new Error('input ' + i + ' (' + p.key + ' to ' + p.value + '): no change in 5 s')); }, 5000);
		});
		const t0 = performance.now();
		setValue.call(el, p.value);
		el.dispatchEvent(new Event('input', {bubbles: true}));
		const handled = performance.now();
		const tDom = await dom;
		const tPaint = await new Promise(r => {
			const post = () => {
				const ch = new MessageChannel();
				ch.port1.onmessage = () => r(performance.now());
				ch.port2.postMessage(0);
			};
			if (tDom - handled < 1) requestAnimationFrame(post); else post();
		});
		out.push({dom: tDom - t0, painted: tPaint - t0});
	}
	return out;
})(%s, %q)`

type sideTiming struct {
	DOM     float64 `json:"dom"`
	Painted float64 `json:"painted"`
}

// sideTab is a target's page open for the inputs, in a browser context
// of its own (so its renderer is its own: the CPU counted is its).
type sideTab struct {
	st     sideTarget
	ctx    context.Context
	cancel func()
	plan   []sideInput
	next   int
	dom    []float64
	paint  []float64
	cpu    float64 // s, over the timed inputs
}

func openSideTab(t *testing.T, browser context.Context, st sideTarget, warm, timed int) *sideTab {
	t.Helper()
	bctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	ctx, cancelT := context.WithTimeout(bctx, 10*time.Minute)
	tb := &sideTab{st: st, ctx: ctx, cancel: func() { cancelT(); cancel() }, plan: st.plan(t, warm+timed)}
	err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: st.script()})
			return err
		}),
		chromedp.Navigate(st.base+"/"))
	if err == nil {
		_, err = chromedp.Run(ctx, chromedp.Poll[float64](`window.__benchReadyAt === undefined ? null : window.__benchReadyAt`,
			chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(90*time.Second)))
	}
	if err != nil {
		tb.cancel()
		t.Fatalf("%s: opening the page for the inputs: %v", st.name, err)
	}
	if _, err := tb.run(warm); err != nil {
		tb.cancel()
		t.Fatalf("%s: warm-up inputs: %v", st.name, err)
	}
	return tb
}

// run brings the tab to the front (a tab behind others gets fewer
// animation frames) and sends its plan's next n inputs.
func (tb *sideTab) run(n int) ([]sideTiming, error) {
	if _, err := chromedp.Call(tb.ctx, cdppage.BringToFront, cdp.Empty{}); err != nil {
		return nil, err
	}
	js, _ := json.Marshal(tb.plan[tb.next : tb.next+n])
	tb.next += n
	res, err := chromedp.Run(tb.ctx, chromedp.Evaluate[[]sideTiming](fmt.Sprintf(sideInputJS, js, tb.st.kind), chromedp.EvalAwaitPromise))
	if err == nil && len(res) != n {
		err = fmt.Errorf("%d timings for %d inputs", len(res), n)
	}
	return res, err
}

// timed runs n inputs and adds their times and the renderer's CPU.
func (tb *sideTab) timed(n int) error {
	before, err := rendererCPU(tb.ctx)
	if err != nil {
		return err
	}
	res, err := tb.run(n)
	if err != nil {
		return err
	}
	after, err := rendererCPU(tb.ctx)
	if err != nil {
		return err
	}
	_, cpu := busiest(before, after)
	tb.cpu += cpu
	for _, r := range res {
		tb.dom, tb.paint = append(tb.dom, r.DOM), append(tb.paint, r.Painted)
	}
	return nil
}

// startPeer serves dir (the peer's folder) with its serve.py on a free
// loopback port and stops it when the test ends.
func startPeer(t *testing.T, dir string) string {
	t.Helper()
	script := filepath.Join(dir, "serve.py")
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("-bench.peer: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command("python3", script, "-addr", "127.0.0.1", "-port", strconv.Itoa(port))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the peer's server: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	var last error
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		select {
		case err := <-exited:
			t.Fatalf("the peer's server exited: %v", err)
		default:
		}
		resp, err := http.Get(base + "/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
			err = errors.New(resp.Status)
		}
		last = err
	}
	t.Fatalf("the peer's server at %s did not answer in 30 s: %v", base, last)
	return ""
}

// loadAvg is /proc/loadavg's first three fields: the machine is shared.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// sideFigure is one row of the side-by-side table.
type sideFigure struct {
	name, unit string
	h, p       float64
	goal       float64 // the ratio to stay at or under; 0: none
}

// ratio is Headroom's figure over the peer's.
func (f sideFigure) ratio() float64 { return f.h / f.p }

// sideTable formats the figures as a Markdown table.
func sideTable(figs []sideFigure) string {
	var b strings.Builder
	b.WriteString("| figure | Headroom | peer | ratio | goal |\n|---|---:|---:|---:|---|\n")
	num := func(v float64, unit string) string {
		switch {
		case math.IsNaN(v):
			return "?"
		case unit == "bytes" || unit == "nodes":
			return groupThousands(int64(math.Round(v)))
		case unit == "ms" && v >= 100:
			return groupThousands(int64(math.Round(v))) + " ms"
		default:
			return strconv.FormatFloat(v, 'f', 1, 64) + " " + unit
		}
	}
	for _, f := range figs {
		goal := ""
		if f.goal > 0 {
			verdict := "not met"
			if f.ratio() <= f.goal {
				verdict = "met"
			}
			goal = fmt.Sprintf("<= %gx: %s", f.goal, verdict)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %.2f | %s |\n", f.name, num(f.h, f.unit), num(f.p, f.unit), f.ratio(), goal)
	}
	return b.String()
}

func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// TestBenchSide measures Headroom (make wasm's build, served as serve
// serves it, brotli) and the peer (served by its serve.py) with the same
// harness, round by round, each round's order the last one's reversed:
// per round and page one cold load, one first visit and its second
// visit, and a share of the inputs. It prints the medians (the inputs'
// p50 and p95 over all rounds) with their ratios, and checks that each
// figure is a number: it asserts no time.
func TestBenchSide(t *testing.T) {
	if *benchPeer == "" {
		t.Fatal("-bench.peer names the peer's folder (make bench passes it when the folder exists)")
	}
	web := benchWebDir(t)
	hBase := benchStart(t, web)
	pBase := startPeer(t, *benchPeer)
	targets := sideTargets(hBase, pBase)
	loadStart := loadAvg()
	t.Logf("load average at the start: %s", loadStart)

	rounds := max(1, *benchSideLoads)
	loads := make([][]sideLoad, len(targets))
	vis := make([][]visits, len(targets))
	order := func(r int) []int {
		if r%2 == 0 {
			return []int{0, 1}
		}
		return []int{1, 0}
	}
	for r := range rounds {
		for _, i := range order(r) {
			sl, err := sideColdLoad(e2e.browser, targets[i])
			if err != nil {
				t.Fatalf("round %d: cold load: %v", r+1, err)
			}
			t.Logf("round %d, %s cold load: interactive %.0f ms, chart on screen %.0f, FCP %.0f, CPU to ready %.0f ms; PSS %.1f USS %.1f MB; DOM nodes %.0f, Blink nodes after a collection %.0f",
				r+1, targets[i].name, sl.Ready, sl.ChartPaint, sl.FCP, sl.cpuMs, sl.pss, sl.uss, sl.domNodes, sl.blinkGC)
			loads[i] = append(loads[i], sl)
		}
		for _, i := range order(r + 1) {
			v, err := sideVisits(e2e.browser, targets[i])
			if err != nil {
				t.Fatalf("round %d: visits: %v", r+1, err)
			}
			t.Logf("round %d, %s: first visit %.0f bytes on the wire; second visit interactive %.0f ms", r+1, targets[i].name, v.firstBytes, v.secondReady)
			vis[i] = append(vis[i], v)
		}
	}

	// The inputs: both pages open, each in its own browser context, the
	// timed inputs split over the rounds and sent in turn.
	per := max(1, *benchSideInputs/rounds)
	tabs := make([]*sideTab, len(targets))
	for i, st := range targets {
		tabs[i] = openSideTab(t, e2e.browser, st, *benchWarmup, per*rounds)
		defer tabs[i].cancel()
	}
	for r := range rounds {
		for _, i := range order(r) {
			if err := tabs[i].timed(per); err != nil {
				t.Fatalf("round %d, %s: inputs: %v", r+1, targets[i].name, err)
			}
		}
	}
	loadEnd := loadAvg()
	t.Logf("load average at the end: %s", loadEnd)

	med := func(i int, f func(sideLoad) float64) float64 {
		v := make([]float64, len(loads[i]))
		for k, l := range loads[i] {
			v[k] = f(l)
		}
		return percentile(v, 50)
	}
	medV := func(i int, f func(visits) float64) float64 {
		v := make([]float64, len(vis[i]))
		for k, l := range vis[i] {
			v[k] = f(l)
		}
		return percentile(v, 50)
	}
	fig := func(name, unit string, goal float64, f func(i int) float64) sideFigure {
		return sideFigure{name: name, unit: unit, h: f(0), p: f(1), goal: goal}
	}
	figs := []sideFigure{
		fig("interactive (cold load)", "ms", 0.8, func(i int) float64 { return med(i, func(l sideLoad) float64 { return l.Ready }) }),
		fig("chart on screen, painted", "ms", 0.3, func(i int) float64 { return med(i, func(l sideLoad) float64 { return l.ChartPaint }) }),
		fig("first contentful paint", "ms", 0, func(i int) float64 { return med(i, func(l sideLoad) float64 { return l.FCP }) }),
		fig("renderer CPU to ready", "ms", 0, func(i int) float64 { return med(i, func(l sideLoad) float64 { return l.cpuMs }) }),
		fig("first visit, bytes on the wire", "bytes", 0, func(i int) float64 { return medV(i, func(v visits) float64 { return v.firstBytes }) }),
		fig("second visit interactive", "ms", 0, func(i int) float64 { return medV(i, func(v visits) float64 { return v.secondReady }) }),
		fig("input to DOM p50", "ms", 0, func(i int) float64 { return percentile(tabs[i].dom, 50) }),
		fig("input to DOM p95", "ms", 0.5, func(i int) float64 { return percentile(tabs[i].dom, 95) }),
		fig("input to paint p50", "ms", 0, func(i int) float64 { return percentile(tabs[i].paint, 50) }),
		fig("input to paint p95", "ms", 0, func(i int) float64 { return percentile(tabs[i].paint, 95) }),
		fig("renderer CPU per input", "ms", 0.3, func(i int) float64 { return tabs[i].cpu * 1e3 / float64(len(tabs[i].dom)) }),
		fig("renderer PSS after load", "MB", 1.5, func(i int) float64 { return med(i, func(l sideLoad) float64 { return l.pss }) }),
		fig("renderer USS after load", "MB", 0, func(i int) float64 { return med(i, func(l sideLoad) float64 { return l.uss }) }),
		fig("DOM nodes after load", "nodes", 0, func(i int) float64 { return med(i, func(l sideLoad) float64 { return l.domNodes }) }),
		fig("Blink nodes after a collection", "nodes", 2, func(i int) float64 { return med(i, func(l sideLoad) float64 { return l.blinkGC }) }),
	}
	for _, f := range figs {
		if math.IsNaN(f.h) || math.IsNaN(f.p) || f.p == 0 {
			t.Errorf("%s: Headroom %v, peer %v: the harness did not measure it", f.name, f.h, f.p)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nSide by side (median of %d rounds, interleaved; inputs: %d timed on each page after %d not counted; load average %s at the start, %s at the end):\n\n",
		rounds, per*rounds, *benchWarmup, loadStart, loadEnd)
	b.WriteString(sideTable(figs))
	second := figs[5].h
	verdict := "not met"
	if second < 300 {
		verdict = "met"
	}
	fmt.Fprintf(&b, "\nsecond visit interactive under 300 ms: %.0f ms, %s\n", second, verdict)
	if *benchFloor != "" {
		floor, err := os.Stat(*benchFloor)
		if err != nil {
			t.Fatalf("-bench.floor: %v", err)
		}
		r := figs[4].h / float64(floor.Size())
		verdict := "not met"
		if r <= 1.4 {
			verdict = "met"
		}
		fmt.Fprintf(&b, "first visit over go-app's floor (%s bytes, brotli): %.2f (goal <= 1.4x: %s)\n", groupThousands(floor.Size()), r, verdict)
	}
	appendFigure(t, b.String())
}

// TestBenchFloor prints app.wasm's bytes over go-app's floor, both as
// brotli -q 11 (the floor: make floor's build of internal/tools/floor
// with app.wasm's toolchain, tags and flags).
//
//	make floor && go test -tags bench -run '^TestBenchFloor$' -v ./app/e2e -args -bench.floor=$PWD/bin/floor.wasm.br
func TestBenchFloor(t *testing.T) {
	if *benchFloor == "" {
		t.Fatal("-bench.floor names the floor's brotli file (make floor builds bin/floor.wasm.br)")
	}
	web := benchWebDir(t)
	size := func(p string) int64 {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	floorBr, floorRaw := size(*benchFloor), size(strings.TrimSuffix(*benchFloor, ".br"))
	appBr, appRaw := size(filepath.Join(web, "app.wasm.br")), size(filepath.Join(web, "app.wasm"))
	t.Logf("floor: %d bytes raw, %d brotli; app.wasm: %d raw, %d brotli; Headroom's own on the wire: %d bytes", floorRaw, floorBr, appRaw, appBr, appBr-floorBr)
	appendFigure(t, figure{"floor_wasm_brotli_bytes", float64(floorBr), "bytes"}.String()+"\n"+
		figure{"app_wasm_brotli_bytes", float64(appBr), "bytes"}.String()+"\n"+
		figure{"app_wasm_over_floor", round(float64(appBr)/float64(floorBr), 2), "x"}.String()+"\n")
}
