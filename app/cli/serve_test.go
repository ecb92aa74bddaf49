//go:build !wasm

package cli

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/server/servertest"
)

// TestServeCommand runs the serve command as main does, on a free port,
// fetches a file, then sends the process SIGINT: the command must shut
// down cleanly (exit status 0) and free its port.
func TestServeCommand(t *testing.T) {
	web, _ := servertest.Web(t)
	out := &lockedBuffer{}
	var stderr lockedBuffer
	code := make(chan int, 1)
	go func() { code <- serve([]string{"-addr", "127.0.0.1:0", "-web", web}, nil, out, &stderr) }()
	var base string
	deadline := time.Now().Add(10 * time.Second)
	for base == "" {
		if time.Now().After(deadline) {
			t.Fatalf("serve printed no address; stdout %q, stderr %q", out.String(), stderr.String())
		}
		select {
		case c := <-code:
			t.Fatalf("serve exited early with %d: %s", c, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if _, rest, ok := strings.Cut(out.String(), "serving http://"); ok {
			base = "http://" + rest[:strings.Index(rest, "/")]
		}
	}
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("serving on %s, want 127.0.0.1", base)
	}
	if line := out.String(); strings.Count(strings.TrimSpace(line), "\n") != 0 || !strings.Contains(line, "headroom -h lists the commands") {
		t.Errorf("serve says %q before serving, want one line naming the address and headroom -h", line)
	}
	resp, err := http.Get(base + "/web/app.css")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || string(body) != "body { margin: 0 }\n" {
		t.Fatalf("GET /web/app.css: %d %q %v", resp.StatusCode, body, err)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("serve exited with %d after SIGINT, want 0; stderr %q", c, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop on SIGINT")
	}
	if !strings.Contains(out.String(), "stopped") {
		t.Errorf("stdout %q does not say it stopped", out.String())
	}
	if conn, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), time.Second); err == nil {
		conn.Close()
		t.Errorf("%s still accepts connections after shutdown", base)
	}
}

func TestServeBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-web", filepath.Join(t.TempDir(), "missing")},
		{"-nosuchflag"},
		{"extra"},
	} {
		var stdout, stderr bytes.Buffer
		if code := serve(args, nil, &stdout, &stderr); code != 2 {
			t.Errorf("serve %q: exit %d, want 2; stderr %q", args, code, stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := serve([]string{"-addr", "256.0.0.1:99999", "-web", t.TempDir()}, nil, &stdout, &stderr); code != 1 {
		t.Errorf("serve on a bad address: exit %d, want 1; stderr %q", code, stderr.String())
	}
}

// lockedBuffer is a bytes.Buffer safe to write from the server's
// goroutine while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// serve is the serve command with a go-app handler of its own: the
// command's tests look at the files it serves, not at the page.
var serve = Serve(func() *app.Handler { return &app.Handler{Name: "test", Version: "test"} })
