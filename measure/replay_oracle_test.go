package measure

import (
	"fmt"
	"sort"
)

// The replay as it was when the trace was held whole: several passes over
// []Event, each written the plainest way. It is the oracle the streaming
// replay (replay.go) is checked against, entry for entry (its one change:
// the blocks from before the trace are sorted stably, so that of two at
// one address the first met is kept, the rule docs/model.md states).

func oracleAnalyze(s *Snapshot, points int) ([]DeviceReport, error) {
	if points <= 0 {
		points = DefaultTimelinePoints
	}
	traces := make([][]Event, s.NumTraces())
	for d := range traces {
		traces[d] = s.Trace(d)
	}
	devices := map[int]bool{}
	for d, tr := range traces {
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
		if d < len(traces) {
			trace = traces[d]
		}
		r, err := oracleDevice(s, d, trace, points, byDevice[d])
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func oracleDevice(s *Snapshot, d int, trace []Event, points int, segs []Segment) (DeviceReport, error) {
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
	sort.SliceStable(initial, func(i, j int) bool { return initial[i].Addr < initial[j].Addr })

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
		r.Windows = oracleBusy(trace, r.Windows)
	}
	r.Timeline = tl.points()
	r.RoundingBytes = r.PeakBytes - r.PeakRequestedBytes
	r.LiveAtPeak = oracleLiveAt(trace, free, initial, exactAt, r.PeakEvent, fs)
	n, what := oracleNeed(&r, trace)
	av.AtPeak = oraclePeakState(segs, trace, r.PeakEvent, r.LiveAtPeak)
	av.AtPeak.judge(n, what)
	av.AtEnd.judge(n, what)
	av.Markers = oracleMarkers(trace, s.Notes)
	return r, nil
}

// busyWindows leaves out the windows in which nothing was allocated (two
// markers in a row, or a marker at the end).
func oracleBusy(trace []Event, ws []Window) []Window {
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

// liveAt replays the trace up to entry peak (inclusive) again and lists
// the allocations live there, largest first (then by address).
func oracleLiveAt(trace []Event, free Action, initial []LiveBlock, exactAt map[int]Block, peak int, fs *frameText) []LiveBlock {
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

func oracleNeed(r *DeviceReport, trace []Event) (int64, string) {
	if len(r.OOMs) > 0 {
		o := r.OOMs[0]
		return o.Size, fmt.Sprintf("the request that ran out of memory at entry %d", o.Event)
	}
	var best int64
	at := -1
	for i := range trace {
		if trace[i].Action == ActionAlloc && trace[i].Size > best {
			best, at = trace[i].Size, i
		}
	}
	if at < 0 {
		return 0, "no allocation in the trace"
	}
	return RoundBlock(best), fmt.Sprintf("the largest allocation of the trace, at entry %d", at)
}

func oraclePeakState(segs []Segment, trace []Event, peak int, live []LiveBlock) SegmentState {
	byAddr := map[int64]span{}
	for _, seg := range segs {
		byAddr[seg.Address] = span{seg.Address, seg.TotalSize, seg.SegmentType}
	}
	for i := len(trace) - 1; i > peak; i-- {
		e := &trace[i]
		switch e.Action {
		case ActionSegmentAlloc, ActionSegmentMap:
			delete(byAddr, e.Addr)
		case ActionSegmentFree, ActionSegmentUnmap:
			byAddr[e.Addr] = span{e.Addr, e.Size, ""}
		}
	}
	return placeBlocks(byAddr, peak, live)
}

func oracleMarkers(trace []Event, notes []string) []Marker {
	var out []Marker
	for i := range trace {
		e := &trace[i]
		switch e.Action {
		case ActionOOM, ActionAnnotate, ActionSnapshot:
			if len(out) == maxMarkers {
				return out
			}
			m := Marker{Event: i, TimeUS: e.TimeUS, Kind: e.Action.String()}
			if int(e.Note) < len(notes) {
				m.Label = notes[e.Note]
			}
			out = append(out, m)
		}
	}
	return out
}
