package widget

import (
	"runtime/debug"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
)

// Sink carries edits from the components to the explorer, and the
// panics they recover to its error banner. Every component gets a pointer
// to the explorer's one sink as a prop: go-app compares props with
// reflect.DeepEqual, which finds two equal pointers equal without looking
// inside, whereas a func prop never compares equal and would re-render its
// component on every update.
type Sink struct {
	Apply func(ctx app.Context, e page.Edit)
	Fail  func(where string, r any, stack []byte)
}

// Send hands an edit to the explorer, synchronously, so edits keep their
// order.
func (s *Sink) Send(ctx app.Context, e page.Edit) {
	if s != nil && s.Apply != nil {
		s.Apply(ctx, e)
	}
}

// Catch recovers a panic in an event handler and reports it; deferred
// directly (defer c.Sink.Catch("...")) so that recover sees the panic.
func (s *Sink) Catch(where string) {
	if r := recover(); r != nil {
		s.Report(where, r, debug.Stack())
	}
}

// CatchRender recovers a panic in a Render method, reports it, and puts a
// note in place of the component, so the rest of the page still renders.
func (s *Sink) CatchRender(where string, ui *app.UI) {
	if r := recover(); r != nil {
		s.Report(where, r, debug.Stack())
		*ui = app.Div().Class("render-failed").Text("This part of the page failed to draw; see the message at the top.")
	}
}

func (s *Sink) Report(where string, r any, stack []byte) {
	if s != nil && s.Fail != nil {
		s.Fail(where, r, stack)
	}
}
