package ui

import (
	"headroom/app/chart"
	"headroom/app/report"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// An exported picture's title and caption (SVG, PNG) are app/report's;
// the page gives them its own words: the preset's name, the changes, the
// trainers.

// captioned gives an exported chart its title line and caption
// (report.ChartCaption): the preset, the GPU, the changes on, the axis
// and range, and the date (UTC, YYYY-MM-DD), so a picture pasted into a
// pull request explains itself. The page's own chart and the plot
// command's drawings have neither (their goldens stay as they are): on
// the page the panels around the chart say all this, and the plot
// command's caller chooses its title.
func captioned(in chart.Input, cfg estimator.Config, presetName, date string) chart.Input {
	in.Title, in.Caption = report.ChartCaption(cfg, SweepOf(in), report.CaptionNames{
		Preset: presetName, Changes: changesText(cfg, nil), Trainer: trainerCaption(cfg), Date: date})
	return in
}

// trainerCaption names the trainers when ART's code prices a revision
// (docs/model.md §13): "trainer ART's code", or each revision's when
// they differ; "" when both are the seeds' reading.
func trainerCaption(cfg estimator.Config) string {
	art := page.RevisionArt(cfg)
	name := func(a bool) string {
		if a {
			return page.ProfileArtLabel
		}
		return page.ProfileSeedsLabel
	}
	switch {
	case art[0] && art[1]:
		return "trainer " + name(true)
	case art[0] || art[1]:
		return "trainer: baseline " + name(art[0]) + ", candidate " + name(art[1])
	}
	return ""
}

// presetIDName is the display name of a preset id ("" when none matches).
func presetIDName(list []page.Preset, id string) string {
	if p, ok := page.FindPreset(list, id); ok {
		return p.Name
	}
	return ""
}
