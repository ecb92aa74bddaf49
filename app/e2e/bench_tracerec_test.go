//go:build bench && !wasm

package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// traceRecorder collects the events of one Chrome trace of a target, as
// make bench's traced loads and visits take them.
type traceRecorder struct {
	mu     sync.Mutex
	events []traceEvent
	done   chan struct{}
}

// startTrace starts tracing tg with cfg and keeps the events keep accepts
// (all when keep is nil). Call it inside a chromedp.Func; stop ends it.
func startTrace(ctx context.Context, tg *chromedp.Target, cfg *tracing.TraceConfig, keep func(traceEvent) bool) (*traceRecorder, error) {
	r := &traceRecorder{done: make(chan struct{})}
	data := cdp.Events(ctx, tg, tracing.DataCollected)
	complete := cdp.Events(ctx, tg, tracing.TracingComplete)
	go func() {
		for ev, err := range data {
			if err != nil {
				return
			}
			r.mu.Lock()
			for _, raw := range ev.Value {
				var e traceEvent
				if json.Unmarshal([]byte(raw), &e) == nil && (keep == nil || keep(e)) {
					r.events = append(r.events, e)
				}
			}
			r.mu.Unlock()
		}
	}()
	go func() {
		for range complete {
			close(r.done)
			return
		}
	}()
	_, err := cdp.Call(ctx, tg, tracing.Start, tracing.StartParams{
		TransferMode: tracing.StartTransferModeReportEvents,
		TraceConfig:  cfg,
	})
	return r, err
}

// stop ends the trace and returns its events once Chrome has sent them
// all, or an error when ctx ends first.
func (r *traceRecorder) stop(ctx context.Context) ([]traceEvent, error) {
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, tracing.End, cdp.Empty{})
		return err
	})); err != nil {
		return nil, err
	}
	select {
	case <-r.done:
	case <-ctx.Done():
		return nil, errors.New("the trace did not complete")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]traceEvent(nil), r.events...), nil
}

// collectGarbage has V8 collect the page's garbage now
// (HeapProfiler.collectGarbage), as the memory and node figures after a
// forced collection need.
func collectGarbage(ctx context.Context) error {
	return chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, heapprofiler.CollectGarbage, cdp.Empty{})
		return err
	}))
}
