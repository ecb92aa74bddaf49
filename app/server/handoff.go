package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"time"
)

// One download of each file on a first visit. go-app's page registers its
// service worker at once and fetches app.wasm; the worker's install then
// fetches every file again to cache it (cache.addAll), so a first visit
// downloaded app.wasm twice, and the page's small files too. Headroom's
// page (patchAppJS) instead puts the app.wasm response it fetched into a
// hand-off cache and registers the worker once it is there; the worker's
// install (workerHandoff) takes app.wasm from that cache when the bytes
// are the build it was rendered for: their SHA-256 must be the one static
// wrote into the worker (workerWasmSumMark). Any other bytes, or none, and
// it downloads app.wasm as before. So the cache named after web/'s content
// never holds an app.wasm of another build. That is the static site's
// page; serve's (appJSServe) hands nothing over, as the clone cost the
// renderer 14 MB: its worker revalidates the HTTP cache's app.wasm and
// takes it when the ETag is one serve wrote into it (workerWasmETagsMark).
//
// The other files it asks for with cache: "no-cache": the browser's HTTP
// cache holds what the page loaded (serve sends every file with an ETag
// and Cache-Control: no-cache), so each comes back from the server as a
// 304 (its headers only) and the cached bytes, which the server has just
// said are current. A static host's max-age cannot hand over an old file
// (no-cache revalidates whatever the max-age); app.wasm keeps "reload",
// as a host that validates by a whole second's Last-Modified could call
// a rebuild written in the same second current.
//
// The page's fetch goes to WebAssembly.instantiateStreaming as fetch
// returned it: go-app's progress stream (fetchWithProgress) re-chunked
// the whole body through JavaScript on the page's thread, for a progress
// figure Headroom's loading label does not show.

// handoffCache names the cache the page hands app.wasm over in.
const handoffCache = "headroom-handoff"

// workerWasmETagsMark stands for the ETags serve sends app.wasm with
// (one per encoding of this build, a JavaScript array of strings) in the
// patched worker; a static site's worker has none ([]) and sums the bytes.
const workerWasmETagsMark = "HEADROOM_WASM_ETAGS"

// workerWasmSumMark stands for app.wasm's hex SHA-256 in the patched
// worker; serveWorker and WriteStaticSite put the sum in its place.
const workerWasmSumMark = "HEADROOM_WASM_SHA256"

// appJSHandoff is added to go-app's app.js by patchAppJS for a static
// site: the hand-off.
const appJSHandoff = `
// Headroom: app.wasm's response goes to instantiateStreaming through
// headroomFetchWasm (the hand-off).
async function headroomInstantiate(instantiate, url, importObject) {
  return instantiate(headroomFetchWasm(url), importObject);
}
// Headroom: app.wasm as fetch returned it goes to instantiateStreaming; on
// a first visit (no worker controls the page) the response is also put in
// the hand-off cache, and the worker is registered once it is there: its
// install takes app.wasm from it rather than download it again.
async function headroomFetchWasm(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (err) {
    goappInitServiceWorker();
    throw err;
  }
  if (!response.ok || !("serviceWorker" in navigator) || navigator.serviceWorker.controller || !self.caches) {
    goappInitServiceWorker();
    return response;
  }
  const copy = response.clone();
  caches
    .open("` + handoffCache + `")
    .then((cache) => cache.put(url, copy))
    .catch(() => {})
    .then(() => goappInitServiceWorker());
  return response;
}
`

// appJSServe is added to go-app's app.js by patchAppJS for serve: no
// hand-off. The page's response.clone() for the hand-off cache left about
// 14 MB of the tee's chunks in the page's renderer 2 s after ready (freed
// only by a collection; BENCHMARKS.md, renderer memory). serve's worker
// instead asks for app.wasm with cache: "no-cache" (workerHandoff): the
// browser's HTTP cache holds the page's
// copy, so the server answers with a 304 and the bytes are not sent
// again. The worker is registered once app.wasm is compiled, when the
// HTTP cache's copy is whole.
const appJSServe = `
// Headroom: app.wasm as fetch returned it goes to instantiateStreaming;
// the worker is registered once it is compiled (or has failed), and its
// install revalidates the HTTP cache's copy rather than download it again.
async function headroomInstantiate(instantiate, url, importObject) {
  try {
    return await instantiate(fetch(url), importObject);
  } finally {
    goappInitServiceWorker();
  }
}
`

// appJSWatch is added to go-app's app.js by patchAppJS for every page:
// the Go program's end is never silent. go-app starts app.wasm with
// go.run and nothing watches it: a fatal error (a stack overflow, out
// of memory) or a panic no handler caught prints to the console and
// exits, and the page stays drawn as if alive, its controls doing
// nothing. headroomRun keeps the last 4 KB the Go runtime wrote (its
// fatal errors and panics come through fs.writeSync, wasm_exec.js) and,
// when the program exits or WebAssembly traps, shows a banner (id
// headroom-stopped) that says what happened, that the address keeps
// the settings, and offers a reload. The banner is built from text
// nodes, so nothing the program wrote becomes markup.
const appJSWatch = `
// Headroom: the Go program's end is never silent (see headroomRun).
function headroomRun(go, instance) {
  const decoder = new TextDecoder("utf-8");
  let tail = "";
  const fs = globalThis.fs;
  const write = fs.writeSync;
  fs.writeSync = function (fd, buf) {
    tail = (tail + decoder.decode(buf)).slice(-4096);
    return write.call(this, fd, buf);
  };
  const stopped = (what) => headroomStopped(what, tail);
  const exit = go.exit;
  go.exit = (code) => {
    exit.call(go, code);
    stopped("it exited with status " + code);
  };
  const trapped = (err) => {
    // A trap, or the engine's stack spent inside the program (a
    // RangeError "Maximum call stack size exceeded"), leaves it broken.
    if (go.exited || err instanceof WebAssembly.RuntimeError || (err instanceof RangeError && /call stack/i.test(err.message))) {
      stopped(String(err));
    }
  };
  window.addEventListener("error", (e) => trapped(e.error));
  window.addEventListener("unhandledrejection", (e) => trapped(e.reason));
  go.run(instance).then(
    () => stopped("it returned"),
    (err) => stopped(String(err))
  );
}
function headroomStopped(what, tail) {
  if (document.getElementById("headroom-stopped")) {
    return;
  }
  const cause = tail.split("\n").find((l) => /^(fatal error|panic|runtime):/.test(l));
  const banner = document.createElement("div");
  banner.id = "headroom-stopped";
  banner.className = "stopped-banner";
  banner.setAttribute("role", "alert");
  const title = document.createElement("p");
  title.className = "stopped-title";
  title.textContent = "Headroom has stopped: " + what + (cause ? " (" + cause.slice(0, 300) + ")" : "") + ".";
  const body = document.createElement("p");
  body.textContent = "The page no longer responds to edits. The address still holds your settings: reload to start again from them.";
  const reload = document.createElement("button");
  reload.id = "headroom-reload";
  reload.type = "button";
  reload.textContent = "Reload";
  reload.addEventListener("click", () => location.reload());
  banner.append(title, body, reload);
  document.body.prepend(banner);
}
`

// workerHandoff is added to go-app's service worker (patchWorker): the
// install's fill of its cache, app.wasm from the hand-off cache when its
// SHA-256 is this build's.
const workerHandoff = `
// Headroom: the install fills the cache with what the server says is
// current: app.wasm the page fetched and handed over, when its bytes are
// this build's, else from the server (cache: "reload"); every other file
// through the HTTP cache, revalidated (cache: "no-cache"), so what the
// page has just loaded comes back as a 304 instead of its bytes again.
const headroomWasmSHA256 = "` + workerWasmSumMark + `";
const headroomWasmETags = ` + workerWasmETagsMark + `;
async function headroomFill(cache) {
  const rest = [];
  for (const url of resourcesToCache) {
    if (new URL(url, self.location).pathname.endsWith("/app.wasm")) {
      if (headroomWasmETags.length > 0) {
        // serve: the page handed nothing over (appJSServe); the HTTP
        // cache's copy, revalidated, when serve says it is this build's.
        if (!(await headroomRevalidateWasm(cache, url))) {
          rest.push(new Request(url, { cache: "reload" }));
        }
        continue;
      }
      if (!(await headroomTakeWasm(cache, url))) {
        rest.push(new Request(url, { cache: "reload" }));
      }
      continue;
    }
    rest.push(new Request(url, { cache: "no-cache" }));
  }
  await cache.addAll(rest);
  await caches.delete("` + handoffCache + `");
}
async function headroomRevalidateWasm(cache, url) {
  try {
    const response = await fetch(new Request(url, { cache: "no-cache" }));
    if (!response.ok || !headroomWasmETags.includes(response.headers.get("ETag"))) {
      return false;
    }
    await cache.put(url, response);
    return true;
  } catch (err) {
    return false;
  }
}
async function headroomTakeWasm(cache, url) {
  try {
    const handoff = await caches.open("` + handoffCache + `");
    const response = await handoff.match(url);
    if (!response) {
      return false;
    }
    // serve's ETag of app.wasm is the SHA-256 of the bytes it sent: one
    // of this build's says so without reading the bytes here (the worker
    // runs in the page's renderer, where a whole ArrayBuffer of app.wasm
    // and the clone it is read from stayed until the worker's next
    // collection). Other hosts' ETags: the bytes' own sum.
    if (headroomWasmETags.includes(response.headers.get("ETag"))) {
      await cache.put(url, response);
      return true;
    }
    const sum = await crypto.subtle.digest("SHA-256", await response.clone().arrayBuffer());
    const hex = Array.from(new Uint8Array(sum), (b) => b.toString(16).padStart(2, "0")).join("");
    if (hex !== headroomWasmSHA256) {
      return false;
    }
    await cache.put(url, response);
    return true;
  } catch (err) {
    return false;
  }
}
`

// goappWasmFetch is go-app's instantiation of app.wasm streamed through
// its progress counter.
var goappWasmFetch = regexp.MustCompile(`instantiateStreaming\(\s*fetchWithProgress\(("[^"]*"), showProgress\),\s*go\.importObject\s*\)`)

// patchAppJS makes go-app's app.js load app.wasm as Headroom does (see
// appJSHandoff): the worker is registered after app.wasm is handed over
// rather than first, and app.wasm is not streamed through the progress
// counter. It fails when go-app's app.js is not the one it knows.
//
// handoff: the page hands its app.wasm over to the worker (a static site,
// whose host's ETags the worker cannot know), else the worker revalidates
// the HTTP cache's copy (serve; appJSServe).
func patchAppJS(js []byte, handoff bool) ([]byte, error) {
	edits := []struct{ old, new string }{
		// The first registration, at the top of the script.
		{"\ngoappInitServiceWorker();\n", "\n"},
		// A page that loads no WebAssembly still gets its worker.
		{"    loader.remove();\n    return;\n", "    loader.remove();\n    goappInitServiceWorker();\n    return;\n"},
		// The Go program is watched (appJSWatch).
		{"    go.run(wasm.instance);\n", "    headroomRun(go, wasm.instance);\n"},
	}
	for _, e := range edits {
		if bytes.Count(js, []byte(e.old)) != 1 {
			return nil, fmt.Errorf("app.js: %q is not there once (go-app changed?)", e.old)
		}
		js = bytes.Replace(js, []byte(e.old), []byte(e.new), 1)
	}
	if len(goappWasmFetch.FindAllIndex(js, -1)) != 1 {
		return nil, fmt.Errorf("app.js: go-app's fetchWithProgress call is not there once (go-app changed?)")
	}
	js = goappWasmFetch.ReplaceAll(js, []byte(`headroomInstantiate(instantiateStreaming, $1, go.importObject)`))
	js = append(js, appJSWatch...)
	if !handoff {
		return append(js, appJSServe...), nil
	}
	return append(js, appJSHandoff...), nil
}

// siteWasmSum is the hex SHA-256 of root's app.wasm, as the worker checks
// it; sums keeps it between calls (serve's fileSums) or is new (static).
func siteWasmSum(root *os.Root, sums *fileSums) (string, error) {
	f, fi, ok := openSiteFile(root, "app.wasm")
	if !ok {
		return "", fmt.Errorf("app.wasm is missing from the web directory (run make wasm)")
	}
	defer f.Close()
	return sums.of("app.wasm", f, fi)
}

// siteWasmETags is the JavaScript array of the ETags serveWasm sends
// app.wasm with: app.wasm's and each compressed copy's that is not stale
// (a stale copy, never served, holds another build's bytes).
func siteWasmETags(root *os.Root, sums *fileSums) (string, error) {
	f, fi, ok := openSiteFile(root, "app.wasm")
	if !ok {
		return "", fmt.Errorf("app.wasm is missing from the web directory (run make wasm)")
	}
	defer f.Close()
	sum, err := sums.of("app.wasm", f, fi)
	if err != nil {
		return "", err
	}
	etags := []string{`"` + sum[:32] + `"`}
	for _, c := range precompressed {
		cf, cfi, ok := openSiteFile(root, "app.wasm"+c.suffix)
		if !ok {
			continue
		}
		csum, err := sums.of("app.wasm"+c.suffix, cf, cfi)
		cf.Close()
		if err != nil {
			return "", err
		}
		if cfi.ModTime().Unix() >= fi.ModTime().Unix() {
			etags = append(etags, `"`+csum[:32]+`"`)
		}
	}
	js, err := json.Marshal(etags)
	return string(js), err
}

// serveAppJS sends go-app's app.js patched (patchAppJS), with an ETag of
// its bytes.
func (s *Server) serveAppJS(w http.ResponseWriter, r *http.Request) {
	r2 := r.Clone(r.Context())
	r2.Method = http.MethodGet
	r2.URL.Path = "/app.js"
	r2.Header.Del("If-None-Match") // go-app's ETag is not this body's
	rec := &bufferedResponse{header: http.Header{}, code: http.StatusOK}
	s.app.ServeHTTP(rec, r2)
	if rec.code != http.StatusOK {
		http.Error(w, "app.js could not be rendered", http.StatusInternalServerError)
		return
	}
	body, err := patchAppJS(rec.body.Bytes(), false)
	if err != nil {
		http.Error(w, "app.js could not be patched", http.StatusInternalServerError)
		return
	}
	sum := sha256.Sum256(body)
	h := w.Header()
	h.Set("Content-Type", "application/javascript")
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", `"`+hex.EncodeToString(sum[:10])+`"`)
	http.ServeContent(w, r, "app.js", time.Time{}, bytes.NewReader(body))
}
