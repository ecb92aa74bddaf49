package ui

import (
	"runtime/debug"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
)

// editSink carries edits from the components to the explorer, and the
// panics they recover to its error banner. Every component gets a pointer
// to the explorer's one sink as a prop: go-app compares props with
// reflect.DeepEqual, which finds two equal pointers equal without looking
// inside, whereas a func prop never compares equal and would re-render its
// component on every update.
type editSink struct {
	apply func(ctx app.Context, e page.Edit)
	fail  func(where string, r any, stack []byte)
}

// send hands an edit to the explorer, synchronously, so edits keep their
// order.
func (s *editSink) send(ctx app.Context, e page.Edit) {
	if s != nil && s.apply != nil {
		s.apply(ctx, e)
	}
}

// catch recovers a panic in an event handler and reports it; deferred
// directly (defer c.Sink.catch("...")) so that recover sees the panic.
func (s *editSink) catch(where string) {
	if r := recover(); r != nil {
		s.report(where, r, debug.Stack())
	}
}

// catchRender recovers a panic in a Render method, reports it, and puts a
// note in place of the component, so the rest of the page still renders.
func (s *editSink) catchRender(where string, ui *app.UI) {
	if r := recover(); r != nil {
		s.report(where, r, debug.Stack())
		*ui = app.Div().Class("render-failed").Text("This part of the page failed to draw; see the message at the top.")
	}
}

func (s *editSink) report(where string, r any, stack []byte) {
	if s != nil && s.fail != nil {
		s.fail(where, r, stack)
	}
}
