//go:build !wasm

package e2e

import (
	"context"
	"io"
	"net"
	"os"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/server"
	"headroom/app/ui"
	"headroom/estimator"
)

// mainPackage is the command the tests build to WebAssembly: the page
// as make wasm builds it.
const mainPackage = "headroom/app"

// testAppHandler routes the explorer as main's registerRoutes does
// (app/routes.go: the one page, from its constructor; routing again is
// harmless) and returns the real go-app handler with its Version fixed,
// so that tests do not depend on the time they start.
func testAppHandler() *app.Handler {
	app.RouteFunc("/", ui.NewExplorer)
	h := ui.Handler()
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
		if err := <-done; err != nil && !strings.Contains(err.Error(), "closed") {
			t.Errorf("server shutdown: %v", err)
		}
		s.Close()
	})
	return "http://" + ln.Addr().String()
}

// pressureConfig is the default config under memory pressure: the rows
// sweep crosses admit, split and refuse (the same fixture as app/ui's).
func pressureConfig() estimator.Config {
	c := estimator.Default()
	c.Request.Rows = 200000
	c.Budget.InUseBytes = 68451041280
	return c
}

// readHF reads a Hugging Face config.json of the estimator's test data.
func readHF(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("../../estimator/hfconfig/testdata/hf/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
