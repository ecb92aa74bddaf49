// Command headroom is Headroom's single binary: in the browser (compiled
// to WebAssembly) it is the explorer's page; natively it serves that page
// and runs the command line (estimate, sweep, plot, serve, static). main
// wires the packages below together and does nothing else: main.go
// (native builds) routes the page and runs the command line from its
// table; main_wasm.go (the browser) routes the page and hands control to
// go-app; routes.go is the route both share.
//
// The layers, each in its own package, each importing only those below it:
//
//	app/cli     the commands (estimate, sweep, plot, replay, map, serve, static)
//	app/server  serving the page and writing the static site; knows no page
//	app/ui      the explorer page: go-app components, page state, URL codec
//	app/chart   estimator results -> gonum/plot -> SVG (and PNG natively)
//	app/report  a replay's Markdown report and CSV (cli and ui share it)
//	estimator   the memory model, standard library only
//
// cli may import server and chart; ui may import chart; server imports
// neither ui nor chart nor gonum; chart never imports go-app. Browser-only
// files end in _wasm.go (//go:build wasm), with a _native.go stand-in
// (//go:build !wasm) where native code calls them.
//
// # One edit, file by file
//
// Someone drags the rows slider:
//
//  1. app/ui/slider.go: the control's box takes the range input's input
//     event (slider.onInput); slider.onSlide turns the range position into
//     a value and sends an edit to the page's edit sink.
//  2. app/ui/sink.go: editSink.send hands it to the explorer, catching a
//     panic so the page survives it.
//  3. app/ui/explorer.go: explorer.apply gives the edit to the page state
//     and asks for a render.
//  4. app/ui/pagestate.go: pageState.setText keeps the typed text and
//     validate parses every input through the estimator's field registry,
//     keeping the error beside its field.
//  5. app/ui/explorer_wasm.go: requestRender renders in the input's own
//     task when this animation frame has had no render, else at the next
//     frame's start, so a drag renders at most once per frame.
//  6. app/ui/explorer.go: explorer.renderNow estimates the config
//     (estimator.Estimate) and asks the sweep cache for the chart's data.
//  7. app/ui/sweepcache.go: sweepCache.get reuses the last sweep when only
//     the axis' own value moved, else sweeps again with chart.Build
//     (app/chart/data.go, over estimator.Sweeper).
//  8. app/chart/chart.go: chart.SVG draws it with gonum/plot on the
//     canvas of app/chart/svg.go; app/ui/chartview.go puts the SVG in the
//     page, and the decision panel, flips text and breakdown show the rest.
//     chart.SVGFrame also returns the plot's coordinate mapping, from which
//     app/ui/pointer.go places the read-out and crosshair over the SVG
//     (pointer_wasm.go lays that overlay out at the next frame's start,
//     so the input's task reads no layout).
//  9. app/ui/pageurl.go: pageState.query writes the state as the URL's
//     query, which explorer.replaceURL puts in the address bar at most
//     every 300 ms (explorer_wasm.go schedules the late write); the first
//     edit of a gesture pushes a history entry instead, so Back undoes
//     the drag as a whole (app/ui/history.go, history_wasm.go). The
//     writes wait until the frame that shows the edit is painted.
package main
