//go:build bench && !wasm

package e2e

// make bench's side-by-side figures: Headroom beside the peer (a static
// VRAM calculator, a Next.js export served as a static host serves it),
// measured by one harness in one browser, interleaved, and printed with
// each figure's ratio (Headroom over the peer). What "interactive" and
// "the chart on screen" mean on each page is in sideTargets.
//
//	go test -tags bench -run '^TestBenchSide$' -v ./app/e2e -args -bench.peer=DIR

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

var (
	benchPeer       = flag.String("bench.peer", "", "the peer's folder (serve.py and its static site): TestBenchSide serves it with serve.py and measures it beside Headroom")
	benchSideLoads  = flag.Int("bench.sideloads", 3, "TestBenchSide: rounds; each round has one cold load, one first and second visit, and a share of the inputs, of each page")
	benchSideInputs = flag.Int("bench.sideinputs", 90, "TestBenchSide: inputs timed on each page, split over the rounds")
	benchFloor      = flag.String("bench.floor", "", "the brotli copy of go-app's smallest page (make floor's bin/floor.wasm.br): TestBenchSide and TestBenchFloor judge bytes against it")
)

// sideTarget is one page measured side by side.
type sideTarget struct {
	name string
	base string // http://127.0.0.1:PORT, the page at /
	// ready is a JavaScript expression, true once the page is
	// interactive (see sideTargets).
	ready string
	// chart is the selector of the chart (or the first result drawn),
	// control the selector of a control that must be there too, and root
	// the chart's container: the chart is on screen when the topmost
	// element at a point of it is inside root.
	chart, control, root string
	// kind picks the input script's way to change and watch the page.
	kind string
	// plan makes n inputs, in order, from the page as it opens.
	plan func(t *testing.T, n int) []sideInput
}

// sideInput is one timed input: the control (a slider's key on Headroom,
// a text field's label on the peer), the value it is set to, and a delay
// after a frame starts (a random phase, as a person's input arrives).
type sideInput struct {
	Key   string  `json:"key"`
	Value string  `json:"value"`
	Delay float64 `json:"delay"`
}

// sideTargets defines the two pages.
//
// Headroom is interactive when the WebAssembly side has rendered the
// explorer (data-ready="1") with its chart: from then on a slider input
// redraws it. Its chart on screen is #chart's <svg> with the rows slider.
//
// The peer's server HTML already holds its fields and the text of its
// first result (the total), but nothing responds to them until React has
// hydrated the page, and its chart (recharts, inside a ResponsiveContainer
// that draws only after it has measured itself in the browser) is drawn
// only after that. So the peer is interactive when its chart's <svg> is
// in the document and the Batch Size field carries React's props (the
// handlers that recompute the result on an input event: typing into it
// then changes the total); its chart on screen is that <svg>, with the
// fields. An input on the peer types a new number into Batch Size or
// Sequence Length (React's onChange listens to the input event) and its
// DOM figure is when the total's text changes; on Headroom it moves a
// slider and waits for #explorer's data-renders to pass its value.
func sideTargets(headroom, peer string) []sideTarget {
	return []sideTarget{
		{
			name: "Headroom", base: headroom, kind: "headroom",
			ready: readyExpr,
			chart: "#chart svg", control: "#slider-rows", root: "#chart",
			plan: func(t *testing.T, n int) []sideInput {
				var out []sideInput
				for _, p := range inputPlan(t, "", n) {
					out = append(out, sideInput{Key: p.Key, Value: strconv.Itoa(p.Pos), Delay: p.DelayMs})
				}
				return out
			},
		},
		{
			name: "peer", base: peer, kind: "peer",
			ready: `(() => {
				if (!document.querySelector('.recharts-wrapper svg.recharts-surface')) return false;
				const l = [...document.querySelectorAll('label')].find(l => l.textContent === 'Batch Size');
				const el = l && document.getElementById(l.htmlFor);
				return !!el && Object.keys(el).some(k => k.startsWith('__reactProps$'));
			})()`,
			chart: ".recharts-wrapper svg.recharts-surface", control: "input[type=text]", root: ".recharts-wrapper",
			plan: peerPlan,
		},
	}
}

// peerPlan types n new numbers into the peer's Batch Size (1 to 32) and
// Sequence Length (128 to 4096) fields, each different from the field's
// value before, so each input changes the total.
func peerPlan(t *testing.T, n int) []sideInput {
	rng := rand.New(rand.NewPCG(29, 4))
	cur := map[string]int{"Batch Size": 4, "Sequence Length": 512}
	lengths := []int{128, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096}
	var out []sideInput
	for len(out) < n {
		k, v := "Batch Size", 1+rng.IntN(32)
		if rng.IntN(2) == 0 {
			k, v = "Sequence Length", lengths[rng.IntN(len(lengths))]
		}
		if v == cur[k] {
			continue
		}
		cur[k] = v
		out = append(out, sideInput{Key: k, Value: strconv.Itoa(v), Delay: math.Round(rng.Float64()*16*100) / 100})
	}
	return out
}

// startPeer serves dir (the peer's folder) with its serve.py on a free
// loopback port and stops it when the test ends.
func startPeer(t *testing.T, dir string) string {
	t.Helper()
	script := filepath.Join(dir, "serve.py")
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("-bench.peer: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command("python3", script, "-addr", "127.0.0.1", "-port", strconv.Itoa(port))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the peer's server: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	var last error
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		select {
		case err := <-exited:
			t.Fatalf("the peer's server exited: %v", err)
		default:
		}
		resp, err := http.Get(base + "/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
			err = errors.New(resp.Status)
		}
		last = err
	}
	t.Fatalf("the peer's server at %s did not answer in 30 s: %v", base, last)
	return ""
}

// loadAvg is /proc/loadavg's first three fields: the machine is shared.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// sideFigure is one row of the side-by-side table.
type sideFigure struct {
	name, unit string
	h, p       float64
	goal       float64 // the ratio to stay at or under; 0: none
}

// ratio is Headroom's figure over the peer's.
func (f sideFigure) ratio() float64 { return f.h / f.p }

// sideTable formats the figures as a Markdown table.
func sideTable(figs []sideFigure) string {
	var b strings.Builder
	b.WriteString("| figure | Headroom | peer | ratio | goal |\n|---|---:|---:|---:|---|\n")
	num := func(v float64, unit string) string {
		switch {
		case math.IsNaN(v):
			return "?"
		case unit == "bytes" || unit == "nodes":
			return groupThousands(int64(math.Round(v)))
		case unit == "ms" && v >= 100:
			return groupThousands(int64(math.Round(v))) + " ms"
		default:
			return strconv.FormatFloat(v, 'f', 1, 64) + " " + unit
		}
	}
	for _, f := range figs {
		goal := ""
		if f.goal > 0 {
			verdict := "not met"
			if f.ratio() <= f.goal {
				verdict = "met"
			}
			goal = fmt.Sprintf("<= %gx: %s", f.goal, verdict)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %.2f | %s |\n", f.name, num(f.h, f.unit), num(f.p, f.unit), f.ratio(), goal)
	}
	return b.String()
}

func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// TestBenchSide measures Headroom (make wasm's build, served as serve
// serves it, brotli) and the peer (served by its serve.py) with the same
// harness, round by round, each round's order the last one's reversed:
// per round and page one cold load, one first visit and its second
// visit, and a share of the inputs. It prints the medians (the inputs'
// p50 and p95 over all rounds) with their ratios, and checks that each
// figure is a number: it asserts no time.
func TestBenchSide(t *testing.T) {
	if *benchPeer == "" {
		t.Fatal("-bench.peer names the peer's folder (make bench passes it when the folder exists)")
	}
	web := benchWebDir(t)
	hBase := benchStart(t, web)
	pBase := startPeer(t, *benchPeer)
	targets := sideTargets(hBase, pBase)
	loadStart := loadAvg()
	t.Logf("load average at the start: %s", loadStart)

	rounds := max(1, *benchSideLoads)
	loads := make([][]sideLoad, len(targets))
	vis := make([][]visits, len(targets))
	order := func(r int) []int {
		if r%2 == 0 {
			return []int{0, 1}
		}
		return []int{1, 0}
	}
	for r := range rounds {
		for _, i := range order(r) {
			sl, err := sideColdLoad(e2e.browser, targets[i])
			if err != nil {
				t.Fatalf("round %d: cold load: %v", r+1, err)
			}
			t.Logf("round %d, %s cold load: interactive %.0f ms, chart on screen %.0f, FCP %.0f, CPU to ready %.0f ms; PSS %.1f USS %.1f MB; DOM nodes %.0f, Blink nodes after a collection %.0f",
				r+1, targets[i].name, sl.Ready, sl.ChartPaint, sl.FCP, sl.cpuMs, sl.pss, sl.uss, sl.domNodes, sl.blinkGC)
			loads[i] = append(loads[i], sl)
		}
		for _, i := range order(r + 1) {
			v, err := sideVisits(e2e.browser, targets[i])
			if err != nil {
				t.Fatalf("round %d: visits: %v", r+1, err)
			}
			t.Logf("round %d, %s: first visit %.0f bytes on the wire; second visit interactive %.0f ms", r+1, targets[i].name, v.firstBytes, v.secondReady)
			vis[i] = append(vis[i], v)
		}
	}

	// The inputs: both pages open, each in its own browser context, the
	// timed inputs split over the rounds and sent in turn.
	per := max(1, *benchSideInputs/rounds)
	tabs := make([]*sideTab, len(targets))
	for i, st := range targets {
		tabs[i] = openSideTab(t, e2e.browser, st, *benchWarmup, per*rounds)
		defer tabs[i].cancel()
	}
	for r := range rounds {
		for _, i := range order(r) {
			if err := tabs[i].timed(per); err != nil {
				t.Fatalf("round %d, %s: inputs: %v", r+1, targets[i].name, err)
			}
		}
	}
	loadEnd := loadAvg()
	t.Logf("load average at the end: %s", loadEnd)

	med := func(i int, f func(sideLoad) float64) float64 {
		v := make([]float64, len(loads[i]))
		for k, l := range loads[i] {
			v[k] = f(l)
		}
		return percentile(v, 50)
	}
	medV := func(i int, f func(visits) float64) float64 {
		v := make([]float64, len(vis[i]))
		for k, l := range vis[i] {
			v[k] = f(l)
		}
		return percentile(v, 50)
	}
	fig := func(name, unit string, goal float64, f func(i int) float64) sideFigure {
		return sideFigure{name: name, unit: unit, h: f(0), p: f(1), goal: goal}
	}
	figs := []sideFigure{
		fig("interactive (cold load)", "ms", 0.8, func(i int) float64 { return med(i, func(l sideLoad) float64 { return l.Ready }) }),
		fig("chart on screen, painted", "ms", 0.3, func(i int) float64 { return med(i, func(l sideLoad) float64 { return l.ChartPaint }) }),
		fig("first contentful paint", "ms", 0, func(i int) float64 { return med(i, func(l sideLoad) float64 { return l.FCP }) }),
		fig("renderer CPU to ready", "ms", 0, func(i int) float64 { return med(i, func(l sideLoad) float64 { return l.cpuMs }) }),
		fig("first visit, bytes on the wire", "bytes", 0, func(i int) float64 { return medV(i, func(v visits) float64 { return v.firstBytes }) }),
		fig("second visit interactive", "ms", 0, func(i int) float64 { return medV(i, func(v visits) float64 { return v.secondReady }) }),
		fig("input to DOM p50", "ms", 0, func(i int) float64 { return percentile(tabs[i].dom, 50) }),
		fig("input to DOM p95", "ms", 0.5, func(i int) float64 { return percentile(tabs[i].dom, 95) }),
		fig("input to paint p50", "ms", 0, func(i int) float64 { return percentile(tabs[i].paint, 50) }),
		fig("input to paint p95", "ms", 0, func(i int) float64 { return percentile(tabs[i].paint, 95) }),
		fig("input to the page settled p50", "ms", 0, func(i int) float64 { return percentile(tabs[i].settle, 50) }),
		fig("renderer CPU per input", "ms", 0.3, func(i int) float64 { return tabs[i].cpu * 1e3 / float64(len(tabs[i].dom)) }),
		fig("renderer PSS after load", "MB", 1.5, func(i int) float64 { return med(i, func(l sideLoad) float64 { return l.pss }) }),
		fig("renderer USS after load", "MB", 0, func(i int) float64 { return med(i, func(l sideLoad) float64 { return l.uss }) }),
		fig("DOM nodes after load", "nodes", 0, func(i int) float64 { return med(i, func(l sideLoad) float64 { return l.domNodes }) }),
		fig("Blink nodes after a collection", "nodes", 2, func(i int) float64 { return med(i, func(l sideLoad) float64 { return l.blinkGC }) }),
	}
	for _, f := range figs {
		if math.IsNaN(f.h) || math.IsNaN(f.p) || f.p == 0 {
			t.Errorf("%s: Headroom %v, peer %v: the harness did not measure it", f.name, f.h, f.p)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nSide by side (median of %d rounds, interleaved; inputs: %d timed on each page after %d not counted; load average %s at the start, %s at the end):\n\n",
		rounds, per*rounds, *benchWarmup, loadStart, loadEnd)
	b.WriteString(sideTable(figs))
	second := figs[5].h
	verdict := "not met"
	if second < 300 {
		verdict = "met"
	}
	fmt.Fprintf(&b, "\nsecond visit interactive under 300 ms: %.0f ms, %s\n", second, verdict)
	if *benchFloor != "" {
		floor, err := os.Stat(*benchFloor)
		if err != nil {
			t.Fatalf("-bench.floor: %v", err)
		}
		r := figs[4].h / float64(floor.Size())
		verdict := "not met"
		if r <= 1.4 {
			verdict = "met"
		}
		fmt.Fprintf(&b, "first visit over go-app's floor (%s bytes, brotli): %.2f (goal <= 1.4x: %s)\n", groupThousands(floor.Size()), r, verdict)
	}
	appendFigure(t, b.String())
}
