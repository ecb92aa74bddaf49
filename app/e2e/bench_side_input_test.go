//go:build bench && !wasm

package e2e

// The side-by-side run's inputs: each page open in a browser context of
// its own, its inputs timed to the DOM and to paint, and its renderer's
// CPU counted.

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// sideInputJS times each input of a plan on the page (as slideJS does on
// Headroom alone): after a frame and the input's delay, t0; set the
// control's value and dispatch 'input' as the browser does; dom = when
// the page's mark changed (a MutationObserver: right after the script
// that wrote the DOM); painted = a message posted then (from the next
// frame's callback when the DOM was written in the input's own task),
// which runs after that frame's style, layout and paint. Then it waits
// for the page to settle: no change anywhere in the document for
// sideQuietMs (the peer animates its chart for a while after each edit),
// so each input is an edit of its own, as a person makes one in a field,
// and the renderer's CPU over the inputs is all the work they caused;
// settled = the input's last DOM change.
const sideInputJS = `(async (plan, kind, quietMs) => {
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
	let lastChange = performance.now();
	new MutationObserver(() => { lastChange = performance.now(); })
		.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
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
		while (performance.now() - lastChange < quietMs && performance.now() - t0 < 10000) await sleep(25);
		out.push({dom: tDom - t0, painted: tPaint - t0, settled: Math.max(tDom, lastChange) - t0});
	}
	return out;
})(%s, %q, %d)`

// sideQuietMs is how long the page must make no change to be settled
// after an input.
const sideQuietMs = 300

type sideTiming struct {
	DOM     float64 `json:"dom"`
	Painted float64 `json:"painted"`
	Settled float64 `json:"settled"` // the input's last DOM change
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
	settle []float64
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
	res, err := chromedp.Run(tb.ctx, chromedp.Evaluate[[]sideTiming](fmt.Sprintf(sideInputJS, js, tb.st.kind, sideQuietMs), chromedp.EvalAwaitPromise))
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
		tb.dom, tb.paint, tb.settle = append(tb.dom, r.DOM), append(tb.paint, r.Painted), append(tb.settle, r.Settled)
	}
	return nil
}
