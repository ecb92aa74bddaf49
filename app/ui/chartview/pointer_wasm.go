//go:build wasm

package chartview

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
)

// chartPointer is the overlay's browser side: listeners on #chart,
// registered with addEventListener, so a pointer move runs at once in the
// event, on no go-app update. It writes the overlay's few elements
// directly (positions through the CSSOM, which the page's CSP allows;
// texts through textContent). Edits (a click, a drag, a key) go to the
// explorer on go-app's UI goroutine, like a control's.
type chartPointer struct {
	pt          *Pointer
	el          app.Value // #chart
	funcs       []app.Func
	down        bool    // a primary button or a touch is down on the plot
	downX       float64 // where, in SVG x
	drag        bool    // it moved far enough to be a drag
	dragged     bool    // a drag just ended: its click is no click
	beforeClick int64   // the value before the last click (a double click restores it)
	clicked     bool    // beforeClick holds a value
	touch       bool    // the last pointer was a touch
	cur         int64   // the value the keys move from
	shown       bool    // the read-out is showing
	// Where the mouse last was over the chart, in client pixels: after a
	// drag-zoom (or any new drawing) the read-out is the x under it in
	// the new mapping, not the old x the drawing before had there. ptrIn is false
	// once it left, or the keys moved the read-out.
	ptrX, ptrY float64
	ptrIn      bool
	shownX     int64
	geo        geometry // measured once, kept until a render, a scroll or a resize
	els        overlayEls
	idle       app.Func // the prefetch's idle callback
	pre        int      // the snaps of the view read out so far
	preFor     *Drawing
	preDue     bool       // a callback of the prefetch is asked for
	preAfter   float64    // the prefetch waits until then (browser.NowMs): the page is drawing
	over       bool       // a pointer is over the chart: the prefetch may run
	overlayDue bool       // a drawing's overlay is not laid out yet (layoutOverlay)
	rel        geometry   // the last geometry measured for the overlay (overlayGeometry)
	relKey     overlayKey // the sizes it was measured at
	resizeObs  app.Value  // a ResizeObserver of #chart
	resizeFn   app.Func
	win        []app.Func
}

// dragMin is how far, in CSS pixels, a press must move to be a drag.
const dragMin = 5

// install registers the chart's listeners, once #chart exists.
func (pt *Pointer) install() {
	p := &pt.p
	if p.el != nil {
		if p.el.Get("isConnected").Bool() {
			return
		}
		pt.Release() // go-app drew #chart anew: listen to the new one
	}
	el := app.Window().GetElementByID("chart")
	if !el.Truthy() {
		return
	}
	p.pt, p.el = pt, el
	on := func(name string, h func(e app.Value)) {
		f := app.FuncOf(func(this app.Value, args []app.Value) any {
			defer pt.catch("following the pointer over the chart")
			h(args[0])
			return nil
		})
		p.funcs = append(p.funcs, f)
		el.Call("addEventListener", name, f)
	}
	// A pointer move reads no layout: the boxes are measured when the
	// pointer enters, and again after a render, a scroll or a resize.
	stale := func(app.Value) { p.geo.ok = false }
	for _, name := range []string{"scroll", "resize"} {
		f := app.FuncOf(func(this app.Value, args []app.Value) any { stale(nil); return nil })
		p.win = append(p.win, f)
		app.Window().Call("addEventListener", name, f, map[string]any{"capture": true, "passive": true})
	}
	// #chart's width can change with no resize of the window (a scroll
	// bar appears, a panel beside it grows): the overlay's geometry and
	// the chart's drawing follow it.
	if ro := app.Window().Get("ResizeObserver"); ro.Truthy() {
		p.resizeFn = pt.uiFunc("following the chart's width", func() {
			p.geo.ok, p.rel.ok = false, false
			pt.Host.Resized()
		})
		p.resizeObs = ro.New(p.resizeFn)
		p.resizeObs.Call("observe", el)
	}
	on("pointerenter", func(e app.Value) {
		stale(e)
		p.preAfter = 0 // the pointer is here: read out ahead without waiting for quiet
		p.touch = e.Get("pointerType").String() == "touch"
		p.over = true
		if p.idle != nil {
			p.schedulePrefetch()
		}
	})
	on("pointermove", p.onMove)
	on("pointerdown", p.onDown)
	on("pointerup", p.onUp)
	on("pointercancel", func(app.Value) { p.down, p.drag = false, false; p.hideSelection() })
	on("pointerleave", func(app.Value) {
		p.ptrIn, p.over = false, false
		if !p.down && !p.touch {
			p.hide()
		}
	})
	on("click", p.onClick)
	on("dblclick", p.onDouble)
	on("keydown", p.onKey)
	on("focus", func(app.Value) {
		// Focused from the keyboard: read out the current value at once.
		if v := pt.view.Load(); v != nil && !p.down && p.el.Call("matches", ":focus-visible").Bool() {
			p.showAt(v, p.cur)
		}
	})
	on("blur", func(app.Value) {
		if !p.down {
			p.hide()
		}
	})
}

// Release removes the listeners.
func (pt *Pointer) Release() {
	p := &pt.p
	for _, f := range p.funcs {
		f.Release()
	}
	for i, f := range p.win {
		app.Window().Call("removeEventListener", [...]string{"scroll", "resize"}[i], f, map[string]any{"capture": true})
		f.Release()
	}
	if p.resizeObs != nil {
		p.resizeObs.Call("disconnect")
		p.resizeFn.Release()
		p.resizeObs, p.resizeFn = nil, nil
	}
	p.funcs, p.win, p.el, p.over = nil, nil, nil, false
}

// AfterRender takes a new drawing: the pointer's listeners, the mapping
// for the tests, and the prefetch; LayoutOverlay lays it out.
func (pt *Pointer) AfterRender() {
	pt.install()
	p := &pt.p
	v := pt.view.Load()
	if v == nil || p.el == nil {
		return
	}
	p.cur = v.current
	p.geo.ok = false
	// The mapping, for the browser tests to aim the pointer with.
	ds, f := p.el.Get("dataset"), v.frame
	for k, n := range map[string]float64{"plotLeft": f.Plot.Left, "plotRight": f.Plot.Right, "plotTop": f.Plot.Top,
		"plotBottom": f.Plot.Bottom, "xmin": f.XMin, "xmax": f.XMax, "viewWidth": f.Width, "viewHeight": f.Height} {
		ds.Set(k, strconv.FormatFloat(n, 'g', -1, 64))
	}
	p.els = lookupEls()
	p.overlayDue = true
	p.prefetch(v)
}

// LayoutOverlay lays out what the overlay shows of the last drawing, if
// it is not laid out yet: the bands' labels, the crosshair's height, and
// the read-out again where it was (the values at x may have changed). It
// reads the layout, so it runs at the start of an animation frame, where
// the browser lays the page out anyway.
func (pt *Pointer) LayoutOverlay() {
	p := &pt.p
	v := pt.view.Load()
	if !p.overlayDue || v == nil || p.el == nil {
		return
	}
	p.overlayDue = false
	g := p.overlayGeometry(v)
	p.layoutBands(v, g)
	if g.ok {
		top, bottom := g.cssY(v.frame.Plot.Top), g.cssY(v.frame.Plot.Bottom)
		p.els.crossStyle.Set("top", px(top))
		p.els.crossStyle.Set("height", px(bottom-top))
		p.els.readoutStyle.Set("top", px(top+4))
	}
	if p.shown {
		p.shown = false // write the read-out again: the values at x may differ
		if p.ptrIn && !p.touch {
			// The mouse is over the chart: read out what is under it now
			// (this is the frame's start, where a layout read costs
			// nothing more).
			if g := p.geometry(v); g.ok {
				x, y := (p.ptrX-g.left)*g.sx, (p.ptrY-g.top)*g.sy
				if x >= v.frame.Plot.Left-0.5 && x <= v.frame.Plot.Right+0.5 && y >= v.frame.Plot.Top && y <= v.frame.Plot.Bottom {
					p.show(v, g, v.snap(min(max(x, v.frame.Plot.Left), v.frame.Plot.Right)))
				} else {
					p.hide()
				}
				return
			}
		}
		p.showAt(v, p.shownX)
	}
}

// geometry is the SVG's box and the chart's, for one event.
type geometry struct {
	sx, sy     float64 // SVG units per CSS pixel
	offX, offY float64 // the SVG's top left, in CSS pixels from #chart's padding box
	left, top  float64 // the SVG's client position
	chartW     float64
	svgW, svgH float64
	ok         bool
	view       *Drawing // the chart measured
}

// overlayGeometry is the chart's geometry for laying the overlay out: its
// scale and its offset in #chart, which stay the same while the drawing's
// size and #chart's width do (the SVG is as wide as #chart, its height
// follows), so a new drawing of the same size is laid out with the last
// measurement, reading no layout. Its client position (left, top) may be
// stale: pointer events measure with geometry.
func (p *chartPointer) overlayGeometry(v *Drawing) geometry {
	k := overlayKey{v.frame.Width, v.frame.Height, p.pt.Host.Width()}
	if p.rel.ok && p.relKey == k {
		g := p.rel
		g.view = v
		return g
	}
	g := p.geometry(v)
	p.rel, p.relKey = g, k
	return g
}

// overlayKey is what the overlay's geometry depends on.
type overlayKey struct {
	w, h   float64 // the drawing's size, in SVG units
	chartW int     // #chart's width, in CSS pixels
}

// geometry is the boxes of the chart on screen, measured at most once
// between a render, a scroll or a resize and the next.
func (p *chartPointer) geometry(v *Drawing) geometry {
	if !p.geo.ok || p.geo.view != v {
		p.geo = p.measure(v)
	}
	return p.geo
}

// measure reads the SVG's and the chart's boxes (a layout read).
func (p *chartPointer) measure(v *Drawing) geometry {
	svg := p.el.Call("querySelector", "svg")
	if !svg.Truthy() {
		return geometry{}
	}
	r, cr := svg.Call("getBoundingClientRect"), p.el.Call("getBoundingClientRect")
	w, h := r.Get("width").Float(), r.Get("height").Float()
	if w <= 0 || h <= 0 {
		return geometry{}
	}
	g := geometry{view: v, sx: v.frame.Width / w, sy: v.frame.Height / h, left: r.Get("left").Float(), top: r.Get("top").Float(),
		chartW: cr.Get("width").Float(), svgW: w, svgH: h, ok: true}
	g.offX = g.left - cr.Get("left").Float() - p.el.Get("clientLeft").Float()
	g.offY = g.top - cr.Get("top").Float() - p.el.Get("clientTop").Float()
	return g
}

// svgPoint is the event's position in SVG units.
func (g geometry) svgPoint(e app.Value) (float64, float64) {
	return (e.Get("clientX").Float() - g.left) * g.sx, (e.Get("clientY").Float() - g.top) * g.sy
}

// css is an SVG x (or y) in CSS pixels from #chart's padding box.
func (g geometry) cssX(x float64) float64 { return g.offX + x/g.sx }
func (g geometry) cssY(y float64) float64 { return g.offY + y/g.sy }

func px(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) + "px" }

func (p *chartPointer) byID(id string) app.Value { return app.Window().GetElementByID(id) }

// at is the drawing the pointer is over, the chart's geometry and the
// event's position in SVG units; ok is false without a drawing laid out.
func (p *chartPointer) at(e app.Value) (v *Drawing, g geometry, x, y float64, ok bool) {
	if v = p.pt.view.Load(); v == nil {
		return nil, geometry{}, 0, 0, false
	}
	if g = p.geometry(v); !g.ok {
		return nil, geometry{}, 0, 0, false
	}
	x, y = g.svgPoint(e)
	return v, g, x, y, true
}

// onMove follows the pointer. It reads two numbers of the event and
// writes the crosshair's and the read-out's transforms, and the read-out's
// texts when x changes: each crossing into JavaScript costs, so it makes
// a handful, and it reads no layout.
func (p *chartPointer) onMove(e app.Value) {
	p.ptrX, p.ptrY, p.ptrIn = e.Get("clientX").Float(), e.Get("clientY").Float(), true
	v, g, x, y, ok := p.at(e)
	if !ok {
		return
	}
	if p.down {
		if d := (x - p.downX) / g.sx; d > dragMin || d < -dragMin {
			p.drag = true
		}
		if p.drag {
			p.showSelection(v, g, p.downX, x)
			return
		}
	}
	if p.touch && !p.down {
		return
	}
	if !v.frame.InPlot(x, y) {
		if !p.down {
			p.hide()
		}
		return
	}
	p.show(v, g, v.snap(x))
}

func (p *chartPointer) onDown(e app.Value) {
	if e.Get("button").Int() != 0 {
		return
	}
	v, g, x, y, ok := p.at(e)
	if !ok || !v.frame.InPlot(x, y) {
		return
	}
	p.touch = e.Get("pointerType").String() == "touch"
	p.down, p.drag, p.downX = true, false, x
	capturePointer(p.el, e.Get("pointerId"))
	if p.touch {
		p.show(v, g, v.snap(x)) // a tap shows the read-out
	}
}

func (p *chartPointer) onUp(e app.Value) {
	if !p.down {
		return
	}
	p.down = false
	p.ptrX, p.ptrY = e.Get("clientX").Float(), e.Get("clientY").Float()
	v, _, x, _, ok := p.at(e)
	if !ok {
		return
	}
	if p.drag {
		p.drag, p.dragged = false, true // the click that follows is the drag's
		p.hideSelection()
		if from, to, ok := v.rangeOf(p.downX, x); ok {
			p.send(page.Edit{Kind: page.EditText, Key: page.KeyFrom, Text: strconv.FormatInt(from, 10)},
				page.Edit{Kind: page.EditText, Key: page.KeyTo, Text: strconv.FormatInt(to, 10)})
		}
		return
	}
}

// onClick sets the value to the x clicked. The second click of a double
// click does not (the double click resets the range), nor does a drag's
// click, nor a tap: a tap reads.
func (p *chartPointer) onClick(e app.Value) {
	if p.dragged {
		p.dragged = false
		return
	}
	if p.touch || e.Get("detail").Int() > 1 {
		return
	}
	v, _, x, y, ok := p.at(e)
	if !ok || !v.frame.InPlot(x, y) {
		return
	}
	p.beforeClick, p.clicked = p.cur, true
	xv := v.snap(x)
	p.cur = xv
	p.send(axisEdit(v.field.Key, xv))
}

func (p *chartPointer) onDouble(e app.Value) {
	if v, _, x, y, ok := p.at(e); ok && v.frame.InPlot(x, y) {
		// Its first click set the value: put it back, then the range
		// (whose default follows the value).
		es := []page.Edit{{Kind: page.EditResetRange}}
		if p.clicked {
			p.cur = p.beforeClick
			es = append([]page.Edit{axisEdit(v.field.Key, p.beforeClick)}, es...)
		}
		p.clicked = false
		p.send(es...)
	}
}

func (p *chartPointer) onKey(e app.Value) {
	v := p.pt.view.Load()
	if v == nil {
		return
	}
	x, ok := v.step(p.cur, e.Get("key").String(), e.Get("shiftKey").Bool())
	if !ok {
		return
	}
	e.Call("preventDefault")
	p.ptrIn = false // the keys move the read-out now
	if g := p.geometry(v); g.ok {
		p.show(v, g, x)
	}
	if x != p.cur {
		p.cur = x
		p.send(axisEdit(v.field.Key, x))
	}
}

// send hands edits to the explorer on go-app's UI goroutine, in order.
func (p *chartPointer) send(es ...page.Edit) {
	h := p.pt.Host
	h.Dispatch(func(ctx app.Context) {
		for _, e := range es {
			h.Sink.Send(ctx, e)
		}
	})
}

// uiFunc makes a JavaScript callback that runs fn on go-app's UI
// goroutine (in the callback's own task), a panic in it caught and shown
// as a failure while doing what where says.
func (pt *Pointer) uiFunc(where string, fn func()) app.Func {
	return app.FuncOf(func(app.Value, []app.Value) any {
		pt.Host.Dispatch(func(app.Context) {
			defer pt.catch(where)
			fn()
		})
		return nil
	})
}

// capturePointer keeps a drag's events on the chart when the pointer
// leaves it; an id the browser does not know (a synthetic event) throws,
// which is no reason to stop.
func capturePointer(el, id app.Value) {
	defer func() { recover() }()
	el.Call("setPointerCapture", id)
}
