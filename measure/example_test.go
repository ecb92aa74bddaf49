package measure_test

import (
	"fmt"
	"os"

	"headroom/estimator"
	"headroom/measure"
)

// ExampleAnalyze reads a snapshot and prints its peak and the head's
// tensors found there.
func ExampleAnalyze() {
	f, err := os.Open("testdata/snapshots/head.pickle")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	s, err := measure.ReadSnapshot(f, measure.ReadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	devs, err := measure.Analyze(s, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	d := devs[0]
	fmt.Printf("cuda:%d peak %s at entry %d\n", d.Device, estimator.Bytes(d.PeakBytes), d.PeakEvent)
	fmt.Printf("%d blocks live, %d bytes of rounding\n", len(d.LiveAtPeak), d.RoundingBytes)

	c := estimator.Default()
	c.Request.Rows, c.Request.SequenceRows = 4096, 4096
	m, err := measure.Compare(c, &d)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("candidate:", m[1].Best.Summary)
	// Output:
	// cuda:0 peak 4,310,303,744 bytes (4.014 GiB) at entry 4
	// 6 blocks live, 24 bytes of rounding
	// candidate: 1 x D + 3 x 2D of the head, 4 of 4 priced tensors found
}
