// Command headroom is Headroom's single binary: in the browser (compiled
// to WebAssembly) it is the explorer's page; natively it serves that page
// and runs the command line (the table in main.go: serve, estimate,
// sweep, plot, replay, measure, params, map, static). main
// wires the packages below together and does nothing else: main.go
// (native builds) routes the page and runs the command line from its
// table; main_wasm.go (the browser) routes the page and hands control to
// go-app; routes.go is the route both share.
//
// The layers, each in its own package, each importing only those below it
// (the rules are deps_test.go's table, at the root; each package's doc.go
// says its own in words):
//
//	app/cli           the commands (estimate, sweep, plot, replay, measure, params, map, serve, static)
//	app/server        serving the page and writing the static site; knows no page
//	app/ui            the explorer page's shell and panels: scheduling, the address bar, the banner
//	app/ui/chartview  the chart's room: the chart view, its pointer and keyboard, the sweep cache
//	app/ui/mapview    the "Two inputs" map's room: its view and its runner
//	app/ui/measured   the measured peaks' room: snapshots and planner-miss reports on the page
//	app/ui/workload   the Workload panel's room and its replay in slices
//	app/ui/widget     the generic controls (slider, menu, switch, edit sink)
//	app/ui/browser    the effects on the browser, with native stand-ins
//	app/ui/page       the page's model: its state, edits and their reducers, URL codec; no browser
//	app/chart         estimator results -> gonum/plot -> SVG (and PNG natively)
//	app/report        what a person copies: a replay's report and CSV, a sweep's
//	                  CSV and the JSON export (cli and ui share it)
//	measure           measured peaks: PyTorch memory snapshots, ART's planner-miss reports
//	estimator         the memory model, standard library only; around it
//	                  estimator/urlquery (a config in a URL) and
//	                  estimator/hfconfig (a Hugging Face config.json)
//
// Browser-only files end in _wasm.go (//go:build wasm), with a _native.go
// stand-in (//go:build !wasm) where native code calls them.
//
// # One edit, file by file
//
// Someone drags the rows slider:
//
//  1. app/ui/widget/slider.go: the control's box takes the range input's
//     input event (Slider.onInput); Slider.onSlide turns the range
//     position into a value and sends a page.Edit (app/ui/page/edit.go: a
//     kind, and the feature it is for) to the page's edit sink.
//  2. app/ui/widget/sink.go: Sink.Send hands it to the explorer, catching
//     a panic so the page survives it.
//  3. app/ui/explorer.go: explorer.apply notes it in the history
//     (app/ui/page/history.go), gives it to the page model's reducer
//     (page.State.Apply, app/ui/page/edit.go, which hands it to its
//     feature's: here the fields'; the map's click, a workload line, an
//     import and Back are reducers too, app/ui/page/reducers.go) and asks
//     for a render.
//  4. app/ui/page/pagestate.go: State.SetText keeps the typed text and
//     parses it through the estimator's field registry; FollowRange
//     refits a range nobody typed (FitRange, app/ui/page/axis.go; the
//     state remembers the last config it fitted, page.Memo). Then the edit's one
//     normalization: Validate (app/ui/page/validate.go) checks the config
//     (estimator.Repair marks every bad field, and estimator.Estimate
//     prices it, keeping the result in State.Result), keeping each error
//     beside its field, and keeps both findings in the state with the
//     config they are of (compared with estimator.Config.Equal,
//     estimator/config_equal.go). State.Settled then replaces the state by
//     the one its own address opens (app/ui/page/pageurl.go: Query writes
//     it once, Decode reads it back once, over estimator/urlquery's
//     Encode and Decode), so the page shows what a copied
//     link shows; the decoded state takes the findings when its config is
//     Equal, so the edit repairs and prices its config once. The settled
//     state knows the address that opens it (State.OpenedBy). page.Steps
//     counts these steps; TestEditSteps (app/ui/edit_bench_test.go) holds
//     a slider edit to one decode, one Repair, one Estimate and one fit.
//  5. app/ui/explorer_wasm.go: requestRender renders in the input's own
//     task when this animation frame has had no render, else at the next
//     frame's start, so a drag renders at most once per frame.
//  6. app/ui/explorer_render.go: explorer.renderNow takes the state its
//     address opens (explorer.address, once per query: after an edit that
//     is the state itself, State.OpenedBy says so and nothing is decoded; a
//     state that is not settled, a link as the page opened it or a Compare
//     edit, is reopened from its Query), draws nothing again when the
//     config (Config.Equal) and the chart's range and size are unchanged,
//     shows the estimate Validate made and asks the sweep cache for the
//     chart's data.
//  7. app/ui/chartview/sweepcache.go: SweepCache.Get reuses the last sweep
//     when only the axis' own value moved, else sweeps again with
//     chart.Build (app/chart/data.go, over estimator.Sweeper).
//  8. app/chart/chart.go: chart.SVGFrame draws it with gonum/plot on the
//     canvas of app/chart/svg.go, labelled and compact for the page (its
//     SVG options); app/ui/chartview/view.go puts the SVG in the page, and
//     the decision panel, flips text and breakdown show the rest.
//     chart.SVGFrame also returns the plot's coordinate mapping, from which
//     app/ui/chartview/pointer.go places the read-out and crosshair over
//     the SVG (pointer_wasm.go lays that overlay out at the next frame's
//     start, so the input's task reads no layout).
//  9. app/ui/page/pageurl.go: State.Query is the URL's query
//     (page.EncodeAddress spells it for the address bar), which
//     explorer.replaceURL (app/ui/history.go) puts in the address bar at
//     most every 300 ms (page.Throttle, app/ui/page/throttle.go;
//     explorer_wasm.go schedules the late write); the first edit of a
//     gesture pushes a history entry instead, so Back undoes the drag as a
//     whole (page.History decides, history.go and history_wasm.go call app/ui/browser's
//     PushQuery and ReplaceQuery). The writes wait until the frame that
//     shows the edit is painted.
//
// The browser tests that follow such an edit in Chromium are package
// app/e2e: they build this package to WebAssembly and serve it with
// app/server, as make run does.
package main
