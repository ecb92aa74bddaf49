//go:build !wasm

package main

import (
	"context"
	"io"
	"net"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/server"
)

// testAppHandler routes the explorer (as main does; routing again is
// harmless) and returns the real go-app handler with its Version fixed,
// so that tests do not depend on the time they start.
func testAppHandler() *app.Handler {
	registerRoutes()
	h := appHandler()
	h.Version = "test"
	return h
}

// startTestServer serves web and the explorer on a free loopback port
// with the server's real limits, and stops the server when the test ends;
// it returns the base URL ("http://127.0.0.1:port").
func startTestServer(t testing.TB, web string) string {
	t.Helper()
	s, err := server.New(web, testAppHandler())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- server.ServeUntil(ctx, server.NewHTTPServer(s, io.Discard), ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server shutdown: %v", err)
		}
		s.Close()
	})
	return "http://" + ln.Addr().String()
}
