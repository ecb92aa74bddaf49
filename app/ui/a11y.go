package ui

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

// sliderUnits are the units a slider's value is read in by a screen
// reader (aria-valuetext); a field not listed is a plain count.
var sliderUnits = map[string]string{
	"rows": "rows", "sequence_rows": "rows", "chunk_rows": "rows", "projected_rows": "rows", "target_rows": "rows",
	"vocab_size": "tokens", "topk": "outputs", "num_hidden_layers": "layers",
	"num_experts_per_tok": "experts per token", estimator.KeyExpertParallel: "ranks",
	"linear_num_key_heads": "heads", "linear_num_value_heads": "heads",
	estimator.KeyCapacityBytes: "bytes", "retained_per_row_bytes": "bytes per row", "allocator_round_bytes": "bytes",
	"dtype_bytes": "bytes per element", page.KeyInUseGiB: "GiB",
	"reserve_permille": "per mille", "safety_percent": "percent",
}

// valueText is what a screen reader says a slider is at: the field's
// value with its unit ("64,902 rows", "68,451,041,280 bytes (63.750 GiB)",
// "63.75 GiB"), not the knob's position. A field left to follow other
// fields says "(auto)"; a field in error reads its text as typed.
func valueText(key, text, placeholder string) string {
	unit := sliderUnits[key]
	auto := ""
	if strings.TrimSpace(text) == "" {
		// The placeholder says "auto (1,234)" or "auto".
		text, auto = strings.Trim(strings.TrimPrefix(placeholder, "auto"), " ()"), " (auto)"
		if text == "" {
			return "auto"
		}
	}
	t := strings.TrimSpace(text)
	if n, err := strconv.ParseInt(strings.ReplaceAll(t, ",", ""), 10, 64); err == nil && key != page.KeyInUseGiB {
		if unit == "bytes" {
			return estimator.Bytes(n).String() + auto
		}
		t = estimator.Group(n)
	}
	if unit == "" {
		return t + auto
	}
	return t + " " + unit + auto
}

// chartSummary is the chart's text for a screen reader (and anyone who
// cannot see it): what it sweeps, each revision's decisions along the
// axis and where the candidate decides otherwise.
func chartSummary(axis string, from, to int64, notes flipNotes) string {
	if axis == "" {
		return "The chart is being drawn."
	}
	s := "Chart of the required bytes of the chosen plan along " + axis + ", from " + estimator.Group(from) +
		" to " + estimator.Group(to) + ", baseline and candidate, against the bytes available. "
	if notes.Baseline != "" {
		s += "The baseline " + notes.Baseline + ". "
	}
	if notes.Candidate != "" {
		s += "The candidate " + notes.Candidate + ". "
	}
	if notes.Change != "" {
		s += capitalize(notes.Change) + "."
	}
	return strings.TrimSpace(s)
}

// skipLink is the page's first element: a link, visible when focused,
// that moves the focus to the results (id results). go-app would take the
// click for a navigation (and push a history entry), so the link handles
// it: it focuses the results and scrolls them into view.
type skipLink struct {
	app.Compo

	Sink *widget.Sink
}

// Render draws the link.
func (l *skipLink) Render() (ui app.UI) {
	defer l.Sink.CatchRender("drawing the skip link", &ui)
	return app.A().ID("skip-to-results").Class("skip-link").Href("#results").Text("Skip to results").OnClick(l.onClick)
}

func (l *skipLink) onClick(ctx app.Context, e app.Event) {
	defer l.Sink.Catch("skipping to the results")
	e.PreventDefault()
	e.Call("stopPropagation")
	if el := app.Window().GetElementByID("results"); el.Truthy() {
		el.Call("focus")
		el.Call("scrollIntoView")
	}
}

// chartSummaryText is chartSummary of the chart on screen.
func (c *explorer) chartSummaryText(axis string) string {
	in, ok := c.sweeps.Last()
	if !ok || !c.shown.ready {
		return chartSummary("", 0, 0, flipNotes{})
	}
	return chartSummary(axis, in.From, in.To, c.shown.notes)
}
