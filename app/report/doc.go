// Package report writes a replay's result (estimator.ReplayResult) as the
// people who read it want it: the Markdown report for a pull-request
// comment (a title, the transition table, one sentence, the first changed
// lines) and the CSV of one row per workload line. The replay command and
// the page's Workload panel both call it, so the report a reviewer copies
// from the page is the one the command prints. It also writes one
// estimate (estimator.Result) as text for a terminal and as Markdown, for
// the estimate command's -format text and md. And it writes the exports
// a person copies from the page: a sweep's CSV (SweepCSV, every grid and
// flip point in exact bytes) and the JSON export (ExportJSON: the config,
// its estimate, the page's view and the flips as docs/model.md §6 writes
// a sweep), which the sweep command writes too (-format csv and json),
// and an exported chart's title and caption (ChartCaption), in the
// page's words, which the caller gives (CaptionNames).
//
// It imports only the estimator and the standard library: app/cli and
// app/ui may both import it (ui may not import cli, and the estimator
// keeps to the model, not its presentation).
package report
