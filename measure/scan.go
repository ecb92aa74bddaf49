package measure

import (
	"fmt"
	"sort"
)

// The replay reads each trace twice, front to back, and never holds it:
// the first pass (this file) learns what the replay must know before it
// starts (which entry ends an allocation, the blocks from before the
// trace, the entries whose block size the segments give, the reserved
// bytes before the trace, how many entries there are); the second
// (replay.go) replays. Analyze runs both over a trace in memory;
// AnalyzeStream runs each over a read of the file, so the page holds
// no trace at all. Both run the same code, entry by entry.

// MaxTrackedBlocks bounds the blocks a replay keeps at once, summed over
// the devices (each device counting the most it kept): the allocations
// live at once and those from before the trace in the first pass; the
// live set, the live set at the peak and the segments changed since it
// in the second. A real trace holds tens of thousands; a crafted one of
// millions of allocations never freed is refused rather than held.
const MaxTrackedBlocks = 1 << 21

// errTracked is the refusal past MaxTrackedBlocks.
var errTracked = fmt.Errorf("device_traces: more than %d blocks live at once, summed over the devices (a real trace holds far fewer)", MaxTrackedBlocks)

// tracker sums the devices' most-kept counts in one pass. The sum of
// each device's own maximum does not depend on the order the devices'
// entries come in, so a file is refused or not the same way whether its
// trace is in memory or read from the file.
type tracker struct{ sum, limit int }

// counted is one device's count of kept blocks.
type counted struct{ n, most int }

func (c *counted) add(t *tracker, k int) error {
	c.n += k
	if c.n > c.most {
		t.sum += c.n - c.most
		c.most = c.n
		if t.sum > t.limit {
			return errTracked
		}
	}
	return nil
}

// liveRef is an allocation of the trace not freed yet in the first pass.
type liveRef struct {
	event int
	size  int64 // requested
}

// initRef is a block freed in the trace that the trace had not allocated:
// it was allocated before the trace began.
type initRef struct {
	req   int64
	frame int32
}

// reading is the first pass under one reading of the free event.
type reading struct {
	live map[int64]liveRef
	init map[int64]initRef // the first such free at each address
}

func newReading() reading {
	return reading{live: map[int64]liveRef{}, init: map[int64]initRef{}}
}

func (rd *reading) alloc(c *counted, t *tracker, i int, e *Event) error {
	if _, ok := rd.live[e.Addr]; !ok {
		if err := c.add(t, 1); err != nil {
			return err
		}
	}
	rd.live[e.Addr] = liveRef{event: i, size: e.Size}
	return nil
}

func (rd *reading) free(c *counted, t *tracker, e *Event) error {
	if _, ok := rd.live[e.Addr]; ok {
		delete(rd.live, e.Addr)
		return c.add(t, -1)
	}
	if _, ok := rd.init[e.Addr]; ok {
		return nil
	}
	rd.init[e.Addr] = initRef{req: e.Size, frame: e.Frame}
	return c.add(t, 1)
}

// scan is the first pass over one trace. Which entry ends an allocation
// is known only at the end (free_requested if the trace has any, else
// free_completed), so both readings run until the first free_requested;
// before it the free_requested reading frees nothing, and holds every
// address allocated: it has its own bound (lostFR past it), refused only
// if a free_requested then comes.
type scan struct {
	n        int
	anyFR    bool
	segDelta int64 // the segment entries' sum, as the reserved bytes move
	markers  bool
	fr, fc   reading
	lostFR   bool
	cnt      counted // the reading in effect: fc, then fr
	pre      counted // fr before its first free_requested
}

func newScan() *scan { return &scan{fr: newReading(), fc: newReading()} }

// passOne is the first pass's state for every trace.
type passOne struct {
	t, pre tracker
}

func (p *passOne) event(sc *scan, e *Event) error {
	i := sc.n
	sc.n++
	switch e.Action {
	case ActionAlloc:
		if !sc.anyFR {
			if err := sc.fc.alloc(&sc.cnt, &p.t, i, e); err != nil {
				return err
			}
			if !sc.lostFR {
				if err := sc.fr.alloc(&sc.pre, &p.pre, i, e); err != nil {
					sc.lostFR, sc.fr = true, reading{}
				}
			}
			return nil
		}
		return sc.fr.alloc(&sc.cnt, &p.t, i, e)
	case ActionFreeRequested:
		if !sc.anyFR {
			if sc.lostFR {
				return fmt.Errorf("device_traces: entry %d is the trace's first free_requested, after more than %d addresses allocated without one (a real trace records free_requested from its first free)", i, p.pre.limit)
			}
			sc.anyFR = true
			if err := sc.cnt.add(&p.t, len(sc.fr.live)-sc.cnt.n); err != nil {
				return err
			}
			sc.fc = reading{}
		}
		return sc.fr.free(&sc.cnt, &p.t, e)
	case ActionFreeCompleted:
		if !sc.anyFR {
			return sc.fc.free(&sc.cnt, &p.t, e)
		}
	case ActionSegmentAlloc, ActionSegmentFree, ActionSegmentMap, ActionSegmentUnmap:
		sc.segDelta += segmentDelta(e)
	case ActionSnapshot, ActionAnnotate:
		sc.markers = true
	}
	return nil
}

// initBlock is a block allocated before the trace began: LiveBlock's
// Frame is set for one of the segments, frame for one the trace freed
// (its text is made when the report is).
type initBlock struct {
	LiveBlock
	frame int32
}

// plan is what the replay of one device starts from.
type plan struct {
	free    Action
	n       int
	markers bool
	// exactAt gives, by the entry that allocated it, a block still
	// allocated at the snapshot with the requested size the trace asked
	// for: its size is the segments'.
	exactAt map[int]Block
	// initial are the blocks from before the trace, by address.
	initial []initBlock
}

// planOf ends the first pass of one trace: atEnd are the device's blocks
// allocated at the snapshot, by address.
func planOf(sc *scan, atEnd map[int64]Block) *plan {
	p := &plan{free: ActionFreeCompleted, n: sc.n, markers: sc.markers, exactAt: map[int]Block{}}
	rd := &sc.fc
	if sc.anyFR {
		p.free, rd = ActionFreeRequested, &sc.fr
	}
	for addr, ref := range rd.live {
		if b, ok := atEnd[addr]; ok && b.RequestedSize == ref.size {
			p.exactAt[ref.event] = b
		}
	}
	for addr, in := range rd.init {
		p.initial = append(p.initial, initBlock{LiveBlock: LiveBlock{Addr: addr, RequestedSize: in.req, Size: RoundBlock(in.req), Event: -1}, frame: in.frame})
	}
	for addr, b := range atEnd {
		if _, ok := rd.live[addr]; ok {
			continue
		}
		if _, ok := rd.init[addr]; ok {
			continue // freed in the trace first: that free's block is kept
		}
		p.initial = append(p.initial, initBlock{LiveBlock: LiveBlock{Addr: addr, Size: b.Size, RequestedSize: b.RequestedSize, SizeExact: true, Event: -1, Frame: b.Frame.String()}})
	}
	sort.Slice(p.initial, func(i, j int) bool { return p.initial[i].Addr < p.initial[j].Addr })
	return p
}
