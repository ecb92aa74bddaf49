//go:build bench && !wasm

package e2e

// The side-by-side run's loads: a cold load's times, CPU, memory and
// nodes; a first visit's bytes on the wire (through a counting proxy) and
// the second visit's time to interactive.

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

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
// then visits the page again in the same context and times it to
// interactive.
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
