// Package report writes a replay's result (estimator.ReplayResult) as the
// people who read it want it: the Markdown report for a pull-request
// comment (a title, the transition table, one sentence, the first changed
// lines) and the CSV of one row per workload line. The replay command and
// the page's Workload panel both call it, so the report a reviewer copies
// from the page is the one the command prints. It also writes one
// estimate (estimator.Result) as text for a terminal and as Markdown, for
// the estimate command's -format text and md.
//
// It imports only the estimator and the standard library: app/cli and
// app/ui may both import it (ui may not import cli, and the estimator
// keeps to the model, not its presentation).
package report
