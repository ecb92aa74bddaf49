package measure

import (
	"strings"
	"testing"

	"headroom/estimator"
)

func TestFC2StageMatchesKnownStorage(t *testing.T) {
	t.Parallel()
	d := analyze(t, "fc2.pickle")
	// r = 4,096 x 10 routed rows: input r x 512 x 2, three outputs r x 2,048 x 2.
	const r = 4096 * 10
	want := int64(figWeights + r*512*2 + 3*r*2048*2)
	if d.PeakBytes != want || d.RoundingBytes != 0 {
		t.Fatalf("peak %d (rounding %d), want %d (0)", d.PeakBytes, d.RoundingBytes, want)
	}
	c := estimator.Default()
	c.Request.Rows, c.Request.SequenceRows = 4096, 4096
	m, err := Compare(c, &d)
	if err != nil {
		t.Fatal(err)
	}
	if b := m[1].Best; b.Stage != "fc2" || b.Found != 4 || b.Priced != 4 {
		t.Errorf("candidate %+v", b)
	}
	// The baseline prices base_out and adapter_out only: both found.
	if b := m[0].Best; b.Stage != "fc2" || b.Found != 2 || b.Priced != 2 {
		t.Errorf("baseline %+v", b)
	}
	if m[1].Rows != 4096 || m[1].ResidualBytes != d.PeakBytes-m[1].PredictedBytes {
		t.Errorf("candidate comparison %+v", m[1])
	}
	pred, _ := estimator.NewPredictor(c)
	peaks, _ := pred.Peaks(4096)
	if m[0].PredictedBytes != peaks[0] || m[1].PredictedBytes != peaks[1] {
		t.Errorf("predicted %d, %d; predictor %v", m[0].PredictedBytes, m[1].PredictedBytes, peaks)
	}
}

func TestSplitWindows(t *testing.T) {
	t.Parallel()
	d := analyze(t, "split.pickle")
	// Each child keeps its logprobs [n x 4] and runs an FC2 stage; the
	// second child's peak holds the first child's logprobs too.
	child := func(n int64) int64 { r := n * 10; return r*512*2 + 3*r*2048*2 }
	lp0, lp1 := RoundBlock(33706*4), RoundBlock(31196*4)
	w0 := int64(figWeights) + lp0 + child(33706)
	w1 := int64(figWeights) + lp0 + lp1 + child(31196)
	if len(d.Windows) != 2 {
		t.Fatalf("windows %+v", d.Windows)
	}
	if d.Windows[0].Label != "child 0 forward" || d.Windows[0].PeakBytes != w0 {
		t.Errorf("window 0 %+v, want peak %d", d.Windows[0], w0)
	}
	if d.Windows[1].Label != "child 1 forward" || d.Windows[1].PeakBytes != w1 {
		t.Errorf("window 1 %+v, want peak %d", d.Windows[1], w1)
	}
	if d.PeakBytes != max(w0, w1) {
		t.Errorf("peak %d", d.PeakBytes)
	}
	// Both logprobs are still allocated at the snapshot: their block sizes
	// come from the segments.
	exact := 0
	for _, b := range d.LiveAtPeak {
		if b.SizeExact && b.Event >= 0 {
			exact++
		}
	}
	if exact != 1 { // the first child's logprobs; the second's come later
		t.Errorf("exact trace blocks at the peak: %d", exact)
	}
	pts := ObservedPoints(&d, 33706)
	if len(pts) != 2 || pts[0].PeakBytes != w0 || pts[1].Label != "cuda:0 child 1 forward" {
		t.Errorf("points %+v", pts)
	}
}

func TestNoHistoryReportsCurrentAllocation(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"nohistory.pickle", "emptytrace.pickle"} {
		d := analyze(t, name)
		if d.History || d.PeakBytes != 0 || d.LiveAtPeak != nil || d.Timeline != nil {
			t.Errorf("%s: %+v", name, d)
		}
		if ObservedPoints(&d, 4096) != nil {
			t.Errorf("%s: a point from a file without history", name)
		}
	}
	d := analyze(t, "nohistory.pickle")
	if d.CurrentBytes != figWeights+1<<20+4096 {
		t.Errorf("current %d", d.CurrentBytes)
	}
	if !strings.Contains(d.Note, "history recording was off") {
		t.Errorf("note %q", d.Note)
	}
	if d := analyze(t, "emptytrace.pickle"); !strings.Contains(d.Note, "empty") {
		t.Errorf("note %q", d.Note)
	}
}

// ev builds a trace entry.
func ev(a Action, addr, size int64) Event { return Event{Action: a, Addr: addr, Size: size} }

func TestFreeEvents(t *testing.T) {
	t.Parallel()
	const A, B, X = 0x1000, 0x2000, 0x9000
	cases := []struct {
		name      string
		trace     []Event
		peak      int64
		initial   int64
		freeEvent string
	}{
		{
			// Allocated bytes drop at free_requested: B fits where A was.
			name: "free_requested ends an allocation",
			trace: []Event{ev(ActionAlloc, A, 4096), ev(ActionFreeRequested, A, 4096),
				ev(ActionAlloc, B, 4096), ev(ActionFreeCompleted, A, 4096)},
			peak: 4096, freeEvent: "free_requested",
		},
		{
			// Without free_requested entries, free_completed is the end.
			name: "free_completed when free_requested was skipped",
			trace: []Event{ev(ActionAlloc, A, 4096), ev(ActionAlloc, B, 1000),
				ev(ActionFreeCompleted, A, 4096), ev(ActionFreeCompleted, B, 1000)},
			peak: 4096 + 1024, freeEvent: "free_completed",
		},
		{
			// X was allocated before the trace began: it counts until freed.
			name: "initially allocated",
			trace: []Event{ev(ActionAlloc, A, 4096), ev(ActionFreeRequested, X, 100_000),
				ev(ActionFreeCompleted, X, 100_000), ev(ActionAlloc, B, 8192)},
			peak: 4096 + RoundBlock(100_000), initial: RoundBlock(100_000), freeEvent: "free_requested",
		},
		{
			// X's free was requested before the trace: no longer allocated.
			name: "free_completed alone is not an allocation",
			trace: []Event{ev(ActionFreeRequested, A, 512), ev(ActionFreeCompleted, X, 100_000),
				ev(ActionAlloc, B, 8192)},
			peak: 8192, initial: 512, freeEvent: "free_requested",
		},
		{
			name:  "oom and segment entries change nothing",
			trace: []Event{ev(ActionSegmentAlloc, A, 1<<21), ev(ActionAlloc, A, 600), ev(ActionOOM, 0, 1<<40), ev(ActionSegmentMap, B, 1<<21)},
			peak:  1024, freeEvent: "free_completed",
		},
	}
	for _, c := range cases {
		devs, err := Analyze(&Snapshot{History: true, Traces: [][]Event{c.trace}}, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		d := devs[0]
		if d.PeakBytes != c.peak || d.InitialBytes != c.initial || d.FreeEvent != c.freeEvent {
			t.Errorf("%s: peak %d initial %d free %s, want %d %d %s", c.name, d.PeakBytes, d.InitialBytes, d.FreeEvent, c.peak, c.initial, c.freeEvent)
		}
	}
}

func TestTimelineKeepsPeakAndBound(t *testing.T) {
	t.Parallel()
	var trace []Event
	for i := int64(0); i < 10_000; i++ {
		trace = append(trace, ev(ActionAlloc, 0x1000+i*4096, 4096), ev(ActionFreeRequested, 0x1000+i*4096, 4096))
	}
	trace[7777*2].Size = 1 << 30 // one spike
	devs, err := Analyze(&Snapshot{History: true, Traces: [][]Event{trace}}, 100)
	if err != nil {
		t.Fatal(err)
	}
	d := devs[0]
	if len(d.Timeline) > 101 {
		t.Errorf("%d points, want at most 101", len(d.Timeline))
	}
	found := false
	for i, p := range d.Timeline {
		if i > 0 && p.Event <= d.Timeline[i-1].Event {
			t.Fatalf("timeline out of order at %d", i)
		}
		found = found || (p.Event == d.PeakEvent && p.Bytes == d.PeakBytes)
	}
	if !found || d.PeakBytes != 1<<30 || d.PeakEvent != 7777*2 {
		t.Errorf("peak %d at %d not kept in the timeline", d.PeakBytes, d.PeakEvent)
	}
}

func TestReplayOverflowIsAnError(t *testing.T) {
	t.Parallel()
	trace := []Event{ev(ActionAlloc, 1, 1<<62), ev(ActionAlloc, 2, 1<<62)}
	if _, err := Analyze(&Snapshot{History: true, Traces: [][]Event{trace}}, 0); err == nil || !strings.Contains(err.Error(), "overflows") {
		t.Errorf("err %v", err)
	}
}
