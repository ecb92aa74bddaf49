package ui

import (
	"fmt"

	"gonum.org/v1/plot/vg"

	"headroom/app/chart"
	"headroom/app/ui/browser"
	"headroom/app/ui/chartview"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// renderNow computes what the page shows and writes the URL; called once
// per animation frame at most. Invalid inputs keep the last valid
// render; an unchanged state is not recomputed.
func (c *explorer) renderNow() {
	defer c.catch("drawing the chart")
	defer c.stepMap() // the map view's share of the frame (explorer_map.go)
	q, open := c.address()
	c.writeHistory(q)
	s := &open
	from, to := s.From, s.To
	if !s.Valid {
		// While a field is invalid the page keeps its last valid state,
		// marked, so what is typed never blanks the chart. A page opened on a
		// wrong range (a link's from=500&to=10) has none to keep: it draws the
		// fitted range, with the message beside the range field. A link whose
		// config does not price at all (defaults that overflow) has nothing to
		// draw: the page is ready and says what to fix rather than waiting for
		// a render that never comes.
		if c.shown.ready {
			return
		}
		if !s.CfgOK {
			c.shown.blocked = blockedText(s)
			return
		}
		if s.Errs[page.KeyFrom] != "" || s.Errs[page.KeyTo] != "" {
			from, to = page.FitRange(s.Axis, s.Cfg)
		}
	}
	c.shown.blocked = ""
	w, h := c.chartSize()
	pal := c.chartPalette()
	key := renderKey{axis: s.Axis, from: from, to: to, w: w, h: h, dark: pal == &chart.Dark}
	if c.last.ok && c.last.key == key && c.last.cfg.Equal(s.Cfg) {
		return
	}
	start := browser.NowMs()
	res := s.Result // Validate priced s.Cfg
	in, notes, _, err := c.sweeps.Get(s.Cfg, setupNames(s.Cfg, c.list).chartNames(), s.Axis, from, to, page.ChartPoints)
	if err != nil {
		panic(fmt.Errorf("a config that validated did not sweep: %w", err))
	}
	if _, err := in.AddObserved(s.Cfg); err != nil { // in is a copy: the cache keeps its sweep without them
		panic(fmt.Errorf("a config that validated has no predicted peaks: %w", err))
	}
	in.Palette = pal // the page's copy: exports draw in Light
	// The page's copy is named by the figure's caption and has no line
	// breaks (chart.Compact); exports and goldens are drawn without.
	svg, frame, err := chart.SVGFrame(in, vg.Length(w), vg.Length(h), pageSVG...)
	if err != nil {
		c.shown.chartErr = err.Error()
	} else {
		c.shown.svg, c.shown.chartErr = string(svg), ""
		if v, err := chartview.NewDrawing(s.Cfg, in, frame); err == nil {
			c.pointer.Show(v)
		}
	}
	c.shown.ready, c.shown.result, c.shown.notes, c.shown.config = true, res, notes, s.Cfg
	c.shown.valid = s.Valid
	c.last = lastRender{ok: true, cfg: s.Cfg.Clone(), key: key}
	c.renders++
	c.renderMs = browser.NowMs() - start
}

// address is the page's address query and the state it opens. The page
// takes the state its address opens: a marked field counts at the value a
// link with that text gets (its default; in use keeps its bytes), which
// is not Valid, so the results stay the last valid state's (renderNow);
// a fresh link with no valid state draws it, the note saying so. The
// query is the one the opened state writes, so opening it changes
// nothing.
//
// After an edit the state is already the one its address opens (Apply
// settled it: page.State.OpenedBy), and is taken as it is; a state that
// is not (a link as the page opened it, a Compare edit) is decoded from
// its address. Either is computed once per state query (the render and
// the DOM's data-query both ask).
func (c *explorer) address() (string, page.State) {
	q := c.state.Query(c.list)
	in := q.Encode()
	if c.addr.ok && c.addr.in == in {
		return c.addr.out, c.addr.open
	}
	if c.state.OpenedBy(in) {
		// A copy whose maps an edit of c.state cannot change.
		c.addr = addressCache{ok: true, in: in, out: page.EncodeAddress(q), open: c.state.Clone()}
		return c.addr.out, c.addr.open
	}
	open := c.state.Reopen(c.list)
	c.addr = addressCache{ok: true, in: in, out: page.EncodeAddress(open.Query(c.list)), open: open}
	return c.addr.out, open
}

// lastRender is what renderNow last drew: the config (a Clone, compared
// with Config.Equal) and the rest of what the chart depends on.
type lastRender struct {
	ok  bool
	cfg estimator.Config
	key renderKey
}

// renderKey is what the chart depends on besides the config.
type renderKey struct {
	axis     string
	from, to int64
	w, h     int
	dark     bool
}

// addressCache is address's last answer: the state's query in, the
// address out and the state it opens.
type addressCache struct {
	ok      bool
	in, out string
	open    page.State
}

// chartSize is the SVG's size in CSS pixels: the container's width, and a
// height that keeps a narrow chart readable.
func (c *explorer) chartSize() (w, h int) {
	w = c.chartW
	if w <= 0 {
		w = 720
	}
	w = max(280, min(w, 1600))
	h = max(240, min(w/2, 420))
	return w, h
}

// pageSVG are the options of the SVG the page shows (the chart's and the
// map's): named by the figure's caption (id chart-caption), so assistive
// technology reads what it shows, and compact.
var pageSVG = []chart.SVGOption{chart.LabelledBy("chart-caption"), chart.Compact()}
