//go:build !wasm

package server

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/app/server/servertest"
)

// TestPatchAppJS: go-app's app.js, as serve patches it, instantiates
// app.wasm through headroomInstantiate (no progress stream, no hand-off:
// no clone of the response) and registers the worker from there, not
// first; a script it does not know is refused.
func TestPatchAppJS(t *testing.T) {
	web, _ := servertest.Web(t)
	base := startTestServer(t, web)
	for _, path := range []string{"/app.js", "/goapp.js"} {
		resp, body := servertest.RawRequest(t, base, "GET", path, nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: status %d", path, resp.StatusCode)
		}
		for _, want := range []string{`headroomInstantiate(instantiateStreaming, "/web/app.wasm", go.importObject)`, "async function headroomInstantiate", "instantiate(fetch(url), importObject)"} {
			if !strings.Contains(body, want) {
				t.Errorf("GET %s: no %q", path, want)
			}
		}
		if strings.Contains(body, "headroom-handoff") || strings.Contains(body, "clone()") {
			t.Errorf("GET %s: serve's page still hands app.wasm over", path)
		}
		if strings.Contains(body, `fetchWithProgress("`) {
			t.Errorf("GET %s: app.wasm still goes through fetchWithProgress", path)
		}
		if strings.Contains(body, "\ngoappInitServiceWorker();\n") {
			t.Errorf("GET %s: the worker is still registered first, before app.wasm is handed over", path)
		}
		if resp.Header.Get("ETag") == "" {
			t.Errorf("GET %s: no ETag", path)
		}
	}
	if _, err := patchAppJS([]byte("console.log(1)"), false); err == nil {
		t.Error("patchAppJS took a script that is not go-app's app.js")
	}
}

// TestWorkerWasmSum: serve's and static's workers carry app.wasm's SHA-256,
// which their install checks the handed-over app.wasm against, and fill
// their cache through headroomFill (app.wasm reloaded from the server
// otherwise, the other files revalidated).
func TestWorkerWasmSum(t *testing.T) {
	web, _ := servertest.Web(t)
	data, err := os.ReadFile(filepath.Join(web, "app.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	want := `const headroomWasmSHA256 = "` + hex.EncodeToString(sum[:]) + `"`
	check := func(where, js string) {
		t.Helper()
		for _, w := range []string{want, "headroomFill(cache)", `new Request(url, { cache: "reload" })`, `new Request(url, { cache: "no-cache" })`, "caches.open(cacheName).then((cache) => cache.match("} {
			if !strings.Contains(js, w) {
				t.Errorf("%s app-worker.js: no %q", where, w)
			}
		}
		if strings.Contains(js, workerWasmSumMark) {
			t.Errorf("%s app-worker.js: the sum's mark is left", where)
		}
		if strings.Contains(js, workerWasmETagsMark) {
			t.Errorf("%s app-worker.js: the ETags' mark is left", where)
		}
	}
	base := startTestServer(t, web)
	_, body := servertest.RawRequest(t, base, "GET", "/app-worker.js", nil)
	check("serve", body)

	out := t.TempDir()
	if err := WriteStaticSite(out, web, "", testAppHandler()); err != nil {
		t.Fatal(err)
	}
	js, err := os.ReadFile(filepath.Join(out, "app-worker.js"))
	if err != nil {
		t.Fatal(err)
	}
	check("static", string(js))
	appJS, err := os.ReadFile(filepath.Join(out, "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`headroomInstantiate(instantiateStreaming, "web/app.wasm", go.importObject)`, "instantiate(headroomFetchWasm(url), importObject)", `.open("headroom-handoff")`} {
		if !strings.Contains(string(appJS), want) {
			t.Errorf("static app.js: no %q (the static site keeps the hand-off, with a relative URL):\n%.400s", want, appJS)
		}
	}
}
