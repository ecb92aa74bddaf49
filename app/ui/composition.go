package ui

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/report"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

// compositionPart is one part of what `required` is made of: the
// retained bytes of every child, or the largest child's peak stage.
type compositionPart struct {
	Key   string // "retained" or "peak"
	Label string // "retained checkpoints", "peak stage: activations"
	Bytes estimator.Bytes
	// Permille is the part's share of retained + peak, in tenths of a
	// percent, for display only (rounded half up).
	Permille int64
}

// composition says what `required` is made of: required =
// floor((retained + peak stage) x safety_percent / 100), with the bytes of
// both parts taken from the estimator's outcome (RetainedBytes,
// EphemeralBytes, DominantStage), and which part is the larger.
type composition struct {
	Parts   [2]compositionPart // retained, then peak
	Largest int                // index into Parts; retained wins a tie
	Safety  int64              // safety_percent
	// Art is ART's composition (composeArt): its parts already carry the
	// safety factor, and they add to the largest child's price.
	Art bool
	// dominates names the larger part, in the command line's words too
	// (report.Dominates).
	dominates string
}

// composeRequired reads the composition of o's required bytes. The shares
// are the only arithmetic: display-only floats of the two parts.
func composeRequired(o estimator.Outcome, safetyPercent int64) composition {
	c := composition{Safety: safetyPercent}
	stage := o.DominantStage
	if stage == "" {
		stage = "none"
	}
	c.Parts[0] = compositionPart{Key: "retained", Label: "retained checkpoints", Bytes: o.RetainedBytes}
	c.Parts[1] = compositionPart{Key: "peak", Label: "peak stage: " + stage, Bytes: o.EphemeralBytes}
	total := float64(o.RetainedBytes) + float64(o.EphemeralBytes)
	if total > 0 {
		c.Parts[0].Permille = int64(float64(o.RetainedBytes)/total*1000 + 0.5)
		c.Parts[1].Permille = 1000 - c.Parts[0].Permille
	}
	if o.EphemeralBytes > o.RetainedBytes {
		c.Largest = 1
	}
	c.dominates = report.Dominates(o, false)
	return c
}

// composeArt reads the composition under ART's code (docs/model.md §13.5):
// the largest child's retained part (rho: its forward price when cold)
// and its backward beyond it (Q - rho), which add to that child's price,
// safety included; the alternative that sets the price is named.
func composeArt(o estimator.Outcome) composition {
	c := composeRequired(o, 0)
	c.Art = true
	c.Parts[0].Label = "retained: the child's forward price"
	c.dominates = report.Dominates(o, true)
	return c
}

// largestText names the larger part: "retained checkpoints (73.0 %)".
func (c composition) largestText() string { return c.dominates }

// percentText writes tenths of a percent: 734 -> "73.4 %".
func percentText(permille int64) string {
	return strconv.FormatInt(permille/10, 10) + "." + strconv.FormatInt(permille%10, 10) + " %"
}

// compositionView draws a composition: a stacked bar of the two parts
// (widths by CSS class in steps of 5 %, as the CSP forbids inline styles),
// a two-row table of bytes and shares, the safety factor, and the largest
// part by name (id dominates-<Rev>).
func compositionView(rev string, c composition) app.UI {
	rows := make([]app.UI, 0, len(c.Parts))
	segs := make([]app.UI, 0, len(c.Parts))
	for i, p := range c.Parts {
		rows = append(rows, app.Tr().Class("part-"+p.Key, widget.ClassIf(i == c.Largest, "largest")).Body(
			app.Th().Scope("row").Body(app.Span().Class("swatch", "swatch-"+p.Key), app.Text(p.Label)),
			app.Td().Class("part-bytes").Text(p.Bytes.GiBString()+" GiB"),
			app.Td().Class("part-share").Text(percentText(p.Permille)),
		))
		segs = append(segs, app.Span().Class("bar-part", "bar-"+p.Key, "w"+strconv.FormatInt(shareStep(p.Permille), 10)))
	}
	return app.Div().ID("composition-%s", rev).Class("composition").Body(
		app.P().ID("dominates-%s", rev).Class("dominates").Body(
			app.Text("What dominates: "), // muted as the line; the part is in strong
			app.Strong().Text(c.largestText()),
		),
		app.Div().Class("bar").Aria("hidden", "true").Body(segs...),
		app.Table().Class("parts").Body(
			app.Caption().Class("visually-hidden").Text("What required is made of"),
			app.TBody().Body(rows...),
			app.TFoot().Body(app.Tr().Body(
				app.Th().Scope("row").ColSpan(3).Text(c.footer()),
			)),
		),
	)
}

// footer is the line under the parts: how they make required.
func (c composition) footer() string {
	if c.Art {
		return "= the largest child's price under ART's code (its safety factor inside each price); a split adds the other children's retained prices"
	}
	return "× safety " + strconv.FormatInt(c.Safety, 10) + " % = required"
}

// shareStep rounds a share to the bar's CSS steps of 5 %: w0 .. w100.
func shareStep(permille int64) int64 {
	return (permille + 25) / 50 * 5
}

// baselineSafety is the baseline's safety_percent: its own config's when
// it has a baseline of its own (docs/model.md §11), else the config's.
func baselineSafety(cfg estimator.Config) int64 {
	if b, err := cfg.BaselineConfig(); err == nil {
		return b.Budget.SafetyPercent
	}
	return cfg.Budget.SafetyPercent
}
