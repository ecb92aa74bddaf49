// Package chartview is the chart's room on the page: the chart view
// (View, id chart: the SVG the chart package drew and the overlay over
// it), the pointer and keyboard that follow it (Pointer, over the Drawing
// of the chart on screen: a crosshair, a read-out priced by the estimator,
// a drag's zoom, the bands' and lines' labels, pointer_wasm.go), and the
// sweep cache that keeps the chart's sweep while only its marker moves
// (SweepCache). The explorer owns one Pointer and one SweepCache and
// hands the pointer its way in, a Host (the page's widget.Sink, the UI
// goroutine, #chart's width), as workload.Loader is the Workload panel's.
//
// It may import the estimator, app/chart, go-app, app/ui/page (edits),
// app/ui/widget (the sink) and app/ui/browser; never app/ui, which
// composes it, nor another feature's room (deps_test.go).
package chartview
