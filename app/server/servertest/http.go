package servertest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// RawRequest sends the request line "METHOD target HTTP/1.1" as written,
// with no client-side cleaning of the target, and returns the response
// with its body read.
func RawRequest(t testing.TB, base, method, target string, header http.Header) (*http.Response, string) {
	t.Helper()
	addr := strings.TrimPrefix(base, "http://")
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	var req bytes.Buffer
	fmt.Fprintf(&req, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", method, target, addr)
	header.Write(&req)
	req.WriteString("\r\n")
	if _, err := conn.Write(req.Bytes()); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: method})
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", method, target, err)
	}
	return resp, string(body)
}

// WorkerVersion fetches base's /app-worker.js and returns the version its
// cache is named after; it fails t when the worker lacks Headroom's
// patches (the reload of the pages a replaced worker served, the cache
// filled from the server).
func WorkerVersion(t testing.TB, base string) string {
	t.Helper()
	resp, body := RawRequest(t, base, "GET", "/app-worker.js", nil)
	m := regexp.MustCompile(`const cacheName = "app-" \+ "([^"]*)"`).FindStringSubmatch(body)
	if resp.StatusCode != http.StatusOK || m == nil {
		t.Fatalf("GET /app-worker.js: status %d, no cacheName:\n%.300s", resp.StatusCode, body)
	}
	if !strings.Contains(body, "headroomReplacing") {
		t.Errorf("the worker does not reload the pages of the worker it replaces")
	}
	if !strings.Contains(body, `new Request(url, { cache: "reload" })`) {
		t.Errorf("the worker may fill its cache from the HTTP cache")
	}
	return m[1]
}
