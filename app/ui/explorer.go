package ui

import (
	"fmt"
	"net/url"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"gonum.org/v1/plot/vg"

	"headroom/app/chart"
	"headroom/app/ui/browser"
	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/app/ui/workload"
	"headroom/estimator"
)

// explorer is the page: controls on one side; the chart, the decisions
// and the breakdown on the other. Its state is the URL's (page.State);
// every edit updates the state at once and asks for a render, which runs
// once per animation frame at most and draws from the last valid state.
type explorer struct {
	app.Compo

	// Query, when not nil, is the state to open instead of the page URL's
	// (tests start from it).
	Query url.Values

	sink   *widget.Sink
	share  *shareSink // the share bar's and import panel's way in (explorer_share.go)
	list   []page.Preset
	state  page.State
	sweeps sweepCache
	shown  shownState

	ctx          app.Context   // the mounted explorer's context, for the frame callback
	frame        app.Func      // renders a coalesced edit (explorer_wasm.go)
	tick         app.Func      // the animation-frame callback while renders come
	framePending bool          // an edit waits for the next frame's render
	menusDirty   bool          // a menu may show a choice the state does not hold (syncMenus)
	busyShown    bool          // #explorer carries data-busy (markBusy)
	frameUsed    bool          // this animation frame has had its render
	chartW       int           // CSS pixels of the chart's container; 0 = not measured
	last         lastRender    // what the last render drew, which an unchanged state does not draw again
	url          page.Throttle // the address bar's writes (page/throttle.go)
	urlTimer     app.Func      // the browser's timer that writes a query url holds back (explorer_wasm.go)
	urlArmed     bool          // urlTimer is set
	hist         history       // Back and Forward (history.go)
	addr         addressCache

	renders  int     // completed renders: the DOM's data-renders
	edits    int     // edits and imports taken: the DOM's data-edits
	renderMs float64 // the last render's compute time, for data-render-ms
	banner   bannerState

	prerendered  bool // drawn by the server (OnPreRender): not ready
	prerendering bool // in OnPreRender's render: the map is left to the browser (stepMap)
	inited       bool // OnInit read the address and rendered (browser)
	renderWanted bool // a render was asked for before the frames existed (OnInit: the map's next step)

	panicHook func(page.Edit) // makes a handler panic: tests only (see armTestPanic)

	view    atomic.Pointer[pointerView] // the chart on screen, as the pointer's overlay reads it (pointer.go)
	pointer chartPointer
	theme   browser.Theme    // the colour scheme, which the chart follows (theme.go)
	loads   *workload.Loader // the Workload panel's way in (explorer_workload.go)
	maps    mapRun           // the "Two inputs" view's map (explorer_map.go)
}

// shownState is what the chart, the panels and the table show: the last
// valid render.
type shownState struct {
	ready    bool
	valid    bool   // what is shown is a valid state's (else a fresh link's, its marked fields at their defaults)
	blocked  string // no state to show at all (a fresh link whose config does not price): what to fix
	result   estimator.Result
	svg      string
	chartErr string
	notes    flipNotes
	config   estimator.Config
}

// bannerState is the error banner's content; empty when there is none.
type bannerState struct {
	Message, Details string
}

// NewExplorer returns the explorer, the page's one component, for
// go-app's router (main routes "/" to it).
func NewExplorer() app.Composer { return newExplorer() }

// newExplorer returns the page component with the default state; the
// URL's state is read when it mounts.
func newExplorer() *explorer {
	c := &explorer{state: page.New()}
	c.sink = &widget.Sink{Apply: c.apply, Fail: c.fail}
	c.share = c.newShareSink()
	c.loads = c.newWorkloadSink()
	return c
}

// load reads the state from URL query values.
func (c *explorer) load(q url.Values) {
	list, err := page.Presets()
	if err != nil {
		c.fail("reading the presets", err, nil)
	}
	c.list = list
	c.state = page.Decode(q, list)
}

// armTestPanic lets a test see a handler panic end in the banner: given
// panic=edit in the Query it opens with, the next edit panics, once, and
// the URL forgets it. Only the Query prop, which tests set, arms it: the
// address bar of the page people use never does.
func (c *explorer) armTestPanic(q url.Values) {
	if q.Get("panic") == "edit" {
		c.panicHook = func(page.Edit) {
			c.panicHook = nil
			panic("a test panic, asked for by panic=edit in the URL")
		}
	}
}

// OnPreRender draws the page on the server for the request's URL (which
// the server has made inert, app/server/prerender.go): the controls, the
// chart, the decisions and the table, so the first paint shows the chart
// before app.wasm arrives. The browser then mounts the same page and
// renders it again in the same task (OnMount), so nothing moves. The
// chart is drawn at the default width (the server cannot measure the
// container); its SVG scales to the container. data-ready and
// data-renders stay at 0: they tell the page's own renders in the browser.
func (c *explorer) OnPreRender(ctx app.Context) {
	defer c.catch("reading the URL")
	c.load(ctx.Page().URL().Query())
	c.prerendering = true
	c.renderNow()
	c.prerendering = false
	c.prerendered = true
	c.renders = 0
}

// OnInit, in the browser, computes the page for the address before
// go-app first draws it: the chart, the decisions and the table are in
// that first drawing, which replaces the server's page with the same page,
// interactive at once, instead of a page waiting for its first render
// (go-app would draw the tree twice, the second time with most of the
// DOM changing). The chart is drawn at the width of the server's #chart,
// still on screen; should the mounted #chart's differ, the chart's
// ResizeObserver redraws it. On the server OnPreRender does this.
func (c *explorer) OnInit() {
	if !app.IsClient {
		return
	}
	defer c.catch("opening the page")
	browser.Mark("headroom:init") // go-app set up, the explorer made: its first compute starts
	browser.HoldServerPage()      // emptied once replaced (OnMount), so its nodes are freed
	c.open(app.Window().URL().Query())
	c.chartW = measureChart()
	c.renderNow()
	c.inited = true
	browser.Mark("headroom:computed") // go-app's mount of the page follows
}

// open reads the state of the address query q (or of the tests' Query).
func (c *explorer) open(q url.Values) {
	if c.Query != nil {
		q = c.Query
		c.armTestPanic(q)
	}
	c.load(q)
	// The address shows what the link said, which may not be the state's
	// own query (a bad menu value, a default spelled out): the first
	// render writes it whatever it is.
	c.url.Last = "\x00not written"
}

// OnMount reads the URL's state, unless OnInit did, and asks for the
// first render.
func (c *explorer) OnMount(ctx app.Context) {
	defer c.catch("opening the page")
	browser.Mark("headroom:mounted")
	// The server's page, which go-app's drawing has just replaced, goes
	// now rather than at Go's next collection; measureChart took its
	// #chart (or #map) in OnInit.
	browser.ReleaseServerPage("chart", "map")
	c.ctx = ctx
	c.setupFrames()
	c.listenHistory()
	c.menusDirty = true
	if c.inited && !c.renderWanted {
		// The page OnInit computed is what go-app just drew: no render
		// now, and no layout forced here to measure the chart: its overlay
		// is laid out at the next frame (firstFrame), where the browser
		// lays the new page out anyway.
		c.afterRender()
		c.firstFrame()
		return
	}
	if !c.inited {
		c.open(ctx.Page().URL().Query())
	}
	c.renderWanted = false
	c.chartW = measureChart()
	c.requestRender()
}

// OnDismount releases the frame callback.
func (c *explorer) OnDismount() {
	c.releaseFrames()
	c.hist.release()
	c.releasePointer()
}

// OnResize redraws the chart at the container's new width.
func (c *explorer) OnResize(ctx app.Context) {
	defer c.catch("resizing the chart")
	if w := measureChart(); w != c.chartW {
		c.chartW = w
		c.requestRender()
	}
}

// apply is every control's event handler: it gives the edit to the page
// model's reducer (page.State.Apply; the map view's to applyMap), notes
// it in the history and asks for a render.
func (c *explorer) apply(ctx app.Context, e page.Edit) {
	defer c.catch("handling an edit of " + e.Key)
	c.edits++
	if c.panicHook != nil {
		c.panicHook(e)
	}
	// A menu may show a pick the state settled away from (syncMenus):
	// any edit but typing, a slide, a commit or a click on the map may
	// have come from one.
	if e.Kind != page.EditMapClick &&
		((e.Kind != page.EditText && e.Kind != page.EditCommit && e.Kind != page.EditSettle) || e.For == page.ForMap || e.For == page.ForCompare) {
		c.menusDirty = true
	}
	switch {
	case e.For == page.ForMap: // the map view (explorer_map.go)
		c.applyMap(e)
		return
	case e.For == page.ForCompare: // the Compare control (comparepanel.go): no history entry of its own
	case e.Kind == page.EditDismiss:
		c.banner = bannerState{}
		return
	case e.Kind == page.EditSettle:
		c.hist.Settle(e.Key)
		return
	case e.Kind == page.EditCommit:
		// A committed field ends its gesture: the next edit starts a new
		// history entry.
		c.hist.Settle(e.Key)
	default:
		c.hist.Note(e.Key, e.Settle)
	}
	c.state.Apply(e, c.list)
	c.requestRender()
}

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
		// marked (issue 27, defect 3). A page opened on a wrong range (a
		// link's from=500&to=10) has none to keep: it draws the fitted
		// range, with the message beside the range field. A link whose
		// config does not price at all (defaults that overflow) has
		// nothing to draw: the page is ready and says what to fix
		// (defect 4).
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
	in, notes, _, err := c.sweeps.getNamed(s.Cfg, setupNames(s.Cfg, c.list).chartNames(), s.Axis, from, to, page.ChartPoints)
	if err != nil {
		panic(fmt.Errorf("a config that validated did not sweep: %w", err))
	}
	if _, err := in.AddObserved(s.Cfg); err != nil { // in is a copy: the cache keeps its sweep without them
		panic(fmt.Errorf("a config that validated has no predicted peaks: %w", err))
	}
	in.Palette = pal // the page's copy: exports draw in Light
	svg, frame, err := chart.SVGFrame(in, vg.Length(w), vg.Length(h))
	if err != nil {
		c.shown.chartErr = err.Error()
	} else {
		c.shown.svg, c.shown.chartErr = labelSVG(svg), ""
		if v, err := newPointerView(s.Cfg, in, frame); err == nil {
			c.view.Store(v)
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
	open := page.Decode(q, c.list)
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

// replaceURL puts the state into the address bar (replace, not push: every
// slider step is not a page to go back to): at once when the last write is
// old enough, otherwise when it is, with the latest state.
func (c *explorer) replaceURL(query string) {
	if now, wait := c.url.Set(query, browser.NowMs()); now {
		c.writeURL()
	} else if wait > 0 {
		c.scheduleURL(wait)
	}
}

// writeURL writes the pending query, if it is not written yet.
func (c *explorer) writeURL() {
	if query, ok := c.url.Take(browser.NowMs()); ok {
		c.queueAddress(false, query)
	}
}

// catch recovers a panic in one of the explorer's handlers and shows it in
// the banner; the page keeps its state and goes on.
func (c *explorer) catch(where string) {
	if r := recover(); r != nil {
		c.fail(where, r, debug.Stack())
	}
}

// fail shows a failure in the error banner.
func (c *explorer) fail(where string, r any, trace []byte) {
	c.banner = bannerState{
		Message: fmt.Sprintf("Something went wrong while %s: %v. The page keeps your inputs and goes on; please report this with the details.", where, r),
		Details: fmt.Sprintf("while %s: %v\nstate: ?%s\n\n%s", where, r, page.EncodeAddress(c.state.Query(c.list)), trace),
	}
	if c.Mounted() {
		c.Update()
	}
}

// Render draws the page.
func (c *explorer) Render() (ui app.UI) {
	defer c.sink.CatchRender("drawing the page", &ui)
	s := &c.state
	sh := &c.shown
	shownAxis := "" // the axis of the chart on screen, which the sweep cache holds
	if in, ok := c.sweeps.last(); ok && in.Axis != nil {
		shownAxis = in.Axis.Key
	}
	ready := "0"
	if (sh.ready || sh.blocked != "") && !c.prerendered {
		ready = "1"
	}
	stale := sh.ready && len(s.Errs) > 0 // what is typed is not what is shown
	// Before the first estimate the panels are titled from the state, not
	// from the zero config ("no change on" was shown with every change on).
	titled := sh.config
	if !sh.ready {
		titled = s.Cfg
	}
	names := setupNames(titled, c.list)
	panels := panelTexts(titled, names)
	art := page.RevisionArt(titled)
	pending, _, _ := strings.Cut(sh.blocked, ". ") // the panels say what to fix; the chart, each message
	if pending != "" {
		pending += "."
	}
	// live is "0" in the server's prerender, "1" once the browser mounted it.
	live := "0"
	if c.ctx != nil || c.inited { // inited: the browser's first drawing, mounted in this task
		live = "1"
	}
	// data-edits, data-query and data-live let a test tell when the page
	// has taken an edit and what address it is heading for.
	return app.Div().ID("explorer").Class("explorer").
		DataSet("ready", ready).DataSet("renders", c.renders).
		DataSet("render-ms", c.renderMsText()).
		DataSet("live", live).DataSet("edits", c.edits).DataSet("query", widget.Attr(c.addressText())).Body(
		&skipLink{Sink: c.sink},
		app.If(c.banner.Message != "",
			&errorBanner{Message: c.banner.Message, Details: c.banner.Details, Sink: c.sink}),
		app.Header().Class("top").Body(
			app.H1().Text("Headroom"),
			app.P().Class("tagline").Text("Admit, split or refuse: where a change to the memory estimate flips the trainer's decision."),
			&shareBar{Ready: sh.ready, Share: c.share, Sink: c.sink},
		),
		app.Div().Class("layout").Body(
			app.Section().ID("results").Class("results").Aria("label", "results").TabIndex(-1).Body(
				&viewTabs{Map: s.Map.On, Sink: c.sink},
				app.If(s.Map.On, &mapView{State: c.mapViewState(), Sink: c.sink, Exporter: c.exportMap}).Else(
					&axisControls{Axis: s.Axis, From: s.Text(page.KeyFrom), To: s.Text(page.KeyTo), Sink: c.sink,
						Errors: pick(s.Errs, page.KeyAxis, page.KeyFrom, page.KeyTo)},
					app.If(s.WeightsDoNotFit() != "", &noFitPanel{View: residentViewOf(s), Sink: c.sink}).Else(
						&chartView{SVG: sh.svg, Error: sh.chartErr, Stale: stale, Empty: sh.blocked, Sink: c.sink,
							Caption: "Required bytes of the chosen plan along " + shownAxis + ", " + names.Base + " and " + names.Cand + ", against the bytes available; the stage and retained lines are the whole request's, before any split.",
							Summary: c.chartSummaryText(shownAxis)},
					),
				),
				app.If(stale, app.P().ID("stale-note").Class("stale-note").Role("status").Text(staleText(s, sh.valid))),
			),
			app.Section().Class("verdicts", widget.ClassIf(stale, "stale")).Aria("label", "decisions").Body(
				app.Div().Class("decisions").Body(
					&decisionPanel{Rev: estimator.BaselineRev, Title: panels[0].title, Subtitle: panels[0].subtitle + trainerNote(art[0]) + termsNote(sh.config.Terms, 0), Art: art[0],
						Ready: sh.ready, Pending: pending, Outcome: sh.result.Baseline, Available: availableOf(sh.result, 0),
						Axis: shownAxis, Flips: sh.notes.Baseline, SeqRows: sh.config.Request.SequenceRows, Safety: baselineSafety(sh.config), Sink: c.sink},
					&decisionPanel{Rev: estimator.CandidateRev, Title: panels[1].title, Subtitle: panels[1].subtitle + trainerNote(art[1]) + termsNote(sh.config.Terms, 1), Art: art[1],
						Ready: sh.ready, Pending: pending, Outcome: sh.result.Candidate, Available: availableOf(sh.result, 1),
						Axis: shownAxis, Flips: sh.notes.Candidate, SeqRows: sh.config.Request.SequenceRows, Safety: sh.config.Budget.SafetyPercent, Sink: c.sink},
				),
				app.P().ID("change-summary").Class("change-summary").Text(capitalize(sh.notes.Change)),
				app.P().ID("split-note").Class("split-note").Text(splitNote),
				&observedPanel{View: observedViewOf(s, sh, shownAxis), Config: sh.config, Ready: sh.ready, Sink: c.sink},
			),
			app.Aside().Class("side").Aria("label", "inputs").Body(
				&importPanel{Share: c.share, Sink: c.sink},
				&controls{View: controlViewOf(s, c.list), Sink: c.sink},
				&changesPanel{View: changesViewOf(s), Sink: c.sink},
				&comparePanel{View: compareViewOf(s, c.list), Sink: c.sink},
			),
			app.Section().Class("table", widget.ClassIf(stale, "stale")).Aria("label", "breakdown").Body(
				app.P().ID("breakdown-scroll-cue").Class("scroll-cue").Aria("hidden", "true").Text("Swipe the table sideways for every column →"),
				// Focusable, so a keyboard can scroll the table sideways (axe's
				// scrollable-region-focusable).
				app.Div().Class("table-scroll").TabIndex(0).Role("region").Aria("label", "stages and tensors, scrolls sideways").Body(
					&breakdown{Ready: sh.ready, Baseline: sh.result.Baseline, Candidate: sh.result.Candidate, Terms: sh.config.Terms, Names: [2]string{names.Base, names.Cand}, Art: art, Sink: c.sink},
				),
			),
		),
		&workload.Panel{Config: sh.config, Ready: sh.ready, Sink: c.sink, Loads: c.loads},
	)
}

// addressText is address's query.
func (c *explorer) addressText() string {
	q, _ := c.address()
	return q
}

// renderMsText is the last render's compute time, for data-render-ms.
func (c *explorer) renderMsText() string { return strconv.FormatFloat(c.renderMs, 'f', 2, 64) }
