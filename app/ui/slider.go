package ui

import (
	"math"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// sliderSteps is the range input's resolution; exact values go through
// the number field.
const sliderSteps = 1000

// slider is one numeric control: a range input paired with a text field
// that takes exact values, and the message about its value. The range
// input may be logarithmic; the field always shows what was typed.
type slider struct {
	app.Compo

	Key         string  // control key: ids slider-<Key>, input-<Key>
	ErrKey      string  // id error-<ErrKey>
	Label, Doc  string  // what the control is
	Min, Max    float64 // the range input's span, in the field's unit
	Step        float64 // values the range input sends are multiples of Step
	Log         bool    // the range input is logarithmic
	Pow2        bool    // the range input sends powers of two
	Decimal     bool    // the field takes a fraction (GiB)
	Value       float64 // current value, for the thumb
	Text        string  // the field's text
	Placeholder string
	Error       string
	Sink        *editSink

	// The thumb's position while it is dragged: the value it sends may map
	// back to a slightly different position, and the thumb must not jump.
	dragText string
	dragPos  int
}

// position maps a value to the range input's position.
func (s *slider) position(v float64) int {
	lo, hi := s.Min, s.Max
	if hi <= lo {
		return 0
	}
	v = math.Max(lo, math.Min(hi, v))
	t := (v - lo) / (hi - lo)
	if s.Log {
		t = math.Log1p(v-lo) / math.Log1p(hi-lo)
	}
	return int(math.Round(t * sliderSteps))
}

// valueAt maps a position of the range input to a value.
func (s *slider) valueAt(pos int) float64 {
	t := float64(pos) / sliderSteps
	v := s.Min + t*(s.Max-s.Min)
	if s.Log {
		v = s.Min + math.Expm1(t*math.Log1p(s.Max-s.Min))
	}
	if s.Pow2 && v >= 1 {
		v = math.Exp2(math.Round(math.Log2(v)))
	}
	if s.Step > 0 {
		v = math.Round(v/s.Step) * s.Step
	}
	return math.Max(s.Min, math.Min(s.Max, v))
}

// format writes a value as the field shows it.
func (s *slider) format(v float64) string {
	if s.Decimal {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatInt(int64(v), 10)
}

// Render draws the control.
func (s *slider) Render() (ui app.UI) {
	defer s.Sink.catchRender("drawing "+s.Key, &ui)
	pos := s.position(s.Value)
	if s.Text == s.dragText {
		pos = s.dragPos
	}
	mode := "numeric"
	if s.Decimal {
		mode = "decimal"
	}
	return app.Div().Class("control", classIf(s.Error != "", "has-error")).Body(
		app.Label().For("input-%s", s.Key).Class("control-label").Title("%s", s.Doc).Body(
			app.Span().Class("control-name").Text(s.Label),
			app.Span().Class("control-doc").Text(s.Doc),
		),
		app.Div().Class("control-row").Body(
			app.Input().Type("range").ID("slider-%s", s.Key).
				Min(0).Max(sliderSteps).Step(1).Value(pos).
				Aria("label", s.Label).Aria("valuetext", valueText(s.Key, s.Text, s.Placeholder)).
				OnInput(s.onSlide).OnChange(s.onSettle),
			app.Input().Type("text").ID("input-%s", s.Key).Class("number").
				Attr("inputmode", mode).AutoComplete(false).Spellcheck(false).
				Placeholder("%s", s.Placeholder).
				Value(s.Text).
				Aria("invalid", s.Error != "").
				Aria("describedby", "error-"+s.ErrKey).
				OnInput(s.onType).OnChange(s.onCommit),
		),
		app.Span().ID("error-%s", s.ErrKey).Class("control-error").Aria("live", "polite").Text(s.Error),
	)
}

func (s *slider) onSlide(ctx app.Context, e app.Event) {
	defer s.Sink.catch("moving " + s.Key)
	pos, err := strconv.Atoi(ctx.JSSrc().Get("value").String())
	if err != nil {
		return
	}
	text := s.format(s.valueAt(pos))
	s.dragText, s.dragPos = text, pos
	s.Sink.send(ctx, edit{Kind: editText, Key: s.Key, Text: text})
}

func (s *slider) onType(ctx app.Context, e app.Event) {
	defer s.Sink.catch("typing into " + s.Key)
	s.Sink.send(ctx, edit{Kind: editText, Key: s.Key, Text: ctx.JSSrc().Get("value").String()})
}

// classIf returns class when cond holds, else "" (which go-app ignores).
func classIf(cond bool, class string) string {
	if cond {
		return class
	}
	return ""
}

// onSettle ends a drag (the range input's change: the knob released, or a
// key press), so the next edit starts a new history entry.
func (s *slider) onSettle(ctx app.Context, e app.Event) {
	defer s.Sink.catch("releasing " + s.Key)
	s.Sink.send(ctx, edit{Kind: editSettle, Key: s.Key})
}

// onCommit ends typing into the field (Enter, or leaving the field).
func (s *slider) onCommit(ctx app.Context, e app.Event) {
	defer s.Sink.catch("committing " + s.Key)
	s.Sink.send(ctx, edit{Kind: editSettle, Key: s.Key})
}
