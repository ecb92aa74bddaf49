//go:build bench && !wasm

package e2e

// make bench-profile: where the time of a slider input and of a cold load
// goes, from V8's sampling profiler (the page's main thread) while the
// explorer runs an app.wasm built with its function names (-ldflags=-w,
// not -s, which drops the name section the profiler reads).
//
//	go test -tags bench -run '^TestBenchProfile$' -v ./app/e2e -args -bench.profile=FILE

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"

	"headroom/app/server"
)

var benchProfile = flag.String("bench.profile", "", "write the profiles' summary to this file (and the raw .cpuprofile files beside it)")

// TestBenchProfile profiles the slider inputs and a cold load.
func TestBenchProfile(t *testing.T) {
	if *benchProfile == "" {
		t.Skip("pass -bench.profile=FILE")
	}
	dir := t.TempDir()
	web := filepath.Join(dir, "web")
	if err := buildNamedWeb(web); err != nil {
		t.Fatal(err)
	}
	base := benchStart(t, web)
	var report strings.Builder

	// Slider inputs, after the warm-up.
	plan := inputPlan(t, "", *benchWarmup+*benchInputs)
	tb := newTab(t)
	tb.open("")
	js, _ := json.Marshal(plan[:*benchWarmup])
	eval[[]inputTiming](tb, fmt.Sprintf(slideJS, js), chromedp.EvalAwaitPromise)
	js, _ = json.Marshal(plan[*benchWarmup:])
	prof, res := profileDuring(t, tb.ctx, func(ctx context.Context) []inputTiming {
		return eval[[]inputTiming](tb, fmt.Sprintf(slideJS, js), chromedp.EvalAwaitPromise)
	})
	var dom []float64
	for _, r := range res {
		dom = append(dom, r.DOM)
	}
	fmt.Fprintf(&report, "== %d slider inputs (profiled, names kept: expect some overhead): input to DOM p50 %.1f ms, p95 %.1f ms\n",
		len(res), percentile(dom, 50), percentile(dom, 95))
	summarize(&report, prof, len(res))
	writeProfile(t, *benchProfile+".inputs.cpuprofile", prof)

	// One cold load, in a new browser context.
	ctx, cancel := chromedp.NewContext(e2e.browser, chromedp.WithNewBrowserContext())
	defer cancel()
	// Same origin first, so the load stays in the renderer being profiled.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/web/headroom.css")); err != nil {
		t.Fatal(err)
	}
	prof, lt := profileDuring(t, ctx, func(ctx context.Context) loadTiming {
		lt, err := coldLoad(ctx, base)
		if err != nil {
			t.Fatal(err)
		}
		return lt
	})
	fmt.Fprintf(&report, "\n== one cold load: HTML %.0f ms, app.wasm received %.0f ms, interactive %.0f ms\n",
		lt.DocEnd, lt.WasmEnd, lt.Ready)
	summarize(&report, prof, 1)
	writeProfile(t, *benchProfile+".load.cpuprofile", prof)

	if err := os.WriteFile(*benchProfile, []byte(report.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", report.String())
}

// buildNamedWeb fills web with the project's web files and an app.wasm
// built as make wasm builds it but with the function names kept.
func buildNamedWeb(web string) error {
	src, err := server.FindWebDir(*benchWeb)
	if err != nil {
		return err
	}
	if err := copyWebFiles(src, web); err != nil {
		return err
	}
	wasm := filepath.Join(web, "app.wasm")
	cmd := exec.Command("go", "build", "-tags="+wasmTags, "-ldflags=-w", "-o", wasm, mainPackage)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("GOOS=js GOARCH=wasm go build: %v\n%s", err, out)
	}
	return gzipFile(wasm, wasm+".gz")
}

// profileDuring runs f with V8's sampling profiler on (100 us) in ctx's tab.
func profileDuring[T any](t *testing.T, ctx context.Context, f func(context.Context) T) (*profiler.Profile, T) {
	t.Helper()
	var prof *profiler.Profile
	var v T
	err := chromedp.Do(ctx,
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			if _, err := cdp.Call(ctx, tg, profiler.Enable, cdp.Empty{}); err != nil {
				return err
			}
			if _, err := cdp.Call(ctx, tg, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 100}); err != nil {
				return err
			}
			_, err := cdp.Call(ctx, tg, profiler.Start, cdp.Empty{})
			return err
		}))
	if err != nil {
		t.Fatal(err)
	}
	v = f(ctx)
	err = chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		res, err := cdp.Call(ctx, tg, profiler.Stop, cdp.Empty{})
		prof = res.Profile
		return err
	}))
	if err != nil || prof == nil {
		t.Fatalf("Profiler.stop: %v", err)
	}
	return prof, v
}

func writeProfile(t *testing.T, path string, prof *profiler.Profile) {
	data, err := json.Marshal(prof)
	if err == nil {
		err = os.WriteFile(path, data, 0o644)
	}
	if err != nil {
		t.Errorf("writing %s: %v", path, err)
	}
}

// goName undoes V8's spelling of a Go function's name (the name section's
// "github.com/x/y.(*T).M" shows as "github.com_x_y.__T_.M"), so both
// spellings match the same prefixes. JavaScript functions (wasm_exec.js's
// imports are named "syscall/js.valueSet" and so on) keep their names.
func goName(name string) string {
	r := strings.NewReplacer("/", "_", "-", "_", "(*", "__", ")", "_")
	return r.Replace(name)
}

// categories maps a prefix of a function's name (as goName spells it) to
// where its code comes from; the first match wins.
var categories = []struct{ prefix, cat string }{
	{"(idle)", "idle"},
	{"(program)", "browser, native (style, layout, paint, HTML/SVG parsing, wasm compile)"},
	{"(garbage collector)", "V8 garbage collector"},
	{"headroom_estimator.", "estimator"},
	{"main.", "headroom app (main: explorer, chart, components)"},
	{"headroom_app_", "headroom app (ui, chart)"},
	{"gonum.org_", "gonum/plot, svgo, fonts"},
	{"codeberg.org_", "gonum/plot, svgo, fonts"},
	{"golang.org_x_image", "gonum/plot, svgo, fonts"},
	{"github.com_ajstarks", "gonum/plot, svgo, fonts"},
	{"github.com_maxence_charriere_go_app", "go-app (diffing, DOM writes)"},
	{"reflect.", "reflect (go-app's prop comparison)"},
	{"internal_reflectlite.", "reflect (go-app's prop comparison)"},
	{"runtime.gc", "Go runtime: GC"}, {"runtime.scan", "Go runtime: GC"}, {"runtime.mark", "Go runtime: GC"},
	{"runtime.greyobject", "Go runtime: GC"}, {"runtime.findObject", "Go runtime: GC"},
	{"runtime.sweep", "Go runtime: GC"}, {"runtime.__gcWork_", "Go runtime: GC"},
	{"runtime.__mspan_", "Go runtime: GC"}, {"runtime.__sweepLocked_", "Go runtime: GC"},
	{"runtime.wbBuf", "Go runtime: GC"}, {"runtime.bulkBarrier", "Go runtime: GC"},
	{"runtime.typePointers", "Go runtime: GC"}, {"runtime.__gcBits_", "Go runtime: GC"},
	{"runtime.__mheap_", "Go runtime: GC"}, {"runtime.__mcentral_", "Go runtime: GC"},
	{"runtime.__pageAlloc_", "Go runtime: GC"}, {"runtime.wbMove", "Go runtime: GC"},
	{"runtime.malloc", "Go runtime: allocation, copying"}, {"runtime.memclr", "Go runtime: allocation, copying"},
	{"runtime.memmove", "Go runtime: allocation, copying"}, {"runtime.growslice", "Go runtime: allocation, copying"},
	{"runtime.makeslice", "Go runtime: allocation, copying"}, {"runtime.newobject", "Go runtime: allocation, copying"},
	{"runtime.__mcache_", "Go runtime: allocation, copying"}, {"runtime.nextFreeFast", "Go runtime: allocation, copying"},
	{"runtime.concatstring", "Go runtime: allocation, copying"}, {"runtime.slicebytetostring", "Go runtime: allocation, copying"},
	{"runtime.rawstring", "Go runtime: allocation, copying"}, {"runtime.heapSetType", "Go runtime: allocation, copying"},
	{"runtime.", "Go runtime: other (maps, interfaces, scheduler)"}, {"internal_runtime", "Go runtime: other (maps, interfaces, scheduler)"},
	{"internal_abi", "Go runtime: other (maps, interfaces, scheduler)"}, {"internal_sync", "Go runtime: other (maps, interfaces, scheduler)"},
	{"sync", "Go runtime: other (maps, interfaces, scheduler)"}, {"memeqbody", "Go runtime: other (maps, interfaces, scheduler)"},
	{"wasm_pc_f_loop", "Go runtime: other (maps, interfaces, scheduler)"}, {"type_.", "Go runtime: other (maps, interfaces, scheduler)"},
	{"syscall_js.", "syscall/js and wasm_exec.js (Go <-> JS calls)"},
	{"wasm_export_", "syscall/js and wasm_exec.js (Go <-> JS calls)"},
	{"wasm-to-js", "syscall/js and wasm_exec.js (Go <-> JS calls)"}, {"js-to-wasm", "syscall/js and wasm_exec.js (Go <-> JS calls)"},
}

// category is where a function's code comes from.
func category(name, url string) string {
	g := goName(name)
	for _, c := range categories {
		if strings.HasPrefix(name, c.prefix) || strings.HasPrefix(g, c.prefix) {
			return c.cat
		}
	}
	switch {
	case strings.HasSuffix(url, "wasm_exec.js"):
		return "syscall/js and wasm_exec.js (Go <-> JS calls)"
	case url != "" && !strings.HasPrefix(url, "wasm://"):
		return "page JavaScript (" + filepath.Base(url) + ")"
	case url == "" && name != "" && !strings.Contains(name, "."):
		return "DOM and browser APIs called from Go or JS (" + name + "...)"
	}
	return "Go standard library and others (strconv, fmt, strings, json...)"
}

// summarize writes, per unit (an input, a load), the profile's busy time
// by category, the functions with the most self time, and the inclusive
// time of the app's entry points.
func summarize(w *strings.Builder, p *profiler.Profile, units int) {
	nodes := map[int64]*profiler.ProfileNode{}
	parent := map[int64]int64{}
	for _, n := range p.Nodes {
		nodes[n.ID] = n
		for _, c := range n.Children {
			parent[c] = n.ID
		}
	}
	self := map[string]float64{}  // function name: self us
	incl := map[string]float64{}  // function name: inclusive us
	byCat := map[string]float64{} // category: self us
	var total, idle float64
	for i, id := range p.Samples {
		if i+1 >= len(p.TimeDeltas) {
			break
		}
		dt := float64(p.TimeDeltas[i+1]) // the time until the next sample
		n := nodes[id]
		name := n.CallFrame.FunctionName
		cat := category(name, n.CallFrame.URL)
		total += dt
		if cat == "idle" {
			idle += dt
			continue
		}
		self[name] += dt
		byCat[cat] += dt
		seen := map[string]bool{}
		for id, ok := id, true; ok; id, ok = parent[id] {
			f := nodes[id].CallFrame.FunctionName
			if !seen[f] {
				seen[f] = true
				incl[f] += dt
			}
		}
	}
	per := func(us float64) float64 { return us / 1e3 / float64(units) }
	fmt.Fprintf(w, "profiled %.0f ms: busy %.0f ms, idle %.0f ms; ms per %s below\n",
		total/1e3, (total-idle)/1e3, idle/1e3, map[bool]string{true: "load", false: "input"}[units == 1])
	type kv struct {
		k string
		v float64
	}
	sorted := func(m map[string]float64) []kv {
		var out []kv
		for k, v := range m {
			out = append(out, kv{k, v})
		}
		slices.SortFunc(out, func(a, b kv) int { return cmp.Compare(b.v, a.v) })
		return out
	}
	fmt.Fprintln(w, "-- self time by origin")
	for _, e := range sorted(byCat) {
		if per(e.v) >= 0.01 {
			fmt.Fprintf(w, "  %7.2f  %s\n", per(e.v), e.k)
		}
	}
	fmt.Fprintln(w, "-- inclusive time of the app's steps")
	for _, e := range sorted(incl) {
		if isStep(e.k) && per(e.v) >= 0.01 {
			fmt.Fprintf(w, "  %7.2f  %s\n", per(e.v), e.k)
		}
	}
	fmt.Fprintln(w, "-- top self time")
	for i, e := range sorted(self) {
		if i == 30 {
			break
		}
		fmt.Fprintf(w, "  %7.3f  %s\n", per(e.v), e.k)
	}
}

// isStep picks the functions whose inclusive time says where a render or
// a load goes.
func isStep(name string) bool {
	name = goName(name)
	for _, s := range []string{
		"main.(*explorer).renderNow", "main.(*explorer).Render", "main.(*explorer).apply",
		"main.(*sweepCache).get", "main.sweepChart", "chart.SVG", "chart.drawChart", "chart.(*svgCanvas)",
		"headroom/estimator.Estimate", "main.describeSweep", "main.(*explorer).replaceURL",
		"main.(*breakdown).Render", "main.(*controls).Render", "main.(*slider).Render", "main.(*decisionPanel).Render",
		"main.flushUpdates", "main.(*slider).onSlide", "main.(*chartView).Render", "main.(*explorer).setupFrames",
		"app.(*engine).handleFrame", "app.(*engine).Emit", "app.makeJSEventHandler",
		"vgsvg.(*Canvas).WriteTo", "plot.(*Plot).Draw",
		"app.(*engine).handleComponentUpdates", "app.(*engine).Consume", "app.(*engine).handleDispatch",
		"app.(*Compo).updateRoot", "app.(*raw).updateWith", "app.(*raw).mount", "app.(*htmlElement",
		"app.updateComponent", "reflect.DeepEqual", "app.(*engine).start", "app.RunWhenOnBrowser",
		"runtime.gcBgMarkWorker", "runtime.gcStart", "runtime.GC", "runtime.main", "runtime.doInit",
		"syscall/js.valueSet", "syscall/js.valueCall", "syscall/js.handleEvent",
		"plot.init", "liberation.Collection", "ttf.init", "opentype.Parse", "sfnt.Parse",
		"(garbage collector)", "(program)",
	} {
		if strings.Contains(name, goName(s)) {
			return true
		}
	}
	return false
}
