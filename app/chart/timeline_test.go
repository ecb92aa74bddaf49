package chart

import (
	"strings"
	"testing"
)

// goldenTimeline is a small trace: 3 GiB before the trace began, a head
// chunk's buffers coming and going, two windows, both revisions' peaks.
func goldenTimeline() Timeline {
	const gi = int64(1) << 30
	t := Timeline{Names: [2]string{"baseline", "candidate"}, Predicted: [2]int64{4*gi + gi/2, 3*gi + 3*gi/4}}
	bytes := []int64{3 * gi, 3*gi + gi/8, 3*gi + 3*gi/8, 3*gi + 5*gi/8, 3*gi + 7*gi/8, 3*gi + gi/4, 3 * gi, 3*gi + gi/2, 3 * gi}
	for i, b := range bytes {
		t.Points = append(t.Points, TimelinePoint{Event: i - 1, TimeUS: 1000 + int64(i)*2500, Bytes: b})
	}
	t.Peak = t.Points[4]
	t.Windows = []TimelinePoint{t.Points[4], t.Points[7]}
	t.Windows[0].Label, t.Windows[1].Label = "start", "child 2"
	return t
}

// TestTimelineGolden pins the timeline's SVG byte for byte.
func TestTimelineGolden(t *testing.T) {
	t.Parallel()
	got, err := TimelineSVG(goldenTimeline(), 720, 320)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "timeline.golden.svg", got)
	s := string(got)
	if !strings.HasPrefix(s, "<svg") || strings.Count(s, "<svg") != 1 || strings.Contains(s, " style=") {
		t.Errorf("not one <svg> without inline styles: %.200s", s)
	}
	for _, want := range []string{"allocated", "peak 3.875 GiB", "candidate predicted peak", "baseline predicted peak", "a window&#39;s peak", "time (ms)"} {
		if !strings.Contains(s, ">"+want) {
			t.Errorf("the SVG has no text %q", want)
		}
	}
}

// TestTimelineSVGEdges: no points is an error; one point, equal times
// (drawn along trace entries) and no estimate draw without a panic.
func TestTimelineSVGEdges(t *testing.T) {
	t.Parallel()
	if _, err := TimelineSVG(Timeline{}, 720, 320); err == nil {
		t.Error("an empty timeline drew")
	}
	one := Timeline{Points: []TimelinePoint{{Event: -1, Bytes: 512}}, Peak: TimelinePoint{Event: -1, Bytes: 512}}
	if _, err := TimelineSVG(one, 720, 320); err != nil {
		t.Errorf("one point: %v", err)
	}
	flat := goldenTimeline()
	flat.Predicted = [2]int64{}
	for i := range flat.Points {
		flat.Points[i].TimeUS = 0
	}
	svg, err := TimelineSVG(flat, 300, 200)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), ">trace entry") || strings.Contains(string(svg), "predicted peak") {
		t.Error("a timeline without times is not drawn along trace entries, or draws an estimate it has not")
	}
	if _, err := TimelineSVG(goldenTimeline(), 2, 2); err == nil {
		t.Error("a 2x2 chart drew")
	}
}
