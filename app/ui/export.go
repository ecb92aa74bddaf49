package ui

import (
	"headroom/app/chart"
	"headroom/app/report"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// The page's exports are app/report's, which the command line writes too;
// this file hands them the chart's sweep.

// SweepOf is the chart's sweep (in) as app/report's exports take it.
func SweepOf(in chart.Input) report.Sweep {
	sw := report.Sweep{From: in.From, To: in.To, Points: in.Points, Baseline: in.Baseline, Candidate: in.Candidate, Terms: in.Terms}
	if in.Axis != nil {
		sw.Axis = in.Axis.Key
	}
	return sw
}

// exportJSON is the page's JSON export (report.ExportJSON): the config,
// its estimate, the view and the flips along the chart's axis (none when
// the chart has no axis).
func exportJSON(cfg estimator.Config, v page.View, in chart.Input) ([]byte, error) {
	if in.Axis == nil {
		return report.ExportJSON(cfg, v, nil)
	}
	sw := SweepOf(in)
	return report.ExportJSON(cfg, v, &sw)
}
