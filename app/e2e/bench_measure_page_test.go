//go:build bench && !wasm

package e2e

// make bench-measure-page: generated snapshots read on the Observed peaks
// panel of the build make wasm leaves in web/, each in a fresh tab: the
// seconds from the pick to the result shown, MB of file per second, the
// WebAssembly memory after the read (Go's heap never gives memory back,
// so that is its peak), the longest main-thread task, and the longest gap
// between two animation frames while it read (how long an input could
// wait) and including the result's drawing.

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

var (
	benchPageSizes = flag.String("bench.pagesizes", "100,1024", "TestBenchMeasurePage's snapshot sizes in MiB, comma-separated")
	benchPageRuns  = flag.Int("bench.pageruns", 1, "TestBenchMeasurePage's reads of each size, each in a fresh tab")
	benchPageDir   = flag.String("bench.pagedir", filepath.Join("..", "..", "bin", "bench-measure"), "where TestBenchMeasurePage writes its snapshots (make bench-measure's, reused)")
)

// TestBenchMeasurePage reads each size -bench.pageruns times and prints a
// line a read.
//
//	go test -count=1 -tags bench -run '^TestBenchMeasurePage$' -timeout 90m -v ./app/e2e -args -bench.pagesizes=100,1024
func TestBenchMeasurePage(t *testing.T) {
	web := benchWebDir(t)
	benchStart(t, web)
	if err := os.MkdirAll(*benchPageDir, 0o755); err != nil {
		t.Fatal(err)
	}
	link, _ := measuredLink(t)
	fmt.Printf("%-10s %14s %9s %7s %13s %16s %17s %16s %s\n", "snapshot", "bytes", "seconds", "MB/s", "wasm_mem_MB", "longest_task_ms",
		"reading_frame_ms", "longest_frame_ms", "peak shown")
	for _, f := range strings.Split(*benchPageSizes, ",") {
		mib, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || mib < 1 {
			t.Fatalf("-bench.pagesizes: %q is not a size in MiB", f)
		}
		// The generator overshoots its target by up to half a percent, and
		// the page takes at most 1 GiB: 99 % of the size is aimed at.
		path, err := filepath.Abs(filepath.Join(*benchPageDir, fmt.Sprintf("page-snapshot-%dMiB.pickle", mib)))
		if err != nil {
			t.Fatal(err)
		}
		size := writeGeneratedSnapshot(t, path, int64(mib)<<20*99/100)
		if size > int64(mib)<<20 {
			t.Fatalf("%s has %d bytes, more than %d MiB", path, size, mib)
		}
		for i := 0; i < *benchPageRuns; i++ {
			func() {
				tb := newTabFor(t, 60*time.Minute)
				tb.probeWasm()
				tb.open(link)
				tb.waitFor("the measured part of the panel", `!!document.getElementById('measured-status')`, 10*time.Second)
				r := tb.readPicked(path, false, 50*time.Minute)
				peak := eval[string](tb, `document.getElementById('measured-peak-0')?.dataset.peakBytes ?? '-'`)
				fmt.Printf("%-10s %14d %9.1f %7.1f %13.0f %16.0f %17.0f %16.0f %s\n", fmt.Sprintf("%dMiB", mib), size, r.Seconds,
					float64(size)/1e6/r.Seconds, r.WasmMemoryBytes/1e6, r.LongestTaskMS, r.ReadingFrameMS, r.LongestFrameMS, peak)
				t.Logf("%dMiB: passes %v, bar %v, %d long tasks; while reading %d frames, %d gaps over 50 ms, the 99th percentile %.0f ms, the longest at %v; %s",
					mib, r.Passes, r.Bar, r.LongTasks, r.ReadingFrames, r.GapsOver50, r.P99ReadingMS, r.ReadingGapAt, r.Status)
			}()
		}
	}
}
