//go:build !wasm

package e2e

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"headroom/app/server"
	"headroom/app/server/servertest"
)

// The load check is short by default so that make test stays quick; the
// issue's full run is -loadcheck.duration=20s.
var (
	loadDuration = flag.Duration("loadcheck.duration", 3*time.Second, "how long TestLoadCheck sends traffic (full run: 20s)")
	loadClients  = flag.Int("loadcheck.clients", 50, "concurrent clients of TestLoadCheck")
)

// loadMaxRequests bounds the check in count as well as in time.
const loadMaxRequests = 1_000_000

// loadHeapGrowth bounds how much the live heap may grow over the run:
// each request's garbage must be collectable, whatever the duration.
const loadHeapGrowth = 32 << 20

// TestLoadCheck sends the page and app.wasm (as a browser asks for it:
// Accept-Encoding br, gzip) from concurrent clients to a server on
// loopback for a bounded time, and checks that no request fails, that the
// heap does not grow, and that no goroutine is left behind. It serves the
// project's web/ when make wasm has built it, else a synthetic app.wasm.
func TestLoadCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("load check skipped in -short mode")
	}
	web, what := loadWeb(t)
	base := startTestServer(t, web)
	transport := &http.Transport{
		MaxIdleConnsPerHost: *loadClients,
		DisableCompression:  true, // count the bytes the server sends
	}
	client := &http.Client{Transport: transport, Timeout: 30 * time.Second}
	targets := []struct {
		path   string
		header http.Header
	}{
		{"/", nil},
		{"/web/app.wasm", http.Header{"Accept-Encoding": {"br, gzip"}}},
	}
	fetch := func(i int) (int64, error) {
		tg := targets[i%len(targets)]
		req, err := http.NewRequest("GET", base+tg.path, nil)
		if err != nil {
			return 0, err
		}
		for k, v := range tg.header {
			req.Header[k] = v
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		n, err := io.Copy(io.Discard, resp.Body)
		if err != nil {
			return n, fmt.Errorf("GET %s: %v after %d bytes", tg.path, err, n)
		}
		if resp.StatusCode != http.StatusOK {
			return n, fmt.Errorf("GET %s: status %d", tg.path, resp.StatusCode)
		}
		return n, nil
	}
	for i := range targets { // warm up: go-app builds its resources once
		if _, err := fetch(i); err != nil {
			t.Fatal(err)
		}
	}
	goroutines := runtime.NumGoroutine()
	before := heapAfterGC()

	var requests, bytes, failures atomic.Int64
	var perTarget [2]atomic.Int64 // completed requests of each target
	var firstErr error
	var errOnce sync.Once
	latencies := make([][]time.Duration, *loadClients)
	start := time.Now()
	deadline := start.Add(*loadDuration)
	var wg sync.WaitGroup
	for c := range *loadClients {
		wg.Go(func() {
			for i := c; time.Now().Before(deadline) && requests.Add(1) <= loadMaxRequests; i++ {
				t0 := time.Now()
				n, err := fetch(i)
				latencies[c] = append(latencies[c], time.Since(t0))
				perTarget[i%len(targets)].Add(1)
				bytes.Add(n)
				if err != nil {
					failures.Add(1)
					errOnce.Do(func() { firstErr = err })
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	all := slices.Concat(latencies...)
	slices.Sort(all)
	done := int64(len(all))

	transport.CloseIdleConnections()
	after := heapAfterGC()
	growth := int64(after.HeapInuse) - int64(before.HeapInuse)
	t.Logf("load check: %d clients for %v on loopback, serving %s", *loadClients, elapsed.Round(time.Millisecond), what)
	t.Logf("  %d requests (%d of the page, %d of app.wasm), %.0f requests/s, %.1f MiB/s sent, %d failed",
		done, perTarget[0].Load(), perTarget[1].Load(),
		float64(done)/elapsed.Seconds(), float64(bytes.Load())/(1<<20)/elapsed.Seconds(), failures.Load())
	if done > 0 {
		t.Logf("  latency p50 %v, p99 %v, max %v", all[done/2].Round(time.Microsecond),
			all[done*99/100].Round(time.Microsecond), all[done-1].Round(time.Microsecond))
	}
	t.Logf("  heap in use after GC: %.1f MiB before, %.1f MiB after (%+.1f MiB); %.1f KiB allocated per request",
		mib(before.HeapInuse), mib(after.HeapInuse), float64(growth)/(1<<20),
		float64(after.TotalAlloc-before.TotalAlloc)/1024/float64(max(done, 1)))
	if failures.Load() > 0 {
		t.Errorf("%d of %d requests failed; first: %v", failures.Load(), done, firstErr)
	}
	if done == 0 {
		t.Errorf("no request completed")
	}
	if growth > loadHeapGrowth {
		t.Errorf("heap in use grew by %.1f MiB, more than %.0f MiB", float64(growth)/(1<<20), float64(loadHeapGrowth)/(1<<20))
	}
	// Connections close and their goroutines end.
	for wait := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > goroutines+2; {
		if time.Now().After(wait) {
			t.Errorf("%d goroutines after the run, %d before", runtime.NumGoroutine(), goroutines)
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// loadWeb returns the web directory to load: the project's when app.wasm
// is built (the real sizes), else a synthetic one.
func loadWeb(t *testing.T) (dir, what string) {
	if web, err := server.FindWebDir(""); err == nil {
		if fi, err := os.Stat(filepath.Join(web, "app.wasm")); err == nil {
			return web, fmt.Sprintf("the project's web/ (app.wasm %.1f MiB)", mib(uint64(fi.Size())))
		}
	}
	web, wasm := servertest.Web(t)
	return web, fmt.Sprintf("a synthetic app.wasm of %.1f MiB (make wasm for the real one)", mib(uint64(len(wasm))))
}

func heapAfterGC() runtime.MemStats {
	runtime.GC()
	runtime.GC() // the second cycle frees what the first one's finalizers released
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }
