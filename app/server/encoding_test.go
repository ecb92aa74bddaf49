//go:build !wasm

package server

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestAcceptedCodings(t *testing.T) {
	tests := []struct {
		header   string
		br, gzip bool
	}{
		{"", false, false},
		{"gzip", false, true},
		{"br, gzip", true, true},
		{"gzip, deflate, br, zstd", true, true},
		{"BR;q=0.5, GZIP;q=1.0", true, true},
		{"br;q=0, gzip", false, true},
		{"br; q=0.0, gzip;q=0", false, false},
		{"*", true, true},
		{"*;q=0, gzip", false, true},
		{"identity", false, false},
		{" br ;q=1 ,", true, false},
	}
	for _, tt := range tests {
		accepted := acceptedCodings(tt.header)
		if got := accepted("br"); got != tt.br {
			t.Errorf("%q: br accepted = %v, want %v", tt.header, got, tt.br)
		}
		if got := accepted("gzip"); got != tt.gzip {
			t.Errorf("%q: gzip accepted = %v, want %v", tt.header, got, tt.gzip)
		}
	}
}

// TestBuiltWasmPrecompressed checks what `make wasm` wrote into the
// project's web/: app.wasm.gz and app.wasm.br decode to app.wasm exactly.
func TestBuiltWasmPrecompressed(t *testing.T) {
	web, err := FindWebDir("")
	if err != nil {
		t.Fatal(err)
	}
	wasm, err := os.ReadFile(filepath.Join(web, "app.wasm"))
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%v (make test builds it first)", err)
		}
		t.Skipf("%v: run make wasm", err)
	}
	wasmInfo, _ := os.Stat(filepath.Join(web, "app.wasm"))
	for _, c := range precompressed {
		name := filepath.Join(web, "app.wasm"+c.suffix)
		fi, err := os.Stat(name)
		if err != nil || fi.ModTime().Unix() < wasmInfo.ModTime().Unix() {
			// app.wasm was built by hand, not by make wasm: serve sends
			// it uncompressed, and make test rebuilds both.
			if os.Getenv("CI") == "true" {
				t.Errorf("%s is missing or older than app.wasm: make wasm writes it", name)
				continue
			}
			t.Skipf("%s is missing or older than app.wasm: run make wasm", name)
		}
		if c.coding == "br" {
			if _, err := exec.LookPath("brotli"); err != nil {
				t.Logf("no brotli command to decode %s", name)
				continue
			}
		}
		data, _ := os.ReadFile(name)
		if got := decode(t, c.coding, data); !bytes.Equal(got, wasm) {
			t.Errorf("%s does not decode to app.wasm", name)
		}
		t.Logf("app.wasm %d bytes; %s %d bytes (%.1f%%)", len(wasm), c.coding, len(data), 100*float64(len(data))/float64(len(wasm)))
	}
}
