// Package ui is the explorer page: its go-app components (one per file,
// named after it), which show the page's model (app/ui/page: the state,
// the edits and the URL codec) and send it the edits of the controls,
// made of the generic controls of app/ui/widget. Each feature with state
// and work of its own has a room, a package behind a narrow way in: the
// chart, its pointer and its sweep cache are app/ui/chartview
// (chartview.Host), the "Two inputs" map app/ui/mapview (mapview.Runner),
// the measured peaks app/ui/measured (measured.Panel, with the page's
// sink), the Workload panel app/ui/workload (workload.Loader); the effects on
// the browser (clipboard, downloads, files, drops, the address bar) are
// app/ui/browser's. What is left here is the page's shell (the explorer:
// scheduling renders, the address bar and history, the error banner) and
// its panels. It compiles both to WebAssembly (the
// page) and natively (go-app's server-side prerender, and the component
// tests); browser-only code is in _wasm.go files, with a _native.go
// stand-in where native code calls it.
//
// Event handlers read input, call the estimator, store the result; the
// chart is app/chart's, drawn to SVG. No byte arithmetic here.
//
// Its API for main: NewExplorer (the route's component) and Handler (the
// page's description for go-app's server). It may import the estimator,
// app/ui/page, app/ui/widget, app/ui/browser, the rooms above, app/chart,
// app/report (the replay's report, the sweep's CSV and the JSON export),
// go-app and gonum's vg (chart sizes); never app/server or app/cli.
package ui
