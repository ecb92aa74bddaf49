package measure

import (
	"fmt"
	"sort"

	"headroom/estimator"
)

// MinBlockBytes is the caching allocator's smallest block and its rounding
// unit (kMinBlockSize): a request of r bytes takes a block of
// max(512, ceil(r / 512) x 512) bytes unless the allocator hands out a
// larger cached block whole.
const MinBlockBytes = 512

// DefaultTimelinePoints is how many points Analyze keeps of a timeline.
const DefaultTimelinePoints = 512

// maxWarnings bounds a device's warnings.
const maxWarnings = 16

// MaxWindows bounds a device's windows, and MaxOOMs its OOM entries: a
// real trace has a marker per step, and a report of more would be read
// by nobody (a crafted file of 600,000 markers made 154 MB of JSON).
const (
	MaxWindows = 1000
	MaxOOMs    = 100
)

// LiveBlock is an allocation live at the peak.
type LiveBlock struct {
	Addr          int64 `json:"addr"`
	Size          int64 `json:"size"`
	RequestedSize int64 `json:"requested_size"`
	RoundingBytes int64 `json:"rounding_bytes"`
	// SizeExact is true when Size is the block's size in the snapshot's
	// segments; false when it is the requested size rounded up to 512
	// bytes (the trace records requested sizes only).
	SizeExact bool `json:"size_exact"`
	// Event is the index of the trace entry that allocated it, -1 when it
	// was allocated before the trace began.
	Event int    `json:"event"`
	Frame string `json:"frame"`
}

// Point is the allocated bytes after one trace entry (Event -1: before
// the first).
type Point struct {
	Event  int   `json:"event"`
	TimeUS int64 `json:"time_us"`
	Bytes  int64 `json:"bytes"`
	// Reserved is what the segments held then (docs/model.md, "The
	// allocator's view").
	Reserved int64 `json:"reserved_bytes"`
}

// Window is the stretch of a trace between two markers (snapshot or
// annotate entries), and its peak: a candidate observed point.
type Window struct {
	Label      string `json:"label"`
	FromEvent  int    `json:"from_event"`
	ToEvent    int    `json:"to_event"`
	PeakBytes  int64  `json:"peak_bytes"`
	PeakEvent  int    `json:"peak_event"`
	PeakTimeUS int64  `json:"peak_time_us"`
}

// OOM is an out-of-memory entry of a trace: the request that failed and
// what CUDA reported free.
type OOM struct {
	Event      int   `json:"event"`
	TimeUS     int64 `json:"time_us"`
	Size       int64 `json:"size"`
	DeviceFree int64 `json:"device_free"`
}

// DeviceReport is what one device's trace shows.
type DeviceReport struct {
	Device  int  `json:"device"`
	History bool `json:"history"`
	// Note says why there is no peak (history off, or an empty trace).
	Note   string `json:"note,omitempty"`
	Events int    `json:"events"`
	// FreeEvent is the trace entry counted as the end of an allocation.
	FreeEvent string `json:"free_event,omitempty"`
	// InitialBytes are allocated before the trace began (blocks freed in
	// the trace without being allocated there, and blocks still allocated
	// at the snapshot that the trace never allocated).
	InitialBytes  int64 `json:"initial_bytes"`
	InitialBlocks int   `json:"initial_blocks"`
	// PeakBytes is the largest allocated total (block sizes), at PeakEvent
	// (-1: before the first entry), PeakTimeUS. 0 without history.
	PeakBytes          int64 `json:"peak_bytes"`
	PeakRequestedBytes int64 `json:"peak_requested_bytes"`
	RoundingBytes      int64 `json:"rounding_bytes"`
	PeakEvent          int   `json:"peak_event"`
	PeakTimeUS         int64 `json:"peak_time_us"`
	// CurrentBytes is what the segments hold allocated at the snapshot.
	CurrentBytes int64       `json:"current_bytes"`
	LiveAtPeak   []LiveBlock `json:"live_at_peak"`
	Timeline     []Point     `json:"timeline"`
	Windows      []Window    `json:"windows,omitempty"`
	OOMs         []OOM       `json:"ooms,omitempty"`
	// Allocator is the reserved memory and the free room in the segments.
	Allocator *AllocatorView `json:"allocator,omitempty"`
	Warnings  []string       `json:"warnings,omitempty"`
}

// alloc is an allocation while replaying.
type alloc struct {
	size, req int64
	exact     bool
	event     int
}

// frameText gives each top frame's text once, however many blocks show
// it.
type frameText struct {
	frames []Frame
	text   map[int32]string
}

func (t *frameText) of(id int32) string {
	if id <= 0 || int(id) >= len(t.frames) {
		return ""
	}
	s, ok := t.text[id]
	if !ok {
		s = t.frames[id].String()
		t.text[id] = s
	}
	return s
}

// Analyze replays every device of s. points bounds each timeline (0 takes
// DefaultTimelinePoints). It fails only when a byte total overflows int64
// or the snapshot holds no device at all.
func Analyze(s *Snapshot, points int) ([]DeviceReport, error) {
	if points <= 0 {
		points = DefaultTimelinePoints
	}
	devices := map[int]bool{}
	for d, tr := range s.Traces {
		if len(tr) > 0 {
			devices[d] = true
		}
	}
	byDevice := map[int][]Segment{}
	for _, seg := range s.Segments {
		if seg.Device < 0 || seg.Device > 1<<20 {
			return nil, fmt.Errorf("segments: device %d out of range 0..1048576", seg.Device)
		}
		devices[int(seg.Device)] = true
		byDevice[int(seg.Device)] = append(byDevice[int(seg.Device)], seg)
	}
	if len(devices) == 0 {
		return nil, fmt.Errorf("empty snapshot: no segment and no trace entry on any device, nothing to measure")
	}
	order := make([]int, 0, len(devices))
	for d := range devices {
		order = append(order, d)
	}
	sort.Ints(order)
	out := make([]DeviceReport, 0, len(order))
	for _, d := range order {
		var trace []Event
		if d < len(s.Traces) {
			trace = s.Traces[d]
		}
		r, err := analyzeDevice(s, d, trace, points, byDevice[d])
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// RoundBlock is the block the allocator takes for a request of req bytes
// by default: max(512, ceil(req / 512) x 512).
func RoundBlock(req int64) int64 {
	if req <= MinBlockBytes {
		return MinBlockBytes
	}
	if req > (1<<63-1)-MinBlockBytes {
		return req
	}
	return (req + MinBlockBytes - 1) / MinBlockBytes * MinBlockBytes
}

func add(a, b int64, what string) (int64, error) {
	s, ok := estimator.CheckedAdd(a, b)
	if !ok {
		return 0, fmt.Errorf("%s: the total overflows int64", what)
	}
	return s, nil
}

func analyzeDevice(s *Snapshot, d int, trace []Event, points int, segs []Segment) (DeviceReport, error) {
	r := DeviceReport{Device: d, History: s.History && len(trace) > 0, Events: len(trace), PeakEvent: -1}
	fs := &frameText{frames: s.Frames, text: map[int32]string{}}
	where := fmt.Sprintf("device %d", d)
	// The blocks allocated at the snapshot, by address.
	atEnd := map[int64]Block{}
	segs, err := disjoint(segs, d)
	if err != nil {
		return r, err
	}
	endReserved := int64(0)
	for _, seg := range segs {
		if endReserved, err = add(endReserved, seg.TotalSize, where); err != nil {
			return r, err
		}
		for _, b := range seg.Blocks {
			if b.State == "active_allocated" {
				atEnd[b.Address] = b
				if r.CurrentBytes, err = add(r.CurrentBytes, b.Size, where); err != nil {
					return r, err
				}
			}
		}
	}
	end := endState(segs)
	r.Allocator = &AllocatorView{InitialReservedBytes: endReserved, ReservedPeakBytes: endReserved, ReservedPeakEvent: -1, AtEnd: end}
	if !r.History {
		if !s.History {
			r.Note = "history recording was off (no device_traces: torch.cuda.memory._record_memory_history() was not enabled), so there is no peak; current_bytes is the allocation at the snapshot"
		} else {
			r.Note = "the trace of this device is empty, so there is no peak; current_bytes is the allocation at the snapshot"
		}
		return r, nil
	}
	free := ActionFreeCompleted
	for _, e := range trace {
		if e.Action == ActionFreeRequested {
			free = ActionFreeRequested
			break
		}
	}
	r.FreeEvent = free.String()

	// Pass 1: which allocations predate the trace, and which trace
	// allocations survive it.
	live := map[int64]int{}
	var initial []LiveBlock
	for i, e := range trace {
		switch e.Action {
		case ActionAlloc:
			live[e.Addr] = i
		case free:
			if _, ok := live[e.Addr]; ok {
				delete(live, e.Addr)
			} else {
				initial = append(initial, LiveBlock{Addr: e.Addr, RequestedSize: e.Size, Size: RoundBlock(e.Size), Event: -1, Frame: fs.of(e.Frame)})
			}
		}
	}
	// A block still allocated at the snapshot is exact when the trace's
	// last allocation at its address asked for its requested size.
	exactAt := map[int]Block{}
	for addr, i := range live {
		if b, ok := atEnd[addr]; ok && b.RequestedSize == trace[i].Size {
			exactAt[i] = b
		}
	}
	for addr, b := range atEnd {
		if _, ok := live[addr]; !ok {
			initial = append(initial, LiveBlock{Addr: addr, Size: b.Size, RequestedSize: b.RequestedSize, SizeExact: true, Event: -1, Frame: b.Frame.String()})
		}
	}
	sort.Slice(initial, func(i, j int) bool { return initial[i].Addr < initial[j].Addr })

	// Pass 2: replay.
	cur, req := int64(0), int64(0)
	state := map[int64]alloc{}
	for _, b := range initial {
		if _, dup := state[b.Addr]; dup {
			continue // freed twice before being allocated: counted once
		}
		state[b.Addr] = alloc{size: b.Size, req: b.RequestedSize, exact: b.SizeExact, event: -1}
		r.InitialBlocks++
		if cur, err = add(cur, b.Size, where); err != nil {
			return r, err
		}
		req += b.RequestedSize
	}
	r.InitialBytes = cur
	r.PeakBytes, r.PeakRequestedBytes = cur, req
	// Reserved: the segments at the snapshot less the trace's segment
	// entries is what they held before it.
	res := endReserved
	for i := range trace {
		res -= segmentDelta(&trace[i])
	}
	if res < 0 {
		r.warn(fmt.Sprintf("the trace's segment entries add %d bytes more than the snapshot's segments hold: the reserved memory before the trace is taken as 0", -res))
		res = 0
	}
	av := r.Allocator
	av.InitialReservedBytes, av.ReservedPeakBytes = res, res
	tl := newTimeline(len(trace), points, Point{Event: -1, Bytes: cur, Reserved: res})
	var win *Window
	openWindow := func(label string, from int) {
		r.Windows = append(r.Windows, Window{Label: label, FromEvent: from, PeakBytes: cur, PeakEvent: from - 1})
		win = &r.Windows[len(r.Windows)-1]
	}
	capped, ooms := false, 0
	hasMarkers := false
	for _, e := range trace {
		if e.Action == ActionSnapshot || e.Action == ActionAnnotate {
			hasMarkers = true
			break
		}
	}
	if hasMarkers {
		openWindow("start", 0)
	}
	for i, e := range trace {
		switch e.Action {
		case ActionAlloc:
			if old, ok := state[e.Addr]; ok {
				r.warn(fmt.Sprintf("event %d allocates address %#x, live since event %d: the earlier allocation is taken as freed", i, e.Addr, old.event))
				cur -= old.size
				req -= old.req
			}
			a := alloc{size: RoundBlock(e.Size), req: e.Size, event: i}
			if b, ok := exactAt[i]; ok {
				a.size, a.exact = b.Size, true
			}
			state[e.Addr] = a
			if cur, err = add(cur, a.size, where); err != nil {
				return r, err
			}
			req += a.req
		case free:
			if old, ok := state[e.Addr]; ok {
				delete(state, e.Addr)
				cur -= old.size
				req -= old.req
			}
		case ActionFreeCompleted:
			if free == ActionFreeRequested {
				if old, ok := state[e.Addr]; ok && old.event >= 0 {
					return r, fmt.Errorf("device_traces[%d][%d]: free_completed of the block at %#x allocated at entry %d, before its free_requested: a block's free completes after it is requested", d, i, e.Addr, old.event)
				}
			}
		case ActionSegmentAlloc, ActionSegmentFree, ActionSegmentMap, ActionSegmentUnmap:
			res += segmentDelta(&trace[i])
			if res > av.ReservedPeakBytes {
				av.ReservedPeakBytes, av.ReservedPeakEvent = res, i
			}
		case ActionOOM:
			if ooms++; ooms <= MaxOOMs {
				r.OOMs = append(r.OOMs, OOM{Event: i, TimeUS: e.TimeUS, Size: e.Size, DeviceFree: e.DeviceFree})
			} else if ooms == MaxOOMs+1 {
				r.warn(fmt.Sprintf("more than %d oom entries: those from entry %d on are left out", MaxOOMs, i))
			}
		case ActionSnapshot, ActionAnnotate:
			if len(r.Windows) >= MaxWindows {
				if len(r.Windows) == MaxWindows && !capped {
					capped = true
					r.warn(fmt.Sprintf("more than %d windows: the markers from entry %d on open none, and the last window runs to the end", MaxWindows, i))
				}
				break
			}
			win.ToEvent = i
			label := ""
			if int(e.Note) < len(s.Notes) {
				label = s.Notes[e.Note]
			}
			if label == "" {
				label = fmt.Sprintf("after %s at event %d", e.Action, i)
			}
			openWindow(label, i+1)
		}
		if cur > r.PeakBytes {
			r.PeakBytes, r.PeakRequestedBytes, r.PeakEvent, r.PeakTimeUS = cur, req, i, e.TimeUS
		}
		if win != nil && cur > win.PeakBytes {
			win.PeakBytes, win.PeakEvent, win.PeakTimeUS = cur, i, e.TimeUS
		}
		tl.add(Point{Event: i, TimeUS: e.TimeUS, Bytes: cur, Reserved: res})
	}
	if win != nil {
		win.ToEvent = len(trace) - 1
		r.Windows = busyWindows(trace, r.Windows)
	}
	r.Timeline = tl.points()
	r.RoundingBytes = r.PeakBytes - r.PeakRequestedBytes
	r.LiveAtPeak = liveAt(trace, free, initial, exactAt, r.PeakEvent, fs)
	n, what := need(&r, trace)
	av.AtPeak = peakState(segs, trace, r.PeakEvent, r.LiveAtPeak)
	av.AtPeak.judge(n, what)
	av.AtEnd.judge(n, what)
	av.Markers = markers(trace, s.Notes)
	return r, nil
}

// busyWindows leaves out the windows in which nothing was allocated (two
// markers in a row, or a marker at the end).
func busyWindows(trace []Event, ws []Window) []Window {
	out := ws[:0]
	for _, w := range ws {
		for i := w.FromEvent; i <= w.ToEvent && i < len(trace); i++ {
			if trace[i].Action == ActionAlloc {
				out = append(out, w)
				break
			}
		}
	}
	return out
}

func (r *DeviceReport) warn(msg string) {
	if len(r.Warnings) < maxWarnings {
		r.Warnings = append(r.Warnings, msg)
	} else if len(r.Warnings) == maxWarnings {
		r.Warnings = append(r.Warnings, "more warnings left out")
	}
}

// liveAt replays the trace up to entry peak (inclusive) again and lists
// the allocations live there, largest first (then by address).
func liveAt(trace []Event, free Action, initial []LiveBlock, exactAt map[int]Block, peak int, fs *frameText) []LiveBlock {
	state := map[int64]LiveBlock{}
	for _, b := range initial {
		if _, dup := state[b.Addr]; !dup {
			state[b.Addr] = b
		}
	}
	for i := 0; i <= peak && i < len(trace); i++ {
		e := trace[i]
		switch e.Action {
		case ActionAlloc:
			b := LiveBlock{Addr: e.Addr, Size: RoundBlock(e.Size), RequestedSize: e.Size, Event: i, Frame: fs.of(e.Frame)}
			if x, ok := exactAt[i]; ok {
				b.Size, b.SizeExact = x.Size, true
			}
			state[e.Addr] = b
		case free:
			delete(state, e.Addr)
		}
	}
	out := make([]LiveBlock, 0, len(state))
	for _, b := range state {
		b.RoundingBytes = b.Size - b.RequestedSize
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Size != out[j].Size {
			return out[i].Size > out[j].Size
		}
		return out[i].Addr < out[j].Addr
	})
	return out
}

// timeline downsamples a trace's totals for drawing: the entries fall
// into at most points/2 buckets of consecutive entries, and each bucket
// keeps its lowest and its highest point in trace order, so the drawing
// keeps every spike and every trough (and the peak itself).
type timeline struct {
	per      int
	out      []Point
	lo, hi   Point
	inBucket int
}

func newTimeline(n, points int, start Point) *timeline {
	buckets := points / 2
	if buckets < 1 {
		buckets = 1
	}
	per := (n + buckets - 1) / buckets
	if per < 1 {
		per = 1
	}
	return &timeline{per: per, out: []Point{start}}
}

func (t *timeline) add(p Point) {
	if t.inBucket == 0 {
		t.lo, t.hi = p, p
	} else {
		if p.Bytes < t.lo.Bytes {
			t.lo = p
		}
		if p.Bytes > t.hi.Bytes {
			t.hi = p
		}
	}
	t.inBucket++
	if t.inBucket == t.per {
		t.flush()
	}
}

func (t *timeline) flush() {
	if t.inBucket == 0 {
		return
	}
	a, b := t.lo, t.hi
	if b.Event < a.Event {
		a, b = b, a
	}
	t.out = append(t.out, a)
	if b.Event != a.Event {
		t.out = append(t.out, b)
	}
	t.inBucket = 0
}

func (t *timeline) points() []Point {
	t.flush()
	return t.out
}
