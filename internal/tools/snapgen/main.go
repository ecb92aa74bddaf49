// Command snapgen writes a synthetic PyTorch memory snapshot (package
// headroom/measure/snapgen) and prints what it holds, for the benchmark
// of measure -snapshot (make bench-measure) and for trying the reader on
// files as large as real runs make.
//
//	go run ./internal/tools/snapgen -mb 100 -o big.pickle
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"headroom/measure/snapgen"
)

func main() {
	mb := flag.Int64("mb", 0, "about this many MB (10^6 bytes) of snapshot; 0: -allocs allocations")
	allocs := flag.Int("allocs", 1000, "allocations per device (when -mb is 0)")
	devices := flag.Int("devices", 1, "devices")
	seed := flag.Int64("seed", 1, "random seed")
	annotate := flag.Int("annotate", 10000, "an annotate entry every this many allocations (0: none)")
	oom := flag.Int("oom", 0, "an oom entry after this allocation (0: none)")
	asJSON := flag.Bool("json", false, "write the JSON form")
	out := flag.String("o", "", "output file (required)")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "snapgen: -o FILE is required")
		os.Exit(2)
	}
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "snapgen:", err)
		os.Exit(1)
	}
	st, err := snapgen.Write(f, snapgen.Options{Seed: *seed, Devices: *devices, Allocs: *allocs,
		TargetBytes: *mb * 1e6, AnnotateEvery: *annotate, OOMAt: *oom, JSON: *asJSON})
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "snapgen:", err)
		os.Exit(1)
	}
	b, _ := json.Marshal(st)
	fmt.Println(string(b))
}
