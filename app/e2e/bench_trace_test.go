//go:build bench && !wasm

package e2e

// The browser's own work during a cold load, from Chrome's trace: what the
// CPU profile (bench_profile_test.go) can only call "(program)".
//
//	go test -tags bench -run '^TestBenchTrace$' -v ./app/e2e -args -bench.trace=FILE

import (
	"cmp"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
)

var benchTrace = flag.String("bench.trace", "", "write a summary of a cold load's Chrome trace (main thread) to this file")

// traceEvent is one event of Chrome's trace (the JSON trace format).
type traceEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat"`
	Ph   string         `json:"ph"`
	Ts   float64        `json:"ts"`  // us
	Dur  float64        `json:"dur"` // us, for ph X
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	Args map[string]any `json:"args"`
}

// TestBenchTrace traces one cold load (the browser's own work on the
// page's main thread and the others: wasm compilation, parsing, style,
// layout, paint) and sums each kind of event's time, to say what the
// CPU profile calls "(program)".
func TestBenchTrace(t *testing.T) {
	if *benchTrace == "" {
		t.Skip("pass -bench.trace=FILE")
	}
	web := benchWebDir(t)
	base := benchStart(t, web)
	events, threads, lt, marks := tracedColdLoad(t, base)
	type key struct{ thread, name string }
	sum := map[key]float64{}
	count := map[key]int{}
	for _, e := range events {
		if e.Ph != "X" || e.Dur <= 0 {
			continue
		}
		th := threads[[2]int{e.Pid, e.Tid}]
		if th == "" {
			th = fmt.Sprint(e.Tid)
		}
		k := key{th, e.Name}
		sum[k] += e.Dur
		count[k]++
	}
	var keys []key
	for k := range sum {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int { return cmp.Compare(sum[b], sum[a]) })
	var b strings.Builder
	fmt.Fprintf(&b, "one cold load: HTML %.0f ms, app.wasm received %.0f ms, interactive %.0f ms\n", lt.DocEnd, lt.WasmEnd, lt.Ready)
	fmt.Fprintf(&b, "trace events by thread and name, inclusive ms (nested events count in each), count:\n")
	for i, k := range keys {
		if i == 80 {
			break
		}
		fmt.Fprintf(&b, "  %8.1f  %5d  %-24s %s\n", sum[k]/1e3, count[k], k.thread, k.name)
	}
	if p, ok := splitLoadTask(events, threads, navStart(events), marks); ok {
		fmt.Fprintf(&b, "\n%s\n", p)
	}
	writeTimeline(&b, events, threads)
	if err := os.WriteFile(*benchTrace, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", b.String())
}

// writeTimeline adds the renderer main thread's timeline to b: every
// top-level task of 2 ms or more and the paint marks, in ms since the
// navigation started, with the longest events inside each task.
func writeTimeline(b *strings.Builder, events []traceEvent, threads map[[2]int]string) {
	start := navStart(events)
	if math.IsInf(start, 1) {
		return
	}
	var main []traceEvent
	for _, e := range events {
		if threads[[2]int{e.Pid, e.Tid}] != "CrRendererMain" || e.Ts < start {
			continue
		}
		if (e.Ph == "X" && e.Dur > 0) || strings.Contains(e.Name, "Paint") && e.Ph != "X" || e.Name == "MarkDOMContent" || e.Name == "MarkLoad" {
			main = append(main, e)
		}
	}
	slices.SortFunc(main, func(a, b traceEvent) int { return cmp.Compare(a.Ts, b.Ts) })
	fmt.Fprintf(b, "\nthe renderer's main thread, ms since the navigation (or its commit) started (tasks of 2 ms or more, their eight longest events):\n")
	for i, e := range main {
		if e.Ph != "X" {
			fmt.Fprintf(b, "  %7.1f  mark %s\n", (e.Ts-start)/1e3, e.Name)
			continue
		}
		if e.Name != "RunTask" || e.Dur < 2000 {
			continue
		}
		var inner []traceEvent
		for _, f := range main[i+1:] {
			if f.Ts >= e.Ts+e.Dur {
				break
			}
			if f.Ph == "X" && !strings.Contains(f.Name, "RunTask") {
				inner = append(inner, f)
			}
		}
		slices.SortFunc(inner, func(a, b traceEvent) int { return cmp.Compare(b.Dur, a.Dur) })
		var names []string
		for _, f := range inner[:min(8, len(inner))] {
			names = append(names, fmt.Sprintf("%s %.1f", f.Name, f.Dur/1e3))
		}
		fmt.Fprintf(b, "  %7.1f  %6.1f ms  %s\n", (e.Ts-start)/1e3, e.Dur/1e3, strings.Join(names, ", "))
	}
}
