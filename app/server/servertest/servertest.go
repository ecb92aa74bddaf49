package servertest

import (
	"bytes"
	"compress/gzip"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Secret is the content of a file outside web/ that no request may read.
const Secret = "TOP SECRET outside web/"

// Web builds a web directory in a temporary directory: app.css, a
// synthetic app.wasm with its .gz (and .br when the brotli command is
// there), a subdirectory, a hidden file, and symlinks: one inside web/
// (served) and three leading out of it (never served). It returns the web
// directory and app.wasm's bytes.
func Web(t testing.TB) (string, []byte) {
	t.Helper()
	tmp := t.TempDir()
	web := filepath.Join(tmp, "web")
	outside := filepath.Join(tmp, "outside")
	for _, d := range []string{web, outside, filepath.Join(web, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	wasm := SyntheticWasm(1 << 20)
	files := map[string][]byte{
		filepath.Join(outside, "secret.txt"): []byte(Secret),
		filepath.Join(web, "app.css"):        []byte("body { margin: 0 }\n"),
		filepath.Join(web, ".hidden"):        []byte(Secret),
		filepath.Join(web, "sub", "a.txt"):   []byte("a\n"),
		filepath.Join(web, "app.wasm"):       wasm,
		filepath.Join(web, "app.wasm.gz"):    GzipBytes(t, wasm),
	}
	for name, data := range files {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"inside.css":       "app.css",                            // stays in web/
		"escape.txt":       "../outside/secret.txt",              // relative, out
		"escape-dir":       "../outside",                         // a directory out
		"absolute.txt":     filepath.Join(outside, "secret.txt"), // absolute, out
		"sub/up-twice.txt": "../../outside/secret.txt",           // from a subdirectory
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(web, name)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := exec.LookPath("brotli"); err == nil {
		cmd := exec.Command("brotli", "-q", "5", "-f", "-k", filepath.Join(web, "app.wasm"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("brotli: %v\n%s", err, out)
		}
	}
	return web, wasm
}

// SyntheticWasm returns n bytes that start like a WebAssembly module and
// compress about as well as one (repetitive, not uniform).
func SyntheticWasm(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	b := bytes.NewBuffer([]byte("\x00asm\x01\x00\x00\x00"))
	words := []string{"runtime.", "main.", "estimator.", "go-app", "\x00\x01\x02", "func", "\x20\x00\x41"}
	for b.Len() < n {
		b.WriteString(words[r.IntN(len(words))])
		b.WriteByte(byte(r.IntN(256)))
	}
	return b.Bytes()[:n]
}

// GzipBytes compresses data with gzip at its fastest level: the tests
// need a valid stream, not the smallest, and every fixture compresses a
// MiB (BestCompression made it most of the package's test time).
func GzipBytes(t testing.TB, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
