package snapgen

import (
	"bufio"
	"io"
	"math/rand"
	"sort"
	"strconv"
)

// Options describe a snapshot. The zero value of a field takes its
// default.
type Options struct {
	// Seed makes the snapshot reproducible.
	Seed int64
	// Devices is how many devices have a trace (default 1).
	Devices int
	// Allocs is the number of allocations per device (default 1,000).
	// TargetBytes, when set, overrides it: allocations are made until the
	// file is about that large.
	Allocs      int
	TargetBytes int64
	// Live bounds the allocations live at once (default 400).
	Live int
	// Depth is the frames per stack (default 12); CallSites the distinct
	// stacks (default 300).
	Depth, CallSites int
	// AnnotateEvery puts an annotate entry ("step N") every that many
	// allocations (0: none).
	AnnotateEvery int
	// OOMAt puts an oom entry after that allocation (0: none).
	OOMAt int
	// JSON writes the JSON form instead of the pickle.
	JSON bool
}

// DeviceStats is what the written trace of one device holds.
type DeviceStats struct {
	Entries          int
	PeakAllocated    int64 // block bytes, the largest total after any entry
	PeakAllocatedAt  int   // the entry of the peak
	PeakReserved     int64 // segment bytes
	EndAllocated     int64
	EndReserved      int64
	Segments         int   // at the end
	FreeBlocks       int   // at the end
	LargestFreeBlock int64 // at the end
	OOMEntry         int   // -1: none
	Annotations      int
	// At the allocated peak: the segments, their free blocks and the
	// largest of them.
	PeakSegments, PeakFreeBlocks int
	PeakLargestFreeBlock         int64
}

// Stats is what was written.
type Stats struct {
	Bytes   int64
	Devices []DeviceStats
}

const (
	smallSize     = 1 << 20 // requests up to 1 MiB come from 2 MiB segments
	smallSegment  = 2 << 20
	largeSegment  = 20 << 20
	roundLarge    = 2 << 20
	minBlock      = 512
	baseAddress   = 0x7f0000000000
	deviceSpacing = 1 << 40
)

type block struct {
	addr, size, req int64
	alloc           int // allocation id, -1 when free
}

type segment struct {
	addr, size int64
	small      bool
	blocks     []block // by address
}

type allocation struct {
	id, site int
	seg      *segment
	addr     int64
	size     int64 // block size
	req      int64
}

// entry is one trace entry as written.
type entry struct {
	action     string
	addr, size int64
	time       int64
	stack      int // allocation id whose stack it carries, -1 for none
	site       int
	note       string
	deviceFree int64
}

// sim is one device's allocator run: the same seed replays it exactly, so
// the segments (written first) and the trace come from two runs.
type sim struct {
	o       Options
	rng     *rand.Rand
	dev     int
	segs    []*segment
	live    []*allocation
	next    int
	time    int64
	nextSeg int64
	stats   DeviceStats
	cur     int64 // allocated block bytes
	res     int64 // reserved
	emit    func(entry) error
}

func (o *Options) defaults() {
	if o.Devices <= 0 {
		o.Devices = 1
	}
	if o.Allocs <= 0 {
		o.Allocs = 1000
	}
	if o.Live <= 0 {
		o.Live = 400
	}
	if o.Depth <= 0 {
		o.Depth = 12
	}
	if o.CallSites <= 0 {
		o.CallSites = 300
	}
}

func newSim(o Options, dev int, emit func(entry) error) *sim {
	return &sim{o: o, dev: dev, rng: rand.New(rand.NewSource(o.Seed*7919 + int64(dev))),
		time: 1_700_000_000_000_000, nextSeg: baseAddress + int64(dev)*deviceSpacing,
		emit: emit, stats: DeviceStats{OOMEntry: -1}}
}

func (s *sim) entry(e entry) error {
	s.time += 1 + int64(s.rng.Intn(40))
	e.time = s.time
	if err := s.emit(e); err != nil {
		return err
	}
	s.stats.Entries++
	return nil
}

func roundBlock(r int64) int64 {
	if r <= minBlock {
		return minBlock
	}
	return (r + minBlock - 1) / minBlock * minBlock
}

// request draws a requested size: mostly small tensors, some activations
// of megabytes, a few of hundreds of megabytes.
func (s *sim) request() int64 {
	switch p := s.rng.Intn(100); {
	case p < 55:
		return int64(1 + s.rng.Intn(64<<10))
	case p < 90:
		return int64(64<<10 + s.rng.Intn(16<<20))
	default:
		return int64(16<<20 + s.rng.Intn(400<<20))
	}
}

// step makes one allocation, freeing live ones first when at the bound.
func (s *sim) step(n int) error {
	for len(s.live) >= s.o.Live || (len(s.live) > 0 && s.rng.Intn(3) == 0) {
		i := s.rng.Intn(len(s.live))
		if s.rng.Intn(2) == 0 {
			i = len(s.live) - 1 // often the most recent: a temporary
		}
		if err := s.free(i); err != nil {
			return err
		}
		if len(s.live) < s.o.Live/2 {
			break
		}
	}
	req := s.request()
	size := roundBlock(req)
	a := &allocation{id: s.next, site: s.rng.Intn(s.o.CallSites), req: req, size: size}
	s.next++
	if !s.place(a) {
		seg := s.newSegment(size)
		if err := s.entry(entry{action: "segment_alloc", addr: seg.addr, size: seg.size, stack: a.id, site: a.site}); err != nil {
			return err
		}
		s.place(a)
	}
	s.live = append(s.live, a)
	s.cur += size
	if err := s.entry(entry{action: "alloc", addr: a.addr, size: req, stack: a.id, site: a.site}); err != nil {
		return err
	}
	if s.cur > s.stats.PeakAllocated {
		s.stats.PeakAllocated, s.stats.PeakAllocatedAt = s.cur, s.stats.Entries-1
		s.stats.PeakSegments, s.stats.PeakFreeBlocks, s.stats.PeakLargestFreeBlock = s.freeRoom()
	}
	if s.o.OOMAt > 0 && n+1 == s.o.OOMAt {
		s.stats.OOMEntry = s.stats.Entries
		if err := s.entry(entry{action: "oom", size: 80 << 30, stack: -1, deviceFree: 381 << 20}); err != nil {
			return err
		}
	}
	if s.o.AnnotateEvery > 0 && (n+1)%s.o.AnnotateEvery == 0 {
		s.stats.Annotations++
		if err := s.entry(entry{action: "annotate", stack: -1, note: "step " + strconv.Itoa((n+1)/s.o.AnnotateEvery)}); err != nil {
			return err
		}
	}
	return nil
}

func (s *sim) newSegment(size int64) *segment {
	seg := &segment{addr: s.nextSeg, small: size <= smallSize}
	switch {
	case seg.small:
		seg.size = smallSegment
	case size < largeSegment/2:
		seg.size = largeSegment
	default:
		seg.size = (size + roundLarge - 1) / roundLarge * roundLarge
	}
	s.nextSeg += seg.size + roundLarge
	seg.blocks = []block{{addr: seg.addr, size: seg.size, alloc: -1}}
	s.segs = append(s.segs, seg)
	s.res += seg.size
	s.stats.PeakReserved = max(s.stats.PeakReserved, s.res)
	return seg
}

// place puts a in the first free block that fits, in a segment of its
// pool, splitting the block.
func (s *sim) place(a *allocation) bool {
	small := a.size <= smallSize
	for _, seg := range s.segs {
		if seg.small != small {
			continue
		}
		for i, b := range seg.blocks {
			if b.alloc >= 0 || b.size < a.size {
				continue
			}
			nb := block{addr: b.addr, size: a.size, req: a.req, alloc: a.id}
			if b.size > a.size {
				rest := block{addr: b.addr + a.size, size: b.size - a.size, alloc: -1}
				seg.blocks = append(seg.blocks[:i+1], seg.blocks[i:]...)
				seg.blocks[i+1] = rest
			}
			seg.blocks[i] = nb
			a.seg, a.addr = seg, b.addr
			return true
		}
	}
	return false
}

func (s *sim) free(i int) error {
	a := s.live[i]
	s.live = append(s.live[:i], s.live[i+1:]...)
	for _, action := range []string{"free_requested", "free_completed"} {
		if err := s.entry(entry{action: action, addr: a.addr, size: a.req, stack: a.id, site: a.site}); err != nil {
			return err
		}
		if action == "free_requested" {
			s.cur -= a.size
		}
	}
	bs := a.seg.blocks
	j := sort.Search(len(bs), func(k int) bool { return bs[k].addr >= a.addr })
	bs[j].alloc, bs[j].req = -1, 0
	if j+1 < len(bs) && bs[j+1].alloc < 0 { // coalesce with the next
		bs[j].size += bs[j+1].size
		bs = append(bs[:j+1], bs[j+2:]...)
	}
	if j > 0 && bs[j-1].alloc < 0 { // and the previous
		bs[j-1].size += bs[j].size
		bs = append(bs[:j], bs[j+1:]...)
	}
	a.seg.blocks = bs
	return nil
}

func (s *sim) finish() {
	s.stats.EndAllocated, s.stats.EndReserved = s.cur, s.res
	s.stats.Segments, s.stats.FreeBlocks, s.stats.LargestFreeBlock = s.freeRoom()
}

// freeRoom is the segments now, their free blocks and the largest.
func (s *sim) freeRoom() (segs, blocks int, largest int64) {
	for _, seg := range s.segs {
		for _, b := range seg.blocks {
			if b.alloc < 0 {
				blocks++
				largest = max(largest, b.size)
			}
		}
	}
	return len(s.segs), blocks, largest
}

// countingWriter counts the bytes written.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Write writes a snapshot to w and returns what it holds.
func Write(w io.Writer, o Options) (Stats, error) {
	o.defaults()
	cw := &countingWriter{w: w}
	bw := bufio.NewWriterSize(cw, 1<<20)
	var e encoder
	if o.JSON {
		e = &jsonEnc{w: bw}
	} else {
		e = newPickleEnc(bw)
	}
	st, err := write(e, o, cw)
	if err != nil {
		return st, err
	}
	if err := bw.Flush(); err != nil {
		return st, err
	}
	st.Bytes = cw.n
	return st, nil
}

// allocsFor is how many allocations make about TargetBytes: measured on
// the writer itself (about 215 bytes an allocation in the pickle, 3,300
// in JSON), per device.
func allocsFor(o Options) int {
	if o.TargetBytes <= 0 {
		return o.Allocs
	}
	per := int64(215)
	if o.JSON {
		per = 3300
	}
	return int(o.TargetBytes / per / int64(o.Devices))
}

func write(e encoder, o Options, cw *countingWriter) (Stats, error) {
	n := allocsFor(o)
	// First run: the state at the end, for the segments written first.
	ends := make([]*sim, o.Devices)
	for d := range ends {
		s := newSim(o, d, func(entry) error { return nil })
		for i := 0; i < n; i++ {
			if err := s.step(i); err != nil {
				return Stats{}, err
			}
		}
		s.finish()
		ends[d] = s
	}
	st := Stats{}
	sites := newSites(o)
	e.begin()
	e.key("segments")
	e.beginList()
	for _, s := range ends {
		for _, seg := range s.segs {
			writeSegment(e, s.dev, seg, s, sites)
		}
	}
	e.endList()
	e.key("device_traces")
	e.beginList()
	for d := 0; d < o.Devices; d++ {
		e.beginList()
		s := newSim(o, d, nil)
		s.emit = func(en entry) error {
			writeEntry(e, en, sites)
			return e.err()
		}
		for i := 0; i < n; i++ {
			if err := s.step(i); err != nil {
				return st, err
			}
		}
		s.finish()
		e.endList()
		st.Devices = append(st.Devices, s.stats)
	}
	e.endList()
	e.key("allocator_settings")
	e.begin()
	e.key("PYTORCH_CUDA_ALLOC_CONF")
	e.str("expandable_segments:False")
	e.key("max_split_size")
	e.int(-1)
	e.end()
	e.end()
	e.stop()
	return st, e.err()
}

func writeSegment(e encoder, dev int, seg *segment, s *sim, sites *callSites) {
	var allocated int64
	for _, b := range seg.blocks {
		if b.alloc >= 0 {
			allocated += b.size
		}
	}
	typ := "large"
	if seg.small {
		typ = "small"
	}
	e.begin()
	e.key("device")
	e.int(int64(dev))
	e.key("address")
	e.int(seg.addr)
	e.key("total_size")
	e.int(seg.size)
	e.key("allocated_size")
	e.int(allocated)
	e.key("active_size")
	e.int(allocated)
	e.key("stream")
	e.int(0)
	e.key("segment_type")
	e.str(typ)
	e.key("blocks")
	e.beginList()
	for _, b := range seg.blocks {
		e.begin()
		e.key("address")
		e.int(b.addr)
		e.key("size")
		e.int(b.size)
		e.key("requested_size")
		e.int(b.req)
		e.key("state")
		if b.alloc >= 0 {
			e.str("active_allocated")
			e.key("frames")
			sites.stack(e, b.alloc, siteOf(s, b.alloc))
		} else {
			e.str("inactive")
			e.key("frames")
			e.beginList()
			e.endList()
		}
		e.end()
	}
	e.endList()
	e.end()
}

func siteOf(s *sim, id int) int {
	for _, a := range s.live {
		if a.id == id {
			return a.site
		}
	}
	return 0
}

func writeEntry(e encoder, en entry, sites *callSites) {
	e.begin()
	e.key("action")
	e.str(en.action)
	e.key("addr")
	e.int(en.addr)
	e.key("size")
	e.int(en.size)
	e.key("stream")
	e.int(0)
	e.key("time_us")
	e.int(en.time)
	if en.action == "oom" {
		e.key("device_free")
		e.int(en.deviceFree)
	}
	if en.note != "" {
		e.key("user_metadata")
		e.str(en.note)
	}
	e.key("frames")
	if en.stack >= 0 {
		sites.stack(e, en.stack, en.site)
	} else {
		e.beginList()
		e.endList()
	}
	e.end()
	if en.action == "free_completed" {
		e.forget(en.stack)
	}
}
