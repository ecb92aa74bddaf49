package measure

import (
	"fmt"
	"sort"
)

// The allocator's view: what the caching allocator reserved from CUDA
// (its segments) beside what it handed out (allocated blocks), and
// whether the free room inside the segments could serve the request that
// needed it (docs/model.md, "The allocator's view").

// maxSegmentsShown bounds the segments listed at a point.
const maxSegmentsShown = 32

// maxMarkers bounds a device's markers on the timeline.
const maxMarkers = MaxWindows + MaxOOMs

// AllocatorView is one device's reserved memory and fragmentation.
type AllocatorView struct {
	// InitialReservedBytes is what the segments held before the trace
	// began: the segments at the snapshot less the trace's segment
	// entries. ReservedPeakBytes is the most reserved after any entry.
	InitialReservedBytes int64 `json:"initial_reserved_bytes"`
	ReservedPeakBytes    int64 `json:"reserved_peak_bytes"`
	ReservedPeakEvent    int   `json:"reserved_peak_event"`
	// AtPeak is the segments at the allocated peak, AtEnd at the snapshot.
	AtPeak SegmentState `json:"at_peak"`
	AtEnd  SegmentState `json:"at_end"`
	// Markers are the OOM, annotate and snapshot entries, in trace order.
	Markers []Marker `json:"markers,omitempty"`
}

// SegmentState is the segments at one point, their free room and whether
// the allocation that needed room found it in one block.
type SegmentState struct {
	Event          int   `json:"event"`
	Segments       int   `json:"segments"`
	ReservedBytes  int64 `json:"reserved_bytes"`
	AllocatedBytes int64 `json:"allocated_bytes"`
	// FreeBytes is reserved less allocated, in FreeBlocks blocks; the
	// largest of them is LargestFreeBlock.
	FreeBytes        int64 `json:"free_bytes"`
	FreeBlocks       int   `json:"free_blocks"`
	LargestFreeBlock int64 `json:"largest_free_block"`
	// NeedBytes is the allocation set against the largest free block: the
	// first OOM's request, else the largest block the trace allocated;
	// Need says which. Fits is NeedBytes <= LargestFreeBlock; Stranded is
	// room that cannot be used: enough free bytes in all, but no block
	// large enough.
	NeedBytes int64  `json:"need_bytes"`
	Need      string `json:"need"`
	Fits      bool   `json:"fits"`
	Stranded  bool   `json:"stranded"`
	// Modelled is true at the peak: the segments there are the snapshot's
	// replayed back through the trace's segment entries, and the blocks
	// the live set (sizes modelled where LiveBlock.SizeExact is false).
	Modelled bool `json:"modelled"`
	// UnplacedBytes are live bytes at the peak in no known segment (the
	// snapshot's segments and the trace's segment entries do not cover
	// them).
	UnplacedBytes int64 `json:"unplaced_bytes,omitempty"`
	// List is the segments with the most free room first (at most 32).
	List []SegmentRoom `json:"segments_list"`
}

// SegmentRoom is one segment's allocated and free bytes.
type SegmentRoom struct {
	Address          int64  `json:"address"`
	TotalSize        int64  `json:"total_size"`
	AllocatedBytes   int64  `json:"allocated_bytes"`
	FreeBlocks       int    `json:"free_blocks"`
	LargestFreeBlock int64  `json:"largest_free_block"`
	SegmentType      string `json:"segment_type,omitempty"`
}

// Marker is an OOM, annotate or snapshot entry on the timeline.
type Marker struct {
	Event  int    `json:"event"`
	TimeUS int64  `json:"time_us"`
	Kind   string `json:"kind"`
	Label  string `json:"label,omitempty"`
}

// span is a segment's address range.
type span struct {
	addr, size int64
	typ        string
}

// disjoint sorts device d's segments by address, refused when two
// overlap.
func disjoint(segs []Segment, d int) ([]Segment, error) {
	segs = append([]Segment(nil), segs...)
	sort.Slice(segs, func(i, j int) bool { return segs[i].Address < segs[j].Address })
	for i := 1; i < len(segs); i++ {
		p := segs[i-1]
		if end, ok := checkedEnd(p.Address, p.TotalSize); !ok || end > segs[i].Address {
			return nil, fmt.Errorf("segments: device %d: the segment at %#x (%d bytes) overlaps the one at %#x: segments are disjoint address ranges", d, p.Address, p.TotalSize, segs[i].Address)
		}
	}
	return segs, nil
}

func checkedEnd(addr, size int64) (int64, bool) {
	if size > (1<<63-1)-addr {
		return 0, false
	}
	return addr + size, true
}

// segmentDelta is a trace entry's change to the reserved bytes.
func segmentDelta(e *Event) int64 {
	switch e.Action {
	case ActionSegmentAlloc, ActionSegmentMap:
		return e.Size
	case ActionSegmentFree, ActionSegmentUnmap:
		return -e.Size
	}
	return 0
}

// roomOf fills a state's totals from its segments.
func roomOf(st *SegmentState, rooms []SegmentRoom) {
	st.Segments = len(rooms)
	for _, rm := range rooms {
		st.ReservedBytes += rm.TotalSize
		st.AllocatedBytes += rm.AllocatedBytes
		st.FreeBlocks += rm.FreeBlocks
		st.LargestFreeBlock = max(st.LargestFreeBlock, rm.LargestFreeBlock)
	}
	st.FreeBytes = st.ReservedBytes - st.AllocatedBytes
	sort.Slice(rooms, func(i, j int) bool {
		fi, fj := rooms[i].TotalSize-rooms[i].AllocatedBytes, rooms[j].TotalSize-rooms[j].AllocatedBytes
		if fi != fj {
			return fi > fj
		}
		return rooms[i].Address < rooms[j].Address
	})
	st.List = rooms[:min(len(rooms), maxSegmentsShown)]
}

func (st *SegmentState) judge(needBytes int64, what string) {
	st.NeedBytes, st.Need = needBytes, what
	st.Fits = needBytes <= st.LargestFreeBlock
	st.Stranded = !st.Fits && st.FreeBytes >= needBytes
}

// endState is the segments at the snapshot, from their blocks.
func endState(segs []Segment) SegmentState {
	st := SegmentState{Event: -2}
	rooms := make([]SegmentRoom, 0, len(segs))
	for _, seg := range segs {
		rm := SegmentRoom{Address: seg.Address, TotalSize: seg.TotalSize, SegmentType: seg.SegmentType}
		var used int64
		for _, b := range seg.Blocks {
			used += b.Size
			switch b.State {
			case "inactive":
				rm.FreeBlocks++
				rm.LargestFreeBlock = max(rm.LargestFreeBlock, b.Size)
			default:
				rm.AllocatedBytes += b.Size
			}
		}
		if gap := seg.TotalSize - used; gap > 0 && len(seg.Blocks) == 0 {
			// A segment listed without its blocks: all of it free.
			rm.FreeBlocks++
			rm.LargestFreeBlock = max(rm.LargestFreeBlock, gap)
		}
		rooms = append(rooms, rm)
	}
	roomOf(&st, rooms)
	return st
}

// peakState is the segments at the allocated peak: the snapshot's, less
// those the trace allocated after the peak, plus those it freed after it,
// holding the blocks live at the peak; the gaps between them are the
// free blocks.
func peakState(segs []Segment, after map[int64]segFirst, peak int, live []LiveBlock) SegmentState {
	byAddr := map[int64]span{}
	for _, seg := range segs {
		byAddr[seg.Address] = span{seg.Address, seg.TotalSize, seg.SegmentType}
	}
	for addr, f := range after {
		if f.added {
			delete(byAddr, addr)
		} else {
			byAddr[addr] = span{addr, f.size, ""}
		}
	}
	return placeBlocks(byAddr, peak, live)
}

// placeBlocks places the live blocks in the segments at a point; the
// gaps between them are the free blocks.
func placeBlocks(byAddr map[int64]span, peak int, live []LiveBlock) SegmentState {
	st := SegmentState{Event: peak, Modelled: true}
	spans := make([]span, 0, len(byAddr))
	for _, sp := range byAddr {
		spans = append(spans, sp)
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].addr < spans[j].addr })
	blocks := append([]LiveBlock(nil), live...)
	sort.Slice(blocks, func(i, j int) bool { return blocks[i].Addr < blocks[j].Addr })
	rooms := make([]SegmentRoom, 0, len(spans))
	j := 0
	for _, sp := range spans {
		rm := SegmentRoom{Address: sp.addr, TotalSize: sp.size, SegmentType: sp.typ}
		end := sp.addr + sp.size
		for j < len(blocks) && blocks[j].Addr < sp.addr {
			st.UnplacedBytes += blocks[j].Size // outside every segment
			j++
		}
		at := sp.addr
		for ; j < len(blocks) && blocks[j].Addr < end; j++ {
			b := blocks[j]
			if gap := b.Addr - at; gap > 0 {
				rm.FreeBlocks++
				rm.LargestFreeBlock = max(rm.LargestFreeBlock, gap)
			}
			size := min(b.Size, end-b.Addr)
			rm.AllocatedBytes += size
			at = max(at, b.Addr+size)
		}
		if gap := end - at; gap > 0 {
			rm.FreeBlocks++
			rm.LargestFreeBlock = max(rm.LargestFreeBlock, gap)
		}
		rooms = append(rooms, rm)
	}
	for ; j < len(blocks); j++ {
		st.UnplacedBytes += blocks[j].Size
	}
	roomOf(&st, rooms)
	return st
}
