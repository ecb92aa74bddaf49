//go:build bench && !wasm

package e2e

// Where Blink's node count of a loaded page goes beyond the document's own
// nodes: the user agent's shadow trees (an <input>'s editor, a
// range's track and thumb, a <details>' slots), other documents, and nodes
// no longer in the document that a collection has not freed yet.

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/memory"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
)

// domTreeCount is the nodes of the tree DOM.getDocument returns with
// pierce (every shadow root, the user agent's too, template contents and
// pseudo-elements): in all, and those inside shadow roots.
type domTreeCount struct {
	all, inShadow, pseudo int
	shadowByHost          map[string]int // nodes in shadow trees, by the host's tag
}

func countDOMTree(n *cdp.Node, inShadow bool, host string, c *domTreeCount) {
	c.all++
	if inShadow {
		c.inShadow++
		c.shadowByHost[host]++
	}
	for _, ch := range n.Children {
		countDOMTree(ch, inShadow, host, c)
	}
	for _, sr := range n.ShadowRoots {
		h := host
		if !inShadow {
			h = n.LocalName
			if n.LocalName == "input" {
				for i := 0; i+1 < len(n.Attributes); i += 2 {
					if n.Attributes[i] == "type" {
						h += "[" + n.Attributes[i+1] + "]"
					}
				}
			}
		}
		countDOMTree(sr, true, h, c)
	}
	if n.TemplateContent != nil {
		countDOMTree(n.TemplateContent, inShadow, host, c)
	}
	if n.ContentDocument != nil {
		countDOMTree(n.ContentDocument, inShadow, host, c)
	}
	for _, p := range n.PseudoElements {
		c.pseudo++
		countDOMTree(p, inShadow, host, c)
	}
}

// keepGoScript keeps the page's Go instance (wasm_exec.js's Go class, set
// on globalThis) as window.__benchGo, so the test can read its table of
// the JavaScript values Go holds (_values).
const keepGoScript = `(() => {
	let G;
	Object.defineProperty(globalThis, 'Go', {configurable: true, get() { return G; }, set(cls) {
		G = class extends cls { run(inst) { window.__benchGo = this; return super.run(inst); } };
	}});
})()`

// heldByGo counts the nodes in Go's table of values (a js.Value Go still
// holds: its collector has not yet found it unreachable and run its
// finalizer) that are not in the document, and the trees they root.
const heldByGo = `(() => {
	const go = window.__benchGo;
	if (!go || !go._values) return {values: -1};
	const roots = new Map();
	let nodes = 0, detached = 0;
	const held = [];
	for (const v of go._values) {
		if (!(v instanceof Node)) continue;
		nodes++;
		if (v.isConnected) continue;
		detached++;
		held.push(v.nodeName + (v.id ? '#' + v.id : ''));
		let r = v;
		while (r.parentNode) r = r.parentNode;
		if (!roots.has(r)) {
			let n = 1;
			const w = document.createTreeWalker(r, NodeFilter.SHOW_ALL);
			while (w.nextNode()) n++;
			roots.set(r, n);
		}
	}
	let rootNodes = 0;
	const largest = [];
	for (const [r, n] of roots) {
		rootNodes += n;
		largest.push(n + ' ' + (r.nodeName + (r.id ? '#' + r.id : '') + (r.className && r.className.baseVal === undefined ? '.' + r.className : '')));
	}
	largest.sort((a, b) => parseInt(b) - parseInt(a));
	return {values: go._values.length, nodes, detached, roots: roots.size, rootNodes, largest: largest.slice(0, 8), held};
})()`

// dropDetached clears Go's table's entries for nodes outside the document
// (the test's experiment, after the figures are read: the page's Go may
// not use them again).
const dropDetached = `(() => {
	const go = window.__benchGo;
	let n = 0;
	go._values.forEach((v, i) => { if (v instanceof Node && !v.isConnected) { go._values[i] = null; go._ids.delete(v); n++; } });
	return n;
})()`

// notShown counts the chart's SVG nodes and the document's nodes that are
// drawn but not rendered (no layout box: display none or inside such an
// element), by the outermost such element, and the text nodes that are
// empty or white space only, by their parent.
const notShown = `(() => {
	const count = el => { let n = 1; const w = document.createTreeWalker(el, NodeFilter.SHOW_ALL); while (w.nextNode()) n++; return n; };
	const svg = document.querySelector('#chart svg');
	const byRoot = {};
	let hidden = 0;
	const walk = el => {
		for (const c of el.children) {
			if (c.tagName === 'HEAD' || c.tagName === 'SCRIPT' || c.tagName === 'STYLE' || c.tagName === 'TEMPLATE') continue;
			if (getComputedStyle(c).display === 'none') {
				const n = count(c);
				hidden += n;
				const k = c.tagName.toLowerCase() + (c.id ? '#' + c.id : c.className && typeof c.className === 'string' ? '.' + c.className.split(' ')[0] : '');
				byRoot[k] = (byRoot[k] || 0) + n;
			} else walk(c);
		}
	};
	walk(document.body);
	const blank = {};
	let blankText = 0;
	const tw = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	while (tw.nextNode()) {
		const n = tw.currentNode;
		if (n.data.trim() !== '') continue;
		blankText++;
		const p = n.parentNode;
		const k = (n.data === '' ? 'empty ' : 'space ') + p.nodeName.toLowerCase() + (p.className && typeof p.className === 'string' ? '.' + p.className.split(' ')[0] : '');
		blank[k] = (blank[k] || 0) + 1;
	}
	return {svg: svg ? count(svg) : 0, svgElements: svg ? 1 + svg.getElementsByTagName('*').length : 0, hidden, byRoot, blankText, blank};
})()`

type shownNodes struct {
	SVG         int            `json:"svg"`
	SVGElements int            `json:"svgElements"`
	Hidden      int            `json:"hidden"`
	ByRoot      map[string]int `json:"byRoot"`
	BlankText   int            `json:"blankText"` // text nodes empty or of white space only
	Blank       map[string]int `json:"blank"`     // those by their parent
}

type heldNodes struct {
	Values    int      `json:"values"`
	Nodes     int      `json:"nodes"`
	Detached  int      `json:"detached"`
	Roots     int      `json:"roots"`
	RootNodes int      `json:"rootNodes"`
	Largest   []string `json:"largest"`
	Held      []string `json:"held"` // the values outside the document
}

// nodeCounts is one reading of the tab's node counters.
type nodeCounts struct {
	metricsNodes, metricsDocs float64 // Performance.getMetrics' Nodes, Documents
	dom                       *memory.GetDOMCountersResult
}

func (n nodeCounts) String() string {
	return fmt.Sprintf("Performance.getMetrics Nodes %.0f (documents %.0f), Memory.getDOMCounters nodes %d (documents %d, JS event listeners %d)",
		n.metricsNodes, n.metricsDocs, n.dom.Nodes, n.dom.Documents, n.dom.JsEventListeners)
}

func readNodeCounts(ctx context.Context) (nodeCounts, error) {
	var nc nodeCounts
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, performance.Enable, performance.EnableParams{}); err != nil {
			return err
		}
		res, err := cdp.Call(ctx, tg, performance.GetMetrics, cdp.Empty{})
		if err != nil {
			return err
		}
		for _, m := range res.Metrics {
			switch m.Name {
			case "Nodes":
				nc.metricsNodes = m.Value
			case "Documents":
				nc.metricsDocs = m.Value
			}
		}
		d, err := cdp.Call(ctx, tg, memory.GetDOMCounters, cdp.Empty{})
		nc.dom = &d
		return err
	}))
	return nc, err
}

// TestBenchNodes loads the page cold, waits benchSettle, and logs Blink's
// node counters, the document's nodes, the nodes of its shadow trees, and
// the counters after forced collections: what the renderer's count is made
// of.
func TestBenchNodes(t *testing.T) {
	web := benchWebDir(t)
	base := benchStart(t, web)
	ctx, cancel := chromedp.NewContext(e2e.browser, chromedp.WithNewBrowserContext())
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: keepGoScript})
		return err
	})); err != nil {
		t.Fatal(err)
	}
	_, lf, err := measuredColdLoad(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("document: %d elements, %d nodes (TreeWalker); by part: %v", lf.census.Elements, lf.census.All, lf.census.Parts)
	t.Logf("make bench's figures: renderer_nodes_after_load %.0f, renderer_nodes_after_gc %.0f", lf.metrics["Nodes"], lf.nodesAfterGC)
	before, err := readNodeCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("after measuredColdLoad's forced collection: %v", before)
	var tree *cdp.Node
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		depth, pierce := int64(-1), true
		res, err := cdp.Call(ctx, tg, dom.GetDocument, dom.GetDocumentParams{Depth: &depth, Pierce: &pierce})
		tree = res.Root
		return err
	})); err != nil {
		t.Fatal(err)
	}
	c := domTreeCount{shadowByHost: map[string]int{}}
	countDOMTree(tree, false, "", &c)
	t.Logf("DOM.getDocument (pierce): %d nodes, %d of them in shadow trees, %d pseudo-elements; shadow-tree nodes by host: %v", c.all, c.inShadow, c.pseudo, c.shadowByHost)
	var seen shownNodes
	if err := func() (err error) { seen, err = chromedp.Run(ctx, chromedp.Evaluate[shownNodes](notShown)); return err }(); err != nil {
		t.Fatal(err)
	}
	t.Logf("the chart's SVG: %d nodes (%d elements); nodes not rendered (display none, under a hidden or closed part): %d, by their outermost such element: %v",
		seen.SVG, seen.SVGElements, seen.Hidden, seen.ByRoot)
	t.Logf("text nodes empty or of white space only: %d, by their parent: %v", seen.BlankText, seen.Blank)
	var held heldNodes
	if err := func() (err error) { held, err = chromedp.Run(ctx, chromedp.Evaluate[heldNodes](heldByGo)); return err }(); err != nil {
		t.Fatal(err)
	}
	t.Logf("Go's table of JavaScript values: %d values, %d of them nodes, %d of those outside the document, in %d trees of %d nodes in all (TreeWalker; their user agent shadow trees not counted); the largest roots: %v; the values: %v",
		held.Values, held.Nodes, held.Detached, held.Roots, held.RootNodes, held.Largest, held.Held)
	if err := collectGarbage(ctx); err != nil {
		t.Fatal(err)
	}
	afterGC, err := readNodeCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("after a forced collection (HeapProfiler.collectGarbage): %v", afterGC)
	// The experiment: Go's table let go of the nodes outside the document
	// (what Go's collector would do once it found their js.Values
	// unreachable), and V8 collects again.
	var dropped int
	if err := func() (err error) { dropped, err = chromedp.Run(ctx, chromedp.Evaluate[int](dropDetached)); return err }(); err != nil {
		t.Fatal(err)
	}
	if err := collectGarbage(ctx); err != nil {
		t.Fatal(err)
	}
	after, err := readNodeCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("after Go's table dropped its %d values outside the document and a forced collection: %v", dropped, after)
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		res, err := cdp.Call(ctx, tg, memory.GetDOMCountersForLeakDetection, cdp.Empty{})
		for _, dc := range res.Counters {
			t.Logf("Memory.getDOMCountersForLeakDetection: %s %d", dc.Name, dc.Count)
		}
		return err
	})); err != nil {
		t.Logf("Memory.getDOMCountersForLeakDetection: %v", err)
	}
}
