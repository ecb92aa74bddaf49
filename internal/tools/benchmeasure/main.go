// Command benchmeasure is make bench-measure: it writes snapshots of the
// given sizes with the repository's generator (package
// headroom/measure/snapgen), then reads each with `headroom measure
// -snapshot` of this build and, when given, of a base build, and with
// Python's pickle.load (the first thing PyTorch's _memory_viz.py does),
// interleaved, and prints per run the CPU seconds (user + system), MB of
// file per CPU second and the peak resident memory, then the median of
// each.
//
//	go run ./internal/tools/benchmeasure -new bin/headroom -base bin/headroom-base -sizes 100,1024
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"headroom/measure/snapgen"
)

type run struct {
	cpu  time.Duration
	wall time.Duration
	rss  int64 // KiB
	ok   bool
}

func main() {
	newBin := flag.String("new", "bin/headroom", "this build's headroom")
	baseBin := flag.String("base", "", "a base build's headroom (empty: none)")
	baseMax := flag.Int("base-max-mb", 200, "skip the base build above this many MB (its decoder holds 15-20 times the file)")
	sizes := flag.String("sizes", "100,1024", "snapshot sizes in MiB, comma-separated")
	runs := flag.Int("runs", 3, "runs of each reader per size")
	dir := flag.String("dir", "bin/bench-measure", "where the snapshots are written")
	python := flag.Bool("python", true, "also time python3's pickle.load")
	flag.Parse()
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fail(err)
	}
	fmt.Printf("%-10s %-14s %8s %8s %9s %10s\n", "snapshot", "reader", "cpu_s", "wall_s", "MB/cpu_s", "peak_rss_MB")
	for _, f := range strings.Split(*sizes, ",") {
		mib, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || mib < 1 {
			fail(fmt.Errorf("-sizes: %q is not a size in MiB", f))
		}
		name := filepath.Join(*dir, fmt.Sprintf("snapshot-%dMiB.pickle", mib))
		size, err := generate(name, int64(mib)<<20)
		if err != nil {
			fail(err)
		}
		readers := []struct {
			label string
			argv  []string
		}{{"new", []string{*newBin, "measure", "-snapshot", name, "-o", os.DevNull}}}
		if *baseBin != "" && mib <= *baseMax {
			readers = append(readers, struct {
				label string
				argv  []string
			}{"base", []string{*baseBin, "measure", "-snapshot", name, "-o", os.DevNull}})
		}
		if *python {
			if _, err := exec.LookPath("python3"); err == nil {
				readers = append(readers, struct {
					label string
					argv  []string
				}{"pickle.load", []string{"python3", "-c", "import pickle,sys; pickle.load(open(sys.argv[1],'rb'))", name}})
			}
		}
		results := make([][]run, len(readers))
		for i := 0; i < *runs; i++ { // interleaved: each reader once per round
			for j, r := range readers {
				res := measure(r.argv)
				results[j] = append(results[j], res)
				status := ""
				if !res.ok {
					status = " (failed)"
				}
				fmt.Printf("%-10s %-14s %8.2f %8.2f %9.1f %10d%s\n", fmt.Sprintf("%dMiB", mib), r.label,
					res.cpu.Seconds(), res.wall.Seconds(), mbPer(size, res.cpu), res.rss/1024, status)
			}
		}
		for j, r := range readers {
			m := median(results[j])
			fmt.Printf("%-10s %-14s %8.2f %8.2f %9.1f %10d  median of %d\n", fmt.Sprintf("%dMiB", mib), r.label,
				m.cpu.Seconds(), m.wall.Seconds(), mbPer(size, m.cpu), m.rss/1024, len(results[j]))
		}
	}
}

func mbPer(size int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(size) / 1e6 / d.Seconds()
}

// generate writes the snapshot unless a file of about that size is there.
func generate(name string, target int64) (int64, error) {
	if fi, err := os.Stat(name); err == nil && fi.Size() > target*9/10 {
		return fi.Size(), nil
	}
	f, err := os.Create(name)
	if err != nil {
		return 0, err
	}
	st, err := snapgen.Write(f, snapgen.Options{Seed: 1, TargetBytes: target, AnnotateEvery: 10000, OOMAt: 5000})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	fmt.Printf("# %s: %d bytes, %d entries\n", name, st.Bytes, st.Devices[0].Entries)
	return st.Bytes, nil
}

func measure(argv []string) run {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	start := time.Now()
	err := cmd.Run()
	r := run{wall: time.Since(start), ok: err == nil}
	if ps := cmd.ProcessState; ps != nil {
		r.cpu = ps.UserTime() + ps.SystemTime()
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			r.rss = ru.Maxrss
		}
	}
	return r
}

func median(rs []run) run {
	pick := func(f func(run) float64) []run {
		s := append([]run(nil), rs...)
		sort.Slice(s, func(i, j int) bool { return f(s[i]) < f(s[j]) })
		return s
	}
	m := run{ok: true}
	m.cpu = pick(func(r run) float64 { return r.cpu.Seconds() })[len(rs)/2].cpu
	m.wall = pick(func(r run) float64 { return r.wall.Seconds() })[len(rs)/2].wall
	m.rss = pick(func(r run) float64 { return float64(r.rss) })[len(rs)/2].rss
	return m
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchmeasure:", err)
	os.Exit(1)
}
