//go:build !wasm

package server

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestChooseEncoding(t *testing.T) {
	all := []string{"br", "gzip", "identity"}
	tests := []struct {
		name, header string
		available    []string
		want         string // "" = 406
	}{
		{"no header", "", all, "identity"},
		{"gzip only", "gzip", all, "gzip"},
		{"browser", "gzip, deflate, br, zstd", all, "br"},
		{"ties go to br", "br, gzip", all, "br"},
		{"q prefers gzip", "gzip;q=1, br;q=0.1", all, "gzip"},
		{"q case and spaces", "BR;q=0.5, GZIP; Q=1.0", all, "gzip"},
		{"br refused", "br;q=0, gzip", all, "gzip"},
		{"both refused", "br; q=0.0, gzip;q=0", all, "identity"},
		{"star", "*", all, "br"},
		{"star refused, gzip listed", "*;q=0, gzip", all, "gzip"},
		{"identity listed", "identity", all, "identity"},
		{"identity refused", "identity;q=0", all, ""},
		{"identity refused, gzip there", "identity;q=0, gzip", all, "gzip"},
		{"star refused", "*;q=0", all, ""},
		{"star refused, identity listed", "*;q=0, identity", all, "identity"},
		{"identity over a low br", "br;q=0.5, identity", all, "identity"},
		{"low br over implicit identity", "br;q=0.5", all, "br"},
		{"bad q ignored", "br;q=2, gzip;q=x, identity;q=0.2", all, "identity"},
		{"no copies", "br, gzip", []string{"identity"}, "identity"},
		{"no copies, identity refused", "br, identity;q=0", []string{"identity"}, ""},
		{"trailing comma", " br ;q=1 ,", all, "br"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseAcceptEncoding(tt.header).choose(tt.available)
			if !ok {
				got = ""
			}
			if got != tt.want {
				t.Errorf("%q from %v: %q (ok %v), want %q", tt.header, tt.available, got, ok, tt.want)
			}
		})
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
