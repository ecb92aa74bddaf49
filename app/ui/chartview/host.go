package chartview

import (
	"runtime/debug"
	"sync/atomic"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/widget"
)

// Host is the pointer's way into the page, as workload.Loader is the
// Workload panel's: edits and failures go through the page's Sink; like
// it, the explorer's one Host is handed as a pointer.
type Host struct {
	Sink *widget.Sink // edits (a click, a drag, a key) and failures
	// Dispatch runs fn on go-app's UI goroutine, after the current task
	// (the browser's events and observers reach the page through it).
	Dispatch func(fn func(ctx app.Context))
	// Resized says #chart's width may have changed with no resize of the
	// window (a scroll bar appeared, a panel beside it grew): the page
	// measures it and draws the chart again at the new width.
	Resized func()
	// Width is #chart's width as the page last measured it, in CSS pixels.
	Width func() int
}

// Pointer is the chart's pointer and keyboard. The page draws the chart
// once per state; what follows the pointer is an overlay over the SVG,
// laid out from the Drawing of the chart on screen (Show), so a pointer move
// draws nothing again. In the browser it listens on #chart
// (pointer_wasm.go); elsewhere it does nothing.
type Pointer struct {
	Host *Host

	view atomic.Pointer[Drawing] // the chart on screen, as the overlay reads it
	p    chartPointer
}

// Show makes v the chart on screen: the next AfterRender lays it out.
func (pt *Pointer) Show(v *Drawing) { pt.view.Store(v) }

// catch recovers a panic in one of the pointer's callbacks and reports
// it through the Sink; deferred directly, so that recover sees it.
func (pt *Pointer) catch(where string) {
	if r := recover(); r != nil {
		pt.Host.Sink.Report(where, r, debug.Stack())
	}
}
