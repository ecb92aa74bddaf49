package ui

import (
	"fmt"
	"net/url"
	"runtime/debug"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/browser"
	"headroom/app/ui/chartview"
	"headroom/app/ui/mapview"
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
	sweeps chartview.SweepCache[flipNotes] // the chart's sweep and its sentences
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

	pointer chartview.Pointer // the chart's pointer and keyboard, over the chart on screen
	theme   browser.Theme     // the colour scheme, which the chart follows (theme.go)
	loads   *workload.Loader  // the Workload panel's way in (explorer_workload.go)
	maps    mapview.Runner    // the "Two inputs" view's map (explorer_map.go)
	acting  actingMemo        // the switches acting on the panels' config (notes.go)
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
	c.sweeps.Describe = describeSweep
	c.pointer.Host = c.newChartHost()
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
		c.pointer.AfterRender()
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
	c.pointer.Release()
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
// model's reducer (page.State.Apply; the map view's to ApplyMap), notes
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
	case e.For == page.ForMap: // the map view: against the config the map draws (explorer_map.go)
		cfg, _ := c.mapConfig()
		c.state.ApplyMap(e, cfg)
		c.hist.Note(e.Key, e.Settle)
		c.requestRender()
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
