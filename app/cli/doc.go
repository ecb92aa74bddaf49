// Package cli is Headroom's command line: flags in, configs read, results
// printed. Estimate, Sweep, Plot, Replay, Map, Measure and Params are
// commands; Serve and Static make the commands that need the page's go-app
// handler, which main passes in; Run
// picks a command from the table main lists. A bad config exits 2 with one
// line naming the field; a failure while running exits 1.
//
// It may import the estimator, app/chart (the plot and map commands),
// app/report (the replay's report, the sweep's CSV and the flips), the
// estimator's hfconfig (-hf, and a config.json as -config; params),
// measure (the measure command: snapshots and planner-miss reports) and
// app/server (serve, static); never app/ui: main hands it what it needs
// of the page.
package cli
