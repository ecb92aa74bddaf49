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

// alloc is an allocation while replaying.
type alloc struct {
	size, req int64
	exact     bool
	event     int
	frame     int32 // the entry's top frame; 0 for a block from before the trace
}

// undo is a change to the live set since the peak: the address and what
// it held before.
type undo struct {
	addr int64
	old  alloc
	had  bool
}

// segFirst is the first segment entry at an address after the peak:
// what the address held at the peak is the opposite of what it did.
type segFirst struct {
	added bool // segment_alloc or segment_map: the segment was not there
	size  int64
}

// markRef is a marker entry, its text looked up when the report is made.
type markRef struct {
	event  int
	timeUS int64
	kind   Action
	note   int32
}

// replay is the second pass over one trace.
type replay struct {
	r      DeviceReport
	p      *plan
	state  map[int64]alloc
	cur    int64
	req    int64
	res    int64
	tl     *timeline
	win    int // the open window's index, -1 before the first
	busy   []bool
	capped bool
	ooms   int
	i      int // the entry being replayed
	// The largest allocation, for the fragmentation question.
	bestSize int64
	bestAt   int
	marks    []markRef
	// The live set at the peak is the live set now with the changes
	// since the peak undone (log), until the log outgrows the live set:
	// then the peak's set is made once (atPeak) and kept.
	log      []undo
	atPeak   map[int64]alloc
	segAfter map[int64]segFirst
	logMin   int // the log is kept up to max(live set, logMin) changes
	cnt      counted
	err      error
}

// startReplay sets up the replay of device d, whose segments (sorted,
// disjoint) and end state r already holds.
func startReplay(r DeviceReport, p *plan, t *tracker) (*replay, error) {
	rp := &replay{r: r, p: p, state: map[int64]alloc{}, win: -1, bestAt: -1, segAfter: map[int64]segFirst{}}
	where := fmt.Sprintf("device %d", r.Device)
	var err error
	for _, b := range p.initial {
		if _, dup := rp.state[b.Addr]; dup {
			continue
		}
		rp.state[b.Addr] = alloc{size: b.Size, req: b.RequestedSize, exact: b.SizeExact, event: -1}
		rp.r.InitialBlocks++
		if rp.cur, err = add(rp.cur, b.Size, where); err != nil {
			return nil, err
		}
		rp.req += b.RequestedSize
	}
	if err := rp.cnt.add(t, len(rp.state)); err != nil {
		return nil, err
	}
	rp.r.InitialBytes = rp.cur
	rp.r.PeakBytes, rp.r.PeakRequestedBytes = rp.cur, rp.req
	return rp, nil
}

// begin is the replay's state before the first entry, once the reserved
// bytes before the trace are known.
func (rp *replay) begin(res int64, points int) {
	rp.res = res
	av := rp.r.Allocator
	av.InitialReservedBytes, av.ReservedPeakBytes = res, res
	rp.tl = newTimeline(rp.p.n, points, Point{Event: -1, Bytes: rp.cur, Reserved: res})
	if rp.p.markers {
		rp.openWindow("start", 0)
	}
}

func (rp *replay) openWindow(label string, from int) {
	rp.r.Windows = append(rp.r.Windows, Window{Label: label, FromEvent: from, PeakBytes: rp.cur, PeakEvent: from - 1})
	rp.busy = append(rp.busy, false)
	rp.win = len(rp.r.Windows) - 1
}

// change records, before it is made, a change to the live set at addr.
func (rp *replay) change(t *tracker, addr int64) error {
	if rp.atPeak != nil {
		return nil
	}
	old, had := rp.state[addr]
	rp.log = append(rp.log, undo{addr, old, had})
	if len(rp.log) <= max(len(rp.state), rp.logMin) {
		return nil
	}
	m := make(map[int64]alloc, len(rp.state))
	for a, v := range rp.state {
		m[a] = v
	}
	undoInto(m, rp.log)
	rp.atPeak, rp.log = m, rp.log[:0]
	return rp.cnt.add(t, len(m))
}

func undoInto(m map[int64]alloc, log []undo) {
	for i := len(log) - 1; i >= 0; i-- {
		u := log[i]
		if u.had {
			m[u.addr] = u.old
		} else {
			delete(m, u.addr)
		}
	}
}

// newPeak forgets what was kept for the last peak.
func (rp *replay) newPeak(t *tracker) error {
	k := -len(rp.segAfter)
	if rp.atPeak != nil {
		k -= len(rp.atPeak)
		rp.atPeak = nil
	}
	rp.log = rp.log[:0]
	clear(rp.segAfter)
	return rp.cnt.add(t, k)
}

// event replays one entry. The first error stops the device's replay;
// it is reported in device order (finish).
func (rp *replay) event(t *tracker, notes []string, e *Event) {
	if rp.err != nil {
		rp.i++
		return
	}
	if err := rp.step(t, notes, e); err != nil {
		rp.err = err
	}
	rp.i++
}

func (rp *replay) step(t *tracker, notes []string, e *Event) error {
	i, r := rp.i, &rp.r
	switch e.Action {
	case ActionAlloc:
		if rp.win >= 0 {
			rp.busy[rp.win] = true
		}
		if e.Size > rp.bestSize {
			rp.bestSize, rp.bestAt = e.Size, i
		}
		if err := rp.change(t, e.Addr); err != nil {
			return err
		}
		if old, ok := rp.state[e.Addr]; ok {
			r.warn(fmt.Sprintf("event %d allocates address %#x, live since event %d: the earlier allocation is taken as freed", i, e.Addr, old.event))
			rp.cur -= old.size
			rp.req -= old.req
		} else if err := rp.cnt.add(t, 1); err != nil {
			return err
		}
		a := alloc{size: RoundBlock(e.Size), req: e.Size, event: i, frame: e.Frame}
		if b, ok := rp.p.exactAt[i]; ok {
			a.size, a.exact = b.Size, true
		}
		rp.state[e.Addr] = a
		cur, ok := estimator.CheckedAdd(rp.cur, a.size)
		if !ok {
			return fmt.Errorf("device %d: the total overflows int64", rp.r.Device)
		}
		rp.cur = cur
		rp.req += a.req
	case rp.p.free:
		if old, ok := rp.state[e.Addr]; ok {
			if err := rp.change(t, e.Addr); err != nil {
				return err
			}
			delete(rp.state, e.Addr)
			if err := rp.cnt.add(t, -1); err != nil {
				return err
			}
			rp.cur -= old.size
			rp.req -= old.req
		}
	case ActionFreeCompleted:
		if old, ok := rp.state[e.Addr]; ok && old.event >= 0 {
			return fmt.Errorf("device_traces[%d][%d]: free_completed of the block at %#x allocated at entry %d, before its free_requested: a block's free completes after it is requested", rp.r.Device, i, e.Addr, old.event)
		}
	case ActionSegmentAlloc, ActionSegmentFree, ActionSegmentMap, ActionSegmentUnmap:
		rp.res += segmentDelta(e)
		if av := r.Allocator; rp.res > av.ReservedPeakBytes {
			av.ReservedPeakBytes, av.ReservedPeakEvent = rp.res, i
		}
		if _, ok := rp.segAfter[e.Addr]; !ok {
			added := e.Action == ActionSegmentAlloc || e.Action == ActionSegmentMap
			rp.segAfter[e.Addr] = segFirst{added: added, size: e.Size}
			if err := rp.cnt.add(t, 1); err != nil {
				return err
			}
		}
	case ActionOOM:
		if rp.ooms++; rp.ooms <= MaxOOMs {
			r.OOMs = append(r.OOMs, OOM{Event: i, TimeUS: e.TimeUS, Size: e.Size, DeviceFree: e.DeviceFree})
		} else if rp.ooms == MaxOOMs+1 {
			r.warn(fmt.Sprintf("more than %d oom entries: those from entry %d on are left out", MaxOOMs, i))
		}
	case ActionSnapshot, ActionAnnotate:
		if len(r.Windows) >= MaxWindows {
			if len(r.Windows) == MaxWindows && !rp.capped {
				rp.capped = true
				r.warn(fmt.Sprintf("more than %d windows: the markers from entry %d on open none, and the last window runs to the end", MaxWindows, i))
			}
			break
		}
		r.Windows[rp.win].ToEvent = i
		label := ""
		if int(e.Note) < len(notes) {
			label = notes[e.Note]
		}
		if label == "" {
			label = fmt.Sprintf("after %s at event %d", e.Action, i)
		}
		rp.openWindow(label, i+1)
	}
	switch e.Action {
	case ActionOOM, ActionAnnotate, ActionSnapshot:
		if len(rp.marks) < maxMarkers {
			rp.marks = append(rp.marks, markRef{event: i, timeUS: e.TimeUS, kind: e.Action, note: e.Note})
		}
	}
	if rp.cur > r.PeakBytes {
		r.PeakBytes, r.PeakRequestedBytes, r.PeakEvent, r.PeakTimeUS = rp.cur, rp.req, i, e.TimeUS
		if err := rp.newPeak(t); err != nil {
			return err
		}
	}
	if rp.win >= 0 {
		if w := &r.Windows[rp.win]; rp.cur > w.PeakBytes {
			w.PeakBytes, w.PeakEvent, w.PeakTimeUS = rp.cur, i, e.TimeUS
		}
	}
	rp.tl.add(Point{Event: i, TimeUS: e.TimeUS, Bytes: rp.cur, Reserved: rp.res})
	return nil
}

// finish ends the replay: the windows in which something was allocated,
// the live set at the peak and the segments there, the markers.
func (rp *replay) finish(notes []string, fs *frameText, segs []Segment) (DeviceReport, error) {
	if rp.err != nil {
		return rp.r, rp.err
	}
	if rp.i != rp.p.n {
		return rp.r, fmt.Errorf("device_traces[%d]: %d entries on the second read, %d on the first: the file changed while it was read", rp.r.Device, rp.i, rp.p.n)
	}
	r := &rp.r
	if rp.win >= 0 {
		r.Windows[rp.win].ToEvent = rp.p.n - 1
		kept := r.Windows[:0]
		for k, w := range r.Windows {
			if rp.busy[k] {
				kept = append(kept, w)
			}
		}
		r.Windows = kept
	}
	r.Timeline = rp.tl.points()
	r.RoundingBytes = r.PeakBytes - r.PeakRequestedBytes
	live := rp.atPeak
	if live == nil {
		undoInto(rp.state, rp.log)
		live = rp.state
	}
	r.LiveAtPeak = rp.liveBlocks(live, fs)
	av := r.Allocator
	n, what := rp.need()
	av.AtPeak = peakState(segs, rp.segAfter, r.PeakEvent, r.LiveAtPeak)
	av.AtPeak.judge(n, what)
	av.AtEnd.judge(n, what)
	for _, m := range rp.marks {
		mk := Marker{Event: m.event, TimeUS: m.timeUS, Kind: m.kind.String()}
		if int(m.note) < len(notes) {
			mk.Label = notes[m.note]
		}
		av.Markers = append(av.Markers, mk)
	}
	return *r, nil
}

// liveBlocks lists a live set, largest first (then by address).
func (rp *replay) liveBlocks(live map[int64]alloc, fs *frameText) []LiveBlock {
	out := make([]LiveBlock, 0, len(live))
	for addr, a := range live {
		b := LiveBlock{Addr: addr, Size: a.size, RequestedSize: a.req, SizeExact: a.exact, Event: a.event, Frame: fs.of(a.frame)}
		if a.event < 0 {
			init := rp.p.initial
			k := sort.Search(len(init), func(k int) bool { return init[k].Addr >= addr })
			if k < len(init) && init[k].Addr == addr {
				b.Frame = init[k].Frame
				if init[k].frame != 0 {
					b.Frame = fs.of(init[k].frame)
				}
			}
		}
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

// need is the allocation the largest free block is set against.
func (rp *replay) need() (int64, string) {
	if len(rp.r.OOMs) > 0 {
		o := rp.r.OOMs[0]
		return o.Size, fmt.Sprintf("the request that ran out of memory at entry %d", o.Event)
	}
	if rp.bestAt < 0 {
		return 0, "no allocation in the trace"
	}
	return RoundBlock(rp.bestSize), fmt.Sprintf("the largest allocation of the trace, at entry %d", rp.bestAt)
}

// analysis is the replay of every device through both passes.
type analysis struct {
	points int
	one    passOne
	two    tracker
	logMin int
	devs   []*devReplay
}

// newAnalysis is an analysis with the package's bounds.
func newAnalysis(points int) *analysis {
	a := &analysis{points: points, logMin: 1 << 16}
	a.one.t.limit, a.one.pre.limit, a.two.limit = MaxTrackedBlocks, MaxTrackedBlocks, MaxTrackedBlocks
	return a
}

// devReplay is one device: its segments (sorted), its report so far, the
// error that stopped it, and its replay (nil without history).
type devReplay struct {
	d    int
	segs []Segment
	r    DeviceReport
	err  error
	rp   *replay
}

// Analyze replays every device of s. points bounds each timeline (0 takes
// DefaultTimelinePoints). It fails only when a byte total overflows int64,
// a trace holds more than MaxTrackedBlocks blocks at once, or the
// snapshot holds no device at all.
func Analyze(s *Snapshot, points int) ([]DeviceReport, error) {
	return newAnalysis(points).run(s)
}

// run is Analyze with a's bounds.
func (a *analysis) run(s *Snapshot) ([]DeviceReport, error) {
	scans := make([]*scan, s.NumTraces())
	for d := range scans {
		if s.traceLen(d) == 0 {
			continue
		}
		sc := newScan()
		var err error
		s.eachEvent(d, func(e *Event) {
			if err == nil {
				err = a.one.event(sc, e)
			}
		})
		if err != nil {
			return nil, err
		}
		scans[d] = sc
	}
	if err := a.plan(s, scans); err != nil {
		return nil, err
	}
	for _, dv := range a.devs {
		if dv.rp == nil {
			continue
		}
		s.eachEvent(dv.d, func(e *Event) { dv.rp.event(&a.two, s.Notes, e) })
	}
	return a.finish(s)
}

// plan ends the first pass: which devices there are, their segments and
// state at the snapshot, and each replay set up. scans are by device.
func (a *analysis) plan(s *Snapshot, scans []*scan) error {
	if a.points <= 0 {
		a.points = DefaultTimelinePoints
	}
	devices := map[int]bool{}
	for d, sc := range scans {
		if sc != nil && sc.n > 0 {
			devices[d] = true
		}
	}
	byDevice := map[int][]Segment{}
	for _, seg := range s.Segments {
		if seg.Device < 0 || seg.Device > 1<<20 {
			return fmt.Errorf("segments: device %d out of range 0..1048576", seg.Device)
		}
		devices[int(seg.Device)] = true
		byDevice[int(seg.Device)] = append(byDevice[int(seg.Device)], seg)
	}
	if len(devices) == 0 {
		return fmt.Errorf("empty snapshot: no segment and no trace entry on any device, nothing to measure")
	}
	order := make([]int, 0, len(devices))
	for d := range devices {
		order = append(order, d)
	}
	sort.Ints(order)
	for _, d := range order {
		var sc *scan
		if d < len(scans) {
			sc = scans[d]
		}
		dv := &devReplay{d: d}
		a.devs = append(a.devs, dv)
		dv.err = a.prepare(dv, s, sc, byDevice[d])
	}
	return nil
}

// prepare is a device's state at the snapshot and its replay's start.
func (a *analysis) prepare(dv *devReplay, s *Snapshot, sc *scan, segs []Segment) error {
	n := 0
	if sc != nil {
		n = sc.n
	}
	d := dv.d
	r := DeviceReport{Device: d, History: s.History && n > 0, Events: n, PeakEvent: -1}
	where := fmt.Sprintf("device %d", d)
	// The blocks allocated at the snapshot, by address.
	atEnd := map[int64]Block{}
	segs, err := disjoint(segs, d)
	if err != nil {
		return err
	}
	endReserved := int64(0)
	for _, seg := range segs {
		if endReserved, err = add(endReserved, seg.TotalSize, where); err != nil {
			return err
		}
		for _, b := range seg.Blocks {
			if b.State == "active_allocated" {
				atEnd[b.Address] = b
				if r.CurrentBytes, err = add(r.CurrentBytes, b.Size, where); err != nil {
					return err
				}
			}
		}
	}
	dv.segs = segs
	r.Allocator = &AllocatorView{InitialReservedBytes: endReserved, ReservedPeakBytes: endReserved, ReservedPeakEvent: -1, AtEnd: endState(segs)}
	if !r.History {
		if !s.History {
			r.Note = "history recording was off (no device_traces: torch.cuda.memory._record_memory_history() was not enabled), so there is no peak; current_bytes is the allocation at the snapshot"
		} else {
			r.Note = "the trace of this device is empty, so there is no peak; current_bytes is the allocation at the snapshot"
		}
		dv.r = r
		return nil
	}
	p := planOf(sc, atEnd)
	r.FreeEvent = p.free.String()
	rp, err := startReplay(r, p, &a.two)
	if err != nil {
		return err
	}
	// Reserved: the segments at the snapshot less the trace's segment
	// entries is what they held before it.
	res := endReserved - sc.segDelta
	if res < 0 {
		rp.r.warn(fmt.Sprintf("the trace's segment entries add %d bytes more than the snapshot's segments hold: the reserved memory before the trace is taken as 0", -res))
		res = 0
	}
	rp.logMin = a.logMin
	rp.begin(res, a.points)
	dv.rp = rp
	return nil
}

// finish makes the reports, in device order; the first device's error
// is the error.
func (a *analysis) finish(s *Snapshot) ([]DeviceReport, error) {
	fs := &frameText{frames: s.Frames, text: map[int32]string{}}
	out := make([]DeviceReport, 0, len(a.devs))
	for _, dv := range a.devs {
		if dv.err != nil {
			return nil, dv.err
		}
		if dv.rp == nil {
			out = append(out, dv.r)
			continue
		}
		r, err := dv.rp.finish(s.Notes, fs, dv.segs)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func (r *DeviceReport) warn(msg string) {
	if len(r.Warnings) < maxWarnings {
		r.Warnings = append(r.Warnings, msg)
	} else if len(r.Warnings) == maxWarnings {
		r.Warnings = append(r.Warnings, "more warnings left out")
	}
}
