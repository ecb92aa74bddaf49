package measure

import (
	"bufio"
	"errors"
	"io"
	"strconv"
	"strings"
)

// Action is what one trace entry records.
type Action uint8

// The actions of a device trace (torch.cuda.memory._snapshot's TraceEntry).
const (
	ActionOther Action = iota // an action this package does not know: ignored
	ActionAlloc
	ActionFreeRequested
	ActionFreeCompleted
	ActionSegmentAlloc
	ActionSegmentFree
	ActionSegmentMap
	ActionSegmentUnmap
	ActionOOM
	ActionSnapshot
	ActionAnnotate
)

var actionNames = [...]string{"other", "alloc", "free_requested", "free_completed", "segment_alloc",
	"segment_free", "segment_map", "segment_unmap", "oom", "snapshot", "annotate"}

func (a Action) String() string { return actionNames[a] }

func parseAction(s string) Action {
	for i, n := range actionNames[1:] {
		if n == s {
			return Action(i + 1)
		}
	}
	return ActionOther
}

// Frame is one frame of a recorded stack.
type Frame struct {
	Filename string `json:"filename"`
	Line     int64  `json:"line"`
	Name     string `json:"name"`
}

// maxFrameText bounds a frame's text in reports: a real file name and
// function fit many times over, and a crafted one of megabytes is not
// copied into every row that shows it.
const maxFrameText = 512

// String is "file:line:name", as memory_viz prints a frame, cut to 512
// bytes; "" for none.
func (f Frame) String() string {
	if f == (Frame{}) {
		return ""
	}
	line := ":" + strconv.FormatInt(f.Line, 10) + ":"
	room := maxFrameText - len(line)
	file, name := f.Filename, f.Name
	if len(file)+len(name) > room {
		file = cutText(file, room/2)
		name = cutText(name, room-len(file))
	}
	return file + line + name
}

// cutText cuts s to at most n bytes, marking the cut with "...".
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n < 3 {
		return ""
	}
	return strings.ToValidUTF8(s[:n-3], "") + "..."
}

// Event is one entry of a device trace. Size is the size the caller
// requested (the allocator records requested sizes in its trace, not block
// sizes). Frame is the entry's top frame (see topFrame), an index into
// Snapshot.Frames (0: none), so that the many entries of one stack share
// it. Note is an annotation's text, when the entry carries one, an index
// into Snapshot.Notes (0: none). An Event holds no pointer, so a trace of
// millions costs the collector nothing to scan.
type Event struct {
	Action     Action
	Frame      int32
	Note       int32
	Addr       int64
	Size       int64
	Stream     int64
	TimeUS     int64
	DeviceFree int64
}

// Block is one block of a segment at the time of the snapshot.
type Block struct {
	Address       int64
	Size          int64
	RequestedSize int64
	State         string // active_allocated, active_awaiting_free, inactive
	Frame         Frame
}

// Segment is one cudaMalloc'd (or mapped) segment at the time of the
// snapshot.
type Segment struct {
	Device        int64
	Address       int64
	TotalSize     int64
	AllocatedSize int64
	ActiveSize    int64
	Stream        int64
	SegmentType   string
	Blocks        []Block
}

// Snapshot is what torch.cuda.memory._snapshot() returns, reduced to what
// the measurement needs: the segments and, per device, the trace.
// History is false when the file has no device_traces at all (history
// recording was off); a device with an empty trace has History true and
// no events.
type Snapshot struct {
	Segments []Segment
	// Traces are the traces of a snapshot built by hand, by device.
	// ReadSnapshot leaves them nil and holds its traces packed: read
	// either with NumTraces and Trace.
	Traces [][]Event
	// Frames are the entries' top frames and Notes their annotations'
	// texts; index 0 of each is none.
	Frames  []Frame
	Notes   []string
	History bool
	// Format is "pickle" or "json", as read.
	Format string
	// streams gives each device's trace as the reader numbered it (-1:
	// an empty trace), until the trace is taken.
	streams []int32
	// packed are the traces ReadSnapshot read, by device (nil: empty);
	// Traces are a snapshot's built by hand. Analyze reads either.
	packed []*packedTrace
	// noteBytes are the bytes of Notes (MaxNoteBytes).
	noteBytes int
}

// NumTraces is the number of device traces (device_traces' length).
func (s *Snapshot) NumTraces() int {
	if s.packed != nil {
		return len(s.packed)
	}
	return len(s.Traces)
}

// Trace is device d's trace, unpacked.
func (s *Snapshot) Trace(d int) []Event {
	if s.packed != nil {
		if d < 0 || d >= len(s.packed) || s.packed[d] == nil {
			return nil
		}
		return s.packed[d].events()
	}
	if d < 0 || d >= len(s.Traces) {
		return nil
	}
	return s.Traces[d]
}

// eachEvent calls f with each entry of device d's trace, in order.
func (s *Snapshot) eachEvent(d int, f func(e *Event)) {
	if s.packed != nil {
		if d < len(s.packed) && s.packed[d] != nil {
			s.packed[d].each(f)
		}
		return
	}
	if d < len(s.Traces) {
		for i := range s.Traces[d] {
			f(&s.Traces[d][i])
		}
	}
}

// traceLen is the number of entries of device d's trace.
func (s *Snapshot) traceLen(d int) int {
	if s.packed != nil {
		if d < len(s.packed) && s.packed[d] != nil {
			return s.packed[d].n
		}
		return 0
	}
	if d < len(s.Traces) {
		return len(s.Traces[d])
	}
	return 0
}

// ReadOptions bounds a read. The zero value takes the defaults.
type ReadOptions struct {
	// MaxBytes is the largest input accepted (after gzip), default
	// DefaultMaxBytes.
	MaxBytes int64
}

// ReadSnapshot reads a memory snapshot from r: the pickle that
// torch.cuda.memory._dump_snapshot writes, or the same dictionary as JSON
// (the form memory_viz also opens), either optionally gzip-compressed. A
// pickle is decoded as data only: an opcode that names, calls or builds a
// Python object is refused (ErrGlobal) before anything runs. The error
// names the field and what it should be.
func ReadSnapshot(r io.Reader, opt ReadOptions) (*Snapshot, error) {
	c := &collect{}
	s := newSnapshot()
	if err := decode(r, opt, s, c); err != nil {
		return nil, err
	}
	s.packed = make([]*packedTrace, len(s.streams))
	for d, id := range s.streams {
		s.packed[d] = c.take(id)
	}
	s.streams = nil
	return s, nil
}

// firstByte peeks at the first byte that is not white space.
func firstByte(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.ReadByte()
		if err == io.EOF {
			return 0, errors.New("empty file: not a memory snapshot")
		}
		if err != nil {
			return 0, err
		}
		if b != ' ' && b != '\t' && b != '\n' && b != '\r' {
			return b, br.UnreadByte()
		}
	}
}

// limitedReader fails with ErrTooLarge past its limit (io.LimitReader
// would end quietly and make a long file look truncated).
type limitedReader struct {
	r    io.Reader
	left int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, ErrTooLarge
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}
