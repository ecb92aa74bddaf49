// Command gen-workload writes a synthetic workload for the replay command:
// CSV with the columns id, rows, sequence_rows, count and tenant (an
// ignored column), one request shape a line. It is NOT measured traffic:
// the shapes are drawn from a fixed, seeded mix (below) so that the
// example is reproducible and spans the rows where the three changes flip
// decisions under examples/pressure.json.
//
//	go run ./examples/gen-workload > examples/workload.csv
//	go run ./examples/gen-workload -seed 7 -lines 1000000 > big.csv
//
// The mix, per line: 55 % short requests (1,000..65,536 rows), 25 %
// medium (65,537..200,000), 15 % long (200,001..300,000) and 5 % very
// long (300,001..1,000,000); one line in ten carries sequence_rows 8,192
// (the others take the config's); count is 1 for most lines and up to 24
// for one in five (repeated identical requests).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
)

func main() {
	seed := flag.Uint64("seed", 14, "seed of the generator (the same seed writes the same file)")
	lines := flag.Int("lines", 2000, "request lines to write")
	flag.Parse()
	if *lines < 1 {
		fmt.Fprintln(os.Stderr, "gen-workload: -lines must be at least 1")
		os.Exit(2)
	}
	rng := rand.New(rand.NewPCG(*seed, 0x776f726b6c6f6164)) // "workload"
	between := func(lo, hi int64) int64 { return lo + rng.Int64N(hi-lo+1) }
	tenants := []string{"search", "chat", "eval", "batch"}
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(w, "id,rows,sequence_rows,count,tenant")
	for i := 1; i <= *lines; i++ {
		var rows int64
		switch p := rng.IntN(100); {
		case p < 55:
			rows = between(1_000, 65_536)
		case p < 80:
			rows = between(65_537, 200_000)
		case p < 95:
			rows = between(200_001, 300_000)
		default:
			rows = between(300_001, 1_000_000)
		}
		seq := ""
		if rng.IntN(10) == 0 {
			seq = "8192"
		}
		count := int64(1)
		if rng.IntN(5) == 0 {
			count = between(2, 24)
		}
		fmt.Fprintf(w, "req-%05d,%d,%s,%d,%s\n", i, rows, seq, count, tenants[rng.IntN(len(tenants))])
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "gen-workload:", err)
		os.Exit(1)
	}
}
