//go:build bench && !wasm

package e2e

// first_visit_wire_bytes: every byte a first visit moves between the
// browser and the server, the service worker's own fetches included.

import (
	"context"
	"fmt"
	"net"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"headroom/app/server"
)

// countingListener counts the bytes read and written on every connection
// it accepts: what crosses the loopback, HTTP headers included.
type countingListener struct {
	net.Listener
	n atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, n: &l.n}, nil
}

type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	k, err := c.Conn.Read(p)
	c.n.Add(int64(k))
	return k, err
}

func (c *countingConn) Write(p []byte) (int, error) {
	k, err := c.Conn.Write(p)
	c.n.Add(int64(k))
	return k, err
}

// TestBenchFirstVisit measures first_visit_wire_bytes alone (TestBench
// measures it with the rest), three visits, each in a new browser
// context; it prints each and the median.
//
//	go test -tags bench -run '^TestBenchFirstVisit$' -v ./app/e2e
func TestBenchFirstVisit(t *testing.T) {
	web := benchWebDir(t)
	benchStart(t, web)
	var bytes []float64
	for range 3 {
		bytes = append(bytes, float64(firstVisitBytes(t, web)))
	}
	t.Logf("first visits: %v bytes", bytes)
	fmt.Println(figure{"first_visit_wire_bytes", percentile(bytes, 50), "bytes"})
}

// firstVisitBytes serves web on a server of its own whose listener counts
// bytes, opens the page once in a new browser context (an empty cache, no
// service worker, the HTTP cache on, as a person's first visit), waits for
// the page to be interactive and the service worker to be activated (its
// install has cached everything it caches), and returns the bytes that
// crossed the connections, both ways.
//
// The count is taken at the server's TCP connections rather than from
// the DevTools Network domain: the worker is a target of its own, whose
// install fetches run before a session attached to it could enable
// Network. The page's own Network events (loadingFinished's
// encodedDataLength, headers included) are logged beside it.
func firstVisitBytes(t *testing.T, web string) int64 {
	t.Helper()
	s, err := server.New(web, testAppHandler())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := &countingListener{Listener: inner}
	sctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- server.ServeUntil(sctx, server.NewHTTPServer(s, os.Stderr), ln) }()
	defer func() {
		stop()
		if err := <-done; err != nil {
			t.Logf("first-visit server shutdown: %v", err)
		}
	}()
	base := "http://" + inner.Addr().String()

	ctx, cancel := chromedp.NewContext(e2e.browser, chromedp.WithNewBrowserContext())
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, time.Minute)
	defer cancelT()
	var pageBytes atomic.Int64
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventLoadingFinished); ok {
			pageBytes.Add(int64(e.EncodedDataLength))
		}
	}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{})
			return err
		}),
		chromedp.EmulateViewport(1280, 800), chromedp.Navigate(base+"/")); err != nil {
		t.Fatalf("first visit: %v", err)
	}
	last, err := chromedp.Run(ctx, chromedp.Poll[string](`(async () => {
		const e = document.getElementById('explorer');
		if (!e || e.dataset.ready !== '1') return null;
		const reg = await navigator.serviceWorker.getRegistration();
		if (!reg || !reg.active || reg.active.state !== 'activated' || reg.installing || reg.waiting) return null;
		return 'activated';
	})()`, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(50*time.Second)))
	if err != nil {
		t.Fatalf("first visit: the page interactive and the service worker activated: %v (last: %q)", err, last)
	}
	n := ln.n.Load()
	entries, _ := chromedp.Run(ctx, chromedp.Evaluate[[]map[string]any](`performance.getEntriesByType('resource').map(e => ({name: e.name, transfer: e.transferSize}))`))
	t.Logf("first visit: %d bytes on the server's connections, both ways; the page's Network events: %d bytes; its resources: %v",
		n, pageBytes.Load(), entries)
	return n
}
