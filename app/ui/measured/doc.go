// Package measured is the measured peaks' room in the Observed peaks
// panel (Panel): a PyTorch memory snapshot or ART's planner-miss reports,
// dropped or picked, read in slices as the browser reads the file (a
// snapshot's decoder runs in a goroutine of its own, fed by sliceFeed, so
// the page paints and takes input while it decodes), then shown beside
// the revisions' predictions, with the buttons that put the points in the
// panel's box and the learned profile in the config, as edits through the
// page's widget.Sink.
//
// It may import the estimator, measure (the readers), app/chart (the
// timeline), go-app, app/ui/page, app/ui/widget and app/ui/browser (files,
// drops); never app/ui, which composes it, nor another feature's room
// (deps_test.go).
package measured
