// Package workload is the explorer's Workload panel (Panel): it replays
// a workload of request shapes (CSV or JSON Lines) against both
// revisions of the config on screen, in slices of a few milliseconds so
// the page stays responsive (workloadrun.go), and
// shows the transition table, the histogram along rows and the first
// changed lines, each of which it can load into the explorer's fields
// through the Loader the explorer gives it.
//
// It may import the estimator, app/chart (the histogram), app/report (the
// replay's report), go-app, app/ui/page (the chart's grid),
// app/ui/widget (the edit sink) and app/ui/browser (files, drops, the
// clipboard, downloads); never app/ui.
package workload
