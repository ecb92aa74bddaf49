package measure

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
)

// eventSink takes each trace entry as it is read. A stream is one list of
// entries, numbered in the order the reader met them; which device's trace
// each is, the walk says at the end (Snapshot.streams).
type eventSink interface {
	event(stream int32, e *Event) error
}

// collect keeps every stream's entries, packed: the trace in memory
// (ReadSnapshot).
type collect struct {
	streams []*packedTrace
}

func (c *collect) event(stream int32, e *Event) error {
	for int(stream) >= len(c.streams) {
		c.streams = append(c.streams, &packedTrace{})
	}
	c.streams[stream].add(e)
	return nil
}

// take is a stream's entries (nil for -1: an empty trace).
func (c *collect) take(stream int32) *packedTrace {
	if stream < 0 || int(stream) >= len(c.streams) {
		return nil
	}
	return c.streams[stream]
}

// newSnapshot is an empty snapshot, its tables' index 0 none.
func newSnapshot() *Snapshot { return &Snapshot{Frames: []Frame{{}}, Notes: []string{""}} }

// decode reads a snapshot from r into s, handing each trace entry to
// sink: the pickle, or the JSON form, either optionally gzipped.
func decode(r io.Reader, opt ReadOptions, s *Snapshot, sink eventSink) error {
	limit := opt.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	br := bufio.NewReaderSize(r, 1<<20)
	head, _ := br.Peek(2)
	if len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return fmt.Errorf("gzip: %v", err)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 1<<20)
	}
	first, err := firstByte(br)
	if err != nil {
		return err
	}
	if first == '{' {
		s.Format = "json"
		return readSnapshotJSON(&limitedReader{r: br, left: limit}, limit, s, sink)
	}
	s.Format = "pickle"
	return decodeSnapshotPickle(br, limit, s, sink)
}

// Analysis is a snapshot read and replayed: what ReadSnapshot and
// Analyze give, without the trace.
type Analysis struct {
	Format  string
	History bool
	Devices []DeviceReport
}

// AnalyzeStream reads a snapshot and replays it without holding its
// trace: open(1) and then open(2) each give the whole input from its
// first byte, and each is read once, front to back (the first pass and
// the replay, scan.go). Memory is the segments, the top frames and the
// blocks live at once, not the entries. The result is Analyze's for the
// same file, entry for entry.
func AnalyzeStream(open func(pass int) (io.Reader, error), opt ReadOptions, points int) (*Analysis, error) {
	return newAnalysis(points).stream(open, opt)
}

// stream is AnalyzeStream with a's bounds.
func (a *analysis) stream(open func(pass int) (io.Reader, error), opt ReadOptions) (*Analysis, error) {
	r, err := open(1)
	if err != nil {
		return nil, err
	}
	first, s1 := &scanSink{a: a}, newSnapshot()
	if err := decode(r, opt, s1, first); err != nil {
		return nil, err
	}
	scans := make([]*scan, len(s1.streams))
	for d, id := range s1.streams {
		if id >= 0 && int(id) < len(first.scans) {
			scans[d] = first.scans[id]
		}
	}
	first.scans = nil
	if err := a.plan(s1, scans); err != nil {
		return nil, err
	}
	r, err = open(2)
	if err != nil {
		return nil, err
	}
	s2 := newSnapshot()
	second := &replaySink{a: a, byStream: map[int32]*replay{}, snap: s2}
	for _, dv := range a.devs {
		if dv.rp != nil && dv.d < len(s1.streams) {
			second.byStream[s1.streams[dv.d]] = dv.rp
		}
	}
	if err := decode(r, opt, s2, second); err != nil {
		return nil, err
	}
	if len(s2.streams) != len(s1.streams) || len(s2.Segments) != len(s1.Segments) {
		return nil, fmt.Errorf("the file changed between its two reads: read it again")
	}
	devs, err := a.finish(s2)
	if err != nil {
		return nil, err
	}
	return &Analysis{Format: s2.Format, History: s2.History, Devices: devs}, nil
}

// scanSink runs the first pass on each stream as it is read.
type scanSink struct {
	a     *analysis
	scans []*scan
}

func (k *scanSink) event(stream int32, e *Event) error {
	for int(stream) >= len(k.scans) {
		k.scans = append(k.scans, newScan())
	}
	return k.a.one.event(k.scans[stream], e)
}

// replaySink replays each device's stream as it is read; a stream that is
// no device's trace is read and left.
type replaySink struct {
	a        *analysis
	byStream map[int32]*replay
	snap     *Snapshot
}

func (k *replaySink) event(stream int32, e *Event) error {
	if rp := k.byStream[stream]; rp != nil {
		rp.event(&k.a.two, k.snap.Notes, e)
	}
	return nil
}
