package widget

import (
	"math"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
)

// Steps is the range input's resolution; exact values go through
// the number field.
const Steps = 1000

// Slider is one numeric control: a range input paired with a text field
// that takes exact values, and the message about its value. The range
// input may be logarithmic; the field always shows what was typed.
type Slider struct {
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
	ValueText   string // what a screen reader says it is at: the field's value with its unit
	Note        string // shown under the field when not empty (id note-<Key>): the in-use bytes in GiB
	Error       string
	Sink        *Sink

	// The thumb's position while it is dragged: the value it sends may map
	// back to a slightly different position, and the thumb must not jump.
	dragText string
	dragPos  int
}

// Position maps a value to the range input's Position.
func (s *Slider) Position(v float64) int {
	lo, hi := s.Min, s.Max
	if hi <= lo {
		return 0
	}
	v = math.Max(lo, math.Min(hi, v))
	t := (v - lo) / (hi - lo)
	if s.Log {
		t = math.Log1p(v-lo) / math.Log1p(hi-lo)
	}
	return int(math.Round(t * Steps))
}

// ValueAt maps a position of the range input to a value.
func (s *Slider) ValueAt(pos int) float64 {
	t := float64(pos) / Steps
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

// Format writes a value as the field shows it.
func (s *Slider) Format(v float64) string {
	if s.Decimal {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatInt(int64(v), 10)
}

// Render draws the control.
func (s *Slider) Render() (ui app.UI) {
	defer s.Sink.CatchRender("drawing "+s.Key, &ui)
	pos := s.thumb()
	mode := "numeric"
	if s.Decimal {
		mode = "decimal"
	}
	// The control's events are taken on its box, as they bubble up from
	// its two inputs: three listeners per control instead of five, each of
	// which go-app makes (a JavaScript function and addEventListener)
	// when the page mounts.
	return app.Div().Class("control", ClassIf(s.Error != "", "has-error")).
		OnInput(s.onInput).OnChange(s.onChange).OnKeyDown(s.onKey).Body(
		app.Label().For("input-%s", s.Key).Class("control-label", "control-name").Title("%s", s.Doc).Body(
			app.Text(s.Label), // the label is the name: no element around it
			app.If(s.Doc != "", app.Span().Class("control-doc").Text(s.Doc)),
		),
		app.Div().Class("control-row").Body(
			s.rangeInput(pos),
			app.Input().Type("text").ID("input-%s", s.Key).Class("number").
				Attr("inputmode", mode).AutoComplete(false).Spellcheck(false).
				Placeholder("%s", s.Placeholder).
				Value(Attr(s.Text)).
				Aria("invalid", s.Error != "").
				Aria("describedby", "error-"+s.ErrKey),
		),
		SomeText(app.Span().ID("error-%s", s.ErrKey).Class("control-error").Aria("live", "polite"), s.Error),
		app.If(s.Note != "", app.Span().ID("note-%s", s.Key).Class("control-note").Text(s.Note)),
	)
}

// rangeInput is the range input at position pos. In the server's HTML
// the value is an attribute (the parser reads every attribute before it
// clamps the value). In the browser go-app applies attributes in map
// order, and a value set before max is clamped to the default maximum,
// 100: there the value is the element's property, set after the
// attributes, in OnMount and OnUpdate (syncThumb).
func (s *Slider) rangeInput(pos int) app.UI {
	in := app.Input().Type("range").ID("slider-%s", s.Key).
		Min(0).Max(Steps).Step(1).
		Aria("label", s.Label).Aria("valuetext", Attr(s.ValueText))
	if !app.IsClient {
		in = in.Value(pos)
	}
	return in
}

// thumb is the range input's position: the value's, or the dragged
// thumb's while the field holds what the drag sent.
func (s *Slider) thumb() int {
	if s.dragText != "" && s.Text == s.dragText { // "" is also a field left to its default
		return s.dragPos
	}
	return s.Position(s.Value)
}

// OnMount puts the thumb where the value is.
func (s *Slider) OnMount(ctx app.Context) {
	defer s.Sink.Catch("placing the " + s.Key + " slider")
	s.syncThumb()
}

// OnUpdate puts the thumb where the new value is.
func (s *Slider) OnUpdate(ctx app.Context) {
	defer s.Sink.Catch("placing the " + s.Key + " slider")
	s.syncThumb()
}

// syncThumb sets the range input's value property (see rangeInput).
func (s *Slider) syncThumb() {
	if el := app.Window().GetElementByID("slider-" + s.Key); el != nil && el.Truthy() {
		el.Set("value", strconv.Itoa(s.thumb()))
	}
}

// Next is the nearest value the range input can send beyond the field's
// value v, upwards (up) or downwards, and the first position that sends
// it; ok is false at the slider's end. An arrow key moves to it, so it always moves the
// field, however coarse the scale is there (a log scale's positions are
// far apart at its top, and several positions may round to one value).
func (s *Slider) Next(v float64, up bool) (value float64, pos int, ok bool) {
	if up {
		for p := 0; p <= Steps; p++ {
			if x := s.ValueAt(p); x > v {
				return x, p, true
			}
		}
		return v, 0, false
	}
	for p := Steps; p >= 0; p-- {
		if x := s.ValueAt(p); x < v {
			return x, p, true
		}
	}
	return v, 0, false
}

// rangeTarget reports whether an event of the control came from its
// range input (else from its field).
func rangeTarget(e app.Event) (app.Value, bool) {
	t := e.Get("target")
	return t, t.Get("type").String() == "range"
}

// onInput is the control's input event: a slide of the range input, or
// typing in the field.
func (s *Slider) onInput(ctx app.Context, e app.Event) {
	if t, isRange := rangeTarget(e); isRange {
		s.onSlide(ctx, t)
	} else {
		s.onType(ctx, t)
	}
}

// onChange is the control's change event: the range input released, or
// the field committed.
func (s *Slider) onChange(ctx app.Context, e app.Event) {
	if _, isRange := rangeTarget(e); isRange {
		s.onSettle(ctx)
	} else {
		s.onCommit(ctx)
	}
}

// onKey moves the field with the arrow keys on the range input: right
// and up to the next value above, left and down to the next below. Other
// keys (Page Up, Home, ...), and keys in the field, keep the browser's
// behaviour.
func (s *Slider) onKey(ctx app.Context, e app.Event) {
	defer s.Sink.Catch("moving " + s.Key + " with a key")
	t, isRange := rangeTarget(e)
	up, ok := keyStep(e.Get("key").String(), isRange)
	if !ok {
		return
	}
	e.PreventDefault()
	v, _, ok := s.Next(s.Value, up)
	if !ok {
		return
	}
	text := s.Format(v)
	s.dragText = "" // the thumb goes where the value is, as for a typed value
	if isRange {
		t.Set("value", strconv.Itoa(s.Position(v)))
	}
	s.Sink.Send(ctx, page.Edit{Kind: page.EditText, Key: s.Key, Text: text})
}

// keyStep reads a key pressed in a slider's control: whether it moves
// the value, and up or down. On the range input the four arrows do; in
// the number field Up and Down do, as in a number input (they did
// nothing there), while Left and Right move the caret.
func keyStep(key string, isRange bool) (up, ok bool) {
	switch {
	case key == "ArrowUp" || isRange && key == "ArrowRight":
		return true, true
	case key == "ArrowDown" || isRange && key == "ArrowLeft":
		return false, true
	}
	return false, false
}

// onSlide takes the range input's new position.
func (s *Slider) onSlide(ctx app.Context, in app.Value) {
	defer s.Sink.Catch("moving " + s.Key)
	pos, err := strconv.Atoi(in.Get("value").String())
	if err != nil {
		return
	}
	text := s.Format(s.ValueAt(pos))
	s.dragText, s.dragPos = text, pos
	s.Sink.Send(ctx, page.Edit{Kind: page.EditText, Key: s.Key, Text: text})
}

// onType takes the field's text.
func (s *Slider) onType(ctx app.Context, in app.Value) {
	defer s.Sink.Catch("typing into " + s.Key)
	s.Sink.Send(ctx, page.Edit{Kind: page.EditText, Key: s.Key, Text: in.Get("value").String()})
}

// onCommit tells the explorer the field was committed (Enter, or the
// focus left it), so it shows the value as the page reads it.
func (s *Slider) onCommit(ctx app.Context) {
	defer s.Sink.Catch("committing " + s.Key)
	s.Sink.Send(ctx, page.Edit{Kind: page.EditCommit, Key: s.Key})
}

// ClassIf returns class when cond holds, else "" (which go-app ignores).
func ClassIf(cond bool, class string) string {
	if cond {
		return class
	}
	return ""
}

// onSettle ends a drag (the range input's change: the knob released, or a
// key press), so the next edit starts a new history entry.
func (s *Slider) onSettle(ctx app.Context) {
	defer s.Sink.Catch("releasing " + s.Key)
	s.Sink.Send(ctx, page.Edit{Kind: page.EditSettle, Key: s.Key})
}
