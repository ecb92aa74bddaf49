// Package mapview is the "Two inputs" view's room: the view (View: the
// axes and ranges, the map, the column under the pointer, the exports)
// and the map's runner (Runner), which computes the map column by column,
// a frame's share at a time (page.Slice), so a slider input never waits
// for a whole map. The explorer owns one Runner, steps it after each
// render and draws the View from it; edits go through the page's
// widget.Sink, and the state they change is page.MapState's.
//
// It may import the estimator, app/chart, go-app, app/ui/page,
// app/ui/widget, app/ui/browser and app/ui/chartview (the SVG's
// labelling); never app/ui, which composes it, nor another feature's room
// (deps_test.go).
package mapview
