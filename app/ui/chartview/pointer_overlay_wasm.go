//go:build wasm

package chartview

import (
	"headroom/app/ui/browser"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The overlay's drawing: the crosshair, the read-out, a drag's selection,
// the bands' and lines' labels, and the read-outs prefetched in idle time.

// showAt shows the read-out at x, measuring the page first.
func (p *chartPointer) showAt(v *Drawing, x int64) {
	if g := p.geometry(v); g.ok {
		p.show(v, g, x)
	}
}

// show puts the crosshair at x and the read-out beside it.
func (p *chartPointer) show(v *Drawing, g geometry, x int64) {
	cx := g.cssX(v.frame.XToPixel(float64(x)))
	els := &p.els
	els.crossStyle.Set("transform", "translateX("+px(cx)+")")
	if !p.shown || p.shownX != x {
		r := v.readoutAt(x)
		els.readoutData.Set("x", strconv.FormatInt(x, 10))
		els.x.Set("textContent", r.XText)
		for i := range els.rev {
			els.rev[i].Set("textContent", r.Texts[i])
			els.revData[i].Set("readout", r.Data[i])
		}
	}
	// Beside the crosshair, on the side with more room: a transform, so
	// its width is never read.
	if cx < g.chartW/2 {
		els.readoutStyle.Set("transform", "translateX("+px(cx+12)+")")
	} else {
		els.readoutStyle.Set("transform", "translateX(calc("+px(cx-12)+" - 100%))")
	}
	if !p.shown {
		els.cross.Set("hidden", false)
		els.readout.Set("hidden", false)
	}
	p.shown, p.shownX = true, x
}

func (p *chartPointer) hide() {
	if !p.shown {
		return
	}
	p.shown = false
	p.els.cross.Set("hidden", true)
	p.els.readout.Set("hidden", true)
}

// overlayEls are the overlay's elements, looked up after each render.
type overlayEls struct {
	cross, crossStyle                  app.Value
	readout, readoutStyle, readoutData app.Value
	x                                  app.Value
	rev, revData                       [2]app.Value
}

func lookupEls() overlayEls {
	byID := app.Window().GetElementByID
	e := overlayEls{cross: byID("chart-crosshair"), readout: byID("chart-readout"), x: byID("readout-x")}
	e.crossStyle = e.cross.Get("style")
	e.readoutStyle, e.readoutData = e.readout.Get("style"), e.readout.Get("dataset")
	for i, id := range [2]string{"readout-baseline", "readout-candidate"} {
		e.rev[i] = byID(id)
		e.revData[i] = e.rev[i].Get("dataset")
	}
	return e
}

func (p *chartPointer) showSelection(v *Drawing, g geometry, a, b float64) {
	if a > b {
		a, b = b, a
	}
	a, b = max(a, v.frame.Plot.Left), min(b, v.frame.Plot.Right)
	sel := p.byID("chart-selection")
	st := sel.Get("style")
	st.Set("left", px(g.cssX(a)))
	st.Set("width", px((b-a)/g.sx))
	st.Set("top", px(g.cssY(v.frame.Plot.Top)))
	st.Set("height", px((v.frame.Plot.Bottom-v.frame.Plot.Top)/g.sy))
	sel.Set("hidden", false)
}

func (p *chartPointer) hideSelection() { p.byID("chart-selection").Set("hidden", true) }

// layoutBands labels, with the chart's geometry g, the candidate's decision bands wide enough to hold
// a word, so the bands read without their colours.
func (p *chartPointer) layoutBands(v *Drawing, g geometry) {
	box := p.byID("chart-bands")
	if !box.Truthy() {
		return
	}
	box.Set("textContent", "")
	if !g.ok {
		return
	}
	doc := app.Window().Get("document")
	for _, b := range v.frame.Bands {
		x0, x1 := g.cssX(v.frame.XToPixel(b.X0)), g.cssX(v.frame.XToPixel(b.X1))
		if x1-x0 < 48 {
			continue
		}
		el := doc.Call("createElement", "span")
		el.Set("className", "chart-band-label band-"+b.Decision.String())
		el.Set("textContent", b.Decision.String())
		st := el.Get("style")
		st.Set("left", px((x0+x1)/2))
		st.Set("top", px(g.cssY(v.frame.Plot.Bottom)-4))
		box.Call("appendChild", el)
	}
	// Each line's name where it ends, inside the plot's right edge, above
	// the band labels' row (lineLabelTops); a name moved off its line's
	// end is joined to it by a leader.
	f := v.frame
	lines := f.Lines[:shownLineLabels(len(f.Lines), g.chartW, g.cssY(f.Plot.Top), g.cssY(f.Plot.Bottom))]
	ends := make([]float64, len(lines))
	for i, l := range lines {
		ends[i] = g.cssY(f.YToPixel(l.Y))
	}
	ys := lineLabelTops(ends, g.cssY(f.Plot.Top), g.cssY(f.Plot.Bottom))
	for i, l := range lines {
		x := g.cssX(f.XToPixel(l.X))
		el := doc.Call("createElement", "span")
		el.Set("className", "chart-line-label")
		el.Set("textContent", l.Label)
		ds := el.Get("dataset")
		ds.Set("index", i)
		ds.Set("end", strconv.FormatFloat(ends[i], 'f', 1, 64))
		st := el.Get("style")
		st.Set("left", px(x-leaderRoom))
		st.Set("top", px(ys[i]))
		box.Call("appendChild", el)
		if top, h, ok := leaderSpan(ends[i], ys[i]); ok {
			ld := doc.Call("createElement", "span")
			ld.Set("className", "chart-line-leader")
			ld.Get("dataset").Set("for", i)
			ls := ld.Get("style")
			ls.Set("left", px(x-leaderRoom/2))
			ls.Set("top", px(top))
			ls.Set("height", px(h))
			box.Call("appendChild", ld)
		}
	}
}

// prefetchQuiet is how long, in ms, the page must have drawn nothing
// before the prefetch starts: while a slider moves, every drawing would
// start it again, and its work would compete with the renders.
const prefetchQuiet = 250

// prefetchSlice is the most time, in ms, one callback of the prefetch
// takes, whatever idle time the browser offers: an input arriving then
// waits at most that long.
const prefetchSlice = 4

// prefetch reads out every x the pointer can snap to while the browser
// is idle, a few milliseconds at a time, so that a pointer move finds its
// read-out ready rather than pricing an estimate (the one costly step of
// a move). A new drawing starts it again, once the page is quiet. One
// chain of callbacks runs at a time (preDue), and only while a pointer is
// over the chart (over): pricing every x after each edit cost more CPU
// than the edit's own render (make bench's side-by-side run,
// BENCHMARKS.md), for the read-outs of a chart that most edits never
// point at, where one move prices its own x in well under a frame. The
// pointer's arrival starts the chain at once; it stops when the pointer
// leaves, and goes on from where it was when it comes back.
func (p *chartPointer) prefetch(v *Drawing) {
	p.pre, p.preFor = 0, v
	p.preAfter = browser.NowMs() + prefetchQuiet
	if p.idle == nil {
		p.idle = app.FuncOf(func(this app.Value, args []app.Value) any {
			defer p.pt.catch("reading the chart out ahead")
			p.preDue = false
			v := p.preFor
			// p.el is nil once the chart has gone (Two inputs): a callback
			// asked for before then finds nothing to read out for.
			if v == nil || p.el == nil || v != p.pt.view.Load() || p.pre >= len(v.snaps) || !p.over {
				return nil
			}
			start := browser.NowMs()
			if start < p.preAfter {
				p.schedulePrefetch()
				return nil
			}
			// The idle period's own deadline, and at most prefetchSlice.
			deadline := app.Value(nil)
			if len(args) > 0 && args[0].Truthy() && args[0].Get("timeRemaining").Truthy() {
				deadline = args[0]
			}
			left := func() bool {
				if deadline != nil && deadline.Call("timeRemaining").Float() <= 1 {
					return false
				}
				return browser.NowMs()-start < prefetchSlice
			}
			for p.pre < len(v.snaps) && left() {
				v.readoutAt(v.snaps[p.pre])
				p.pre++
			}
			p.el.Get("dataset").Set("prefetched", p.pre)
			if p.pre < len(v.snaps) {
				p.schedulePrefetch()
			}
			return nil
		})
	}
	if p.over {
		p.schedulePrefetch()
	}
}

// schedulePrefetch asks for the prefetch's next callback, unless one is
// asked for: after the quiet time if it is not over, else when the
// browser is idle (in a timeout where requestIdleCallback is missing).
func (p *chartPointer) schedulePrefetch() {
	if p.preDue {
		return
	}
	p.preDue = true
	w := app.Window()
	if wait := p.preAfter - browser.NowMs(); wait > 0 {
		w.Call("setTimeout", p.idle, wait)
	} else if w.Get("requestIdleCallback").Truthy() {
		w.Call("requestIdleCallback", p.idle, map[string]any{"timeout": 500})
	} else {
		w.Call("setTimeout", p.idle, 20)
	}
}
