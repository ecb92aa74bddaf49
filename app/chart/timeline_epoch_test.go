package chart

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestTimelineTimeFromFirstEntry: a snapshot's times are epoch
// microseconds, and the point before the trace's first entry has none
// (0). The time axis ran from 0 to about 1.5 billion seconds, the whole
// trace in its last pixel. It starts at the trace's first entry.
func TestTimelineTimeFromFirstEntry(t *testing.T) {
	const epoch = int64(1_733_000_000_000_000) // microseconds, December 2024
	tl := Timeline{Points: []TimelinePoint{{Event: -1, Bytes: 3 << 30}}}
	for i := range 8 {
		tl.Points = append(tl.Points, TimelinePoint{Event: i, TimeUS: epoch + int64(i)*2500, Bytes: 3<<30 + int64(i)<<27})
	}
	tl.Peak = tl.Points[8]
	if !tl.byTime() {
		t.Fatal("the timeline is not drawn along time")
	}
	if x0, x1, xn := tl.x(tl.Points[0], true), tl.x(tl.Points[1], true), tl.x(tl.Points[8], true); x0 != 0 || x1 != 0 || xn != 17.5 {
		t.Errorf("x: before the trace %g, first entry %g, last %g; want 0, 0, 17.5 ms", x0, x1, xn)
	}
	svg, err := TimelineSVG(tl, 720, 320)
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	if !strings.Contains(s, ">time (ms)") {
		t.Fatal("no time axis")
	}
	// Every tick label of the time axis is a few milliseconds.
	for _, m := range regexp.MustCompile(`>([0-9][0-9.,e+]*)<`).FindAllStringSubmatch(s, -1) {
		if v, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64); err == nil && v > 1e6 {
			t.Errorf("a label reads %s", m[1])
		}
	}
}
