package measure

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// The pickle decoder: a stack machine for the data opcodes only, written
// for the snapshot so that it streams. Python's pickler writes a list's
// items between a MARK and APPENDS (1,000 at a time), so each trace entry
// is complete when it is appended to its list: it is converted to an
// Event there (convert.go) and its dict let go, so the decoded tree never
// holds more than one batch of entries. Segments' blocks and the frames
// of a stack are reduced the same way: a frame dict becomes a *frameV
// when appended to a list, and a stack's list becomes its top frame the
// first time an entry uses it.
//
// Every object a pickle builds can be referred to again through the memo.
// A trace entry or a block already converted is not kept there: a second
// reference to it is refused (PyTorch's snapshot writes each once), which
// is what makes a memo bomb of shared entries impossible rather than
// merely bounded. Frames and stacks, which PyTorch does share, stay in the
// memo in their reduced form.

// Decoder bounds. Each is far above what PyTorch's pickle needs and
// keeps a crafted stream's memory linear in its size with a small
// constant.
const (
	// maxStack bounds the values pending on the stack: Python's pickler
	// appends and sets items 1,000 at a time.
	maxStack = 1 << 18
	// maxMarks bounds the open MARKs (the nesting of the containers being
	// built).
	maxMarks = 1 << 12
	// maxMemoIndex bounds a PUT's index (a dense memo of that many slots).
	maxMemoIndex = 1 << 28
	// maxMemoStringBytes bounds the bytes of the strings the memo keeps.
	maxMemoStringBytes = 64 << 20
	// maxHeld bounds the memory (estimated: dictBytes a dict, pairBytes a
	// pair of its room, and so on) of the dicts and lists held at once and
	// not yet converted, since an empty dict costs tens of bytes for one
	// byte of input. PyTorch's snapshot holds one batch of entries and its
	// segments' blocks.
	maxHeld = 96 << 20
	// maxLongBytes: an integer longer than 8 bytes does not fit an int64,
	// and no field of a snapshot needs more; a longer LONG1/LONG4 is kept
	// as "too large" without its digits.
	maxLongBytes = 8
)

// Decoded values besides the plain Go ones (nil, bool, int64, float64,
// string): each pointer type is shared by the memo's references.
type (
	// dictV is a dict being built or read; pairs keep their order and
	// duplicates (a lookup takes the last, as Python keeps the last).
	dictV struct {
		pairs  []kv
		nums   []int64 // the integer values of pairs, as numRef
		memo   int32   // its memo slot, -1 for none
		shape  shape
		shared bool  // referred to from more than one place
		cost   int32 // bytes counted as held
	}
	kv struct{ k, v any }
	// numRef is a pair's integer value kept in its dict's nums, so that
	// an entry's integers are not each boxed on the heap (a one-byte
	// value in an interface is not allocated).
	numRef uint8
	// listV is a list or tuple. A list of trace entries hands each,
	// converted, to the decoder's sink as its stream; other lists keep
	// their items.
	listV struct {
		items  []any
		stream int32 // events mode: the stream its entries went to, -1 before the first
		n      int   // items appended, converted or not
		failAt int   // events mode: the first item that did not convert, -1
		fail   any   // that item, for the error at its path
		memo   int32 // its memo slot, -1 for none
		mode   listMode
		top    *frameV // modeReduced: the stack's top frame
		tuple  bool
		used   bool    // taken as a device's trace
		shared bool    // memoized twice: referred to from places not counted
		refs   int32   // references beyond the first (GET, DUP) no converted entry has let go
		cost   int32   // bytes counted as held
		inline [12]any // the items of a stack, without another allocation
	}
	// bigV is an integer of more than 8 bytes, kept without its digits.
	bigV struct{ nbytes int }
	// bytesV is a bytes object.
	bytesV string
	// frameV is a frame dict converted: shared by every stack that holds it.
	frameV struct {
		f   Frame
		id  int32 // its index in Snapshot.Frames once a top frame, else 0
		tix int32 // its index in the memo's top frames, plus one (0: none)
	}
	// topV is a frame list reduced to its top frame (nil: an empty stack).
	topV struct{ top *frameV }
	// usedV is a memo slot whose entry or block was converted.
	usedV    struct{}
	markV    struct{}
	shape    uint8
	listMode uint8
)

const (
	shapeUnknown shape = iota
	shapeEntry         // has "action": a trace entry
	shapeBlock         // has "state": a segment's block
	shapeFrame         // has "filename": a frame
	shapeOther
)

const (
	modeNew listMode = iota
	modeItems
	modeEvents
	modeReduced // a stack reduced to its top frame: no more items
)

// decoder is one pass over a pickle.
type decoder struct {
	in     *byteSource
	stack  []any
	marks  []int
	memo   memoTable
	memoSz int64 // bytes of strings in the memo
	snap   *Snapshot
	conv   int64 // entries and blocks converted, against the input's size
	ids    map[frameKey]int32
	free   []*dictV // dicts of converted entries, for reuse
	held   int64    // dicts, lists and items held (maxHeld)
	sink   eventSink
	nextID int32    // the next stream's number
	lists  []*listV // stacks reduced to their top frame, for reuse
	ints   []int64  // the fast path's integers on the stack, by place (stackInt)
	rawLow int      // the lowest place of a stackInt, when hasRaw
	hasRaw bool
	event  Event // the entry handed to the sink: a local's address would move it to the heap
}

// The estimated sizes of what the decoder holds.
const (
	dictBytes  = 64
	pairBytes  = 32
	listBytes  = 96 + 12*itemBytes
	itemBytes  = 16
	blockBytes = 96 // a converted block, kept until its segment is read
)

// hold counts n more bytes held in *cost and in total.
func (d *decoder) hold(cost *int32, n int, at int64) error {
	*cost += int32(n)
	d.held += int64(n)
	if d.held > maxHeld {
		return d.errAt(at, "more than %d MiB of dicts and lists held at once (a snapshot holds its segments and one batch of entries)", maxHeld>>20)
	}
	return nil
}

// release counts a dict or list converted as no longer held.
func (d *decoder) release(cost *int32) {
	d.held -= int64(*cost)
	*cost = 0
}

// decodeSnapshotPickle reads one pickle of plain data into s, each
// trace entry handed to sink as it is read.
func decodeSnapshotPickle(r io.Reader, limit int64, s *Snapshot, sink eventSink) error {
	d := &decoder{in: newByteSource(r, limit), snap: s, sink: sink}
	root, err := d.run()
	if err != nil {
		return err
	}
	// No real entry takes fewer than 8 bytes: the walk converts at most
	// that many segments and blocks beyond those already converted.
	w := &walker{left: d.in.off/8 + 1024 - d.conv, d: d, byID: d.byID(), sink: sink, nextID: &d.nextID}
	return w.convertSnapshot(root, s)
}

func (d *decoder) errAt(at int64, format string, args ...any) error {
	return fmt.Errorf("pickle: byte %d: "+format, append([]any{at}, args...)...)
}

// run executes opcodes until STOP and returns the value left.
func (d *decoder) run() (any, error) {
	in := d.in
	for {
		if !genericOnly {
			if err := d.fast(); err != nil {
				return nil, err
			}
		}
		at := in.off
		op, err := in.readByte()
		if err != nil {
			if errors.Is(err, ErrTooLarge) {
				return nil, err
			}
			if at == 0 {
				return nil, fmt.Errorf("pickle: truncated at byte 0: %w", err)
			}
			return nil, fmt.Errorf("pickle: truncated at byte %d: the stream ends before STOP", at)
		}
		info := &opcodes[op]
		if info.name == "" {
			return nil, d.errAt(at, "unknown opcode 0x%02x: not a pickle, or a damaged one", op)
		}
		if info.kind == argRefuse {
			return nil, fmt.Errorf("pickle: byte %d: opcode %s %w: it names, calls or builds a Python object, and a memory snapshot is only dicts, lists, strings and numbers; refusing to run it", at, info.name, ErrGlobal)
		}
		if op == '.' {
			if len(d.stack) == 0 {
				return nil, d.errAt(at, "STOP with nothing on the stack")
			}
			return d.stack[len(d.stack)-1], nil
		}
		if err := d.step(op, info, at); err != nil {
			return nil, err
		}
	}
}

// arg reads an opcode's length-prefixed argument.
func (d *decoder) arg(info *opInfo, width int, at int64) ([]byte, error) {
	b, err := d.in.read(width)
	if err != nil {
		return nil, d.truncated(info, at, err)
	}
	var n uint64
	for i := width - 1; i >= 0; i-- {
		n = n<<8 | uint64(b[i])
	}
	if width == 4 && (info.name == "BINSTRING" || info.name == "LONG4") && n >= 1<<31 {
		return nil, d.errAt(at, "%s has a negative length", info.name)
	}
	if n > maxArgBytes {
		return nil, d.errAt(at, "%s of %d bytes (at most %d)", info.name, n, maxArgBytes)
	}
	b, err = d.in.read(int(n))
	if err != nil {
		return nil, d.truncated(info, at, err)
	}
	return b, nil
}

func (d *decoder) truncated(info *opInfo, at int64, err error) error {
	if errors.Is(err, ErrTooLarge) {
		return err
	}
	return fmt.Errorf("pickle: truncated in %s at byte %d: %w", info.name, at, err)
}

func (d *decoder) line(info *opInfo, at int64) (string, error) {
	b, err := d.in.line()
	if err != nil {
		if errors.Is(err, errLongLine) {
			return "", d.errAt(at, "%s argument longer than %d bytes", info.name, maxLineBytes)
		}
		return "", d.truncated(info, at, err)
	}
	return string(b), nil
}

func (d *decoder) push(v any, at int64) error {
	if len(d.stack) >= maxStack {
		return d.errAt(at, "more than %d values pending on the stack (a snapshot's pickle appends 1,000 at a time)", maxStack)
	}
	d.stack = append(d.stack, v)
	return nil
}

func (d *decoder) pop(at int64, name string) (any, error) {
	n := len(d.stack)
	if n == 0 || (len(d.marks) > 0 && d.marks[len(d.marks)-1] == n) {
		return nil, d.errAt(at, "%s with nothing on the stack", name)
	}
	v := d.stack[n-1]
	d.stack = d.stack[:n-1]
	return v, nil
}

// popMark pops the values above the last MARK.
func (d *decoder) popMark(at int64, name string) ([]any, error) {
	if len(d.marks) == 0 {
		return nil, d.errAt(at, "%s without a MARK", name)
	}
	m := d.marks[len(d.marks)-1]
	d.marks = d.marks[:len(d.marks)-1]
	items := d.stack[m:]
	d.stack = d.stack[:m]
	return items, nil
}

func (d *decoder) top(at int64, name string) (any, error) {
	n := len(d.stack)
	if n == 0 || (len(d.marks) > 0 && d.marks[len(d.marks)-1] == n) {
		return nil, d.errAt(at, "%s with nothing on the stack", name)
	}
	return d.stack[n-1], nil
}

func (d *decoder) step(op byte, info *opInfo, at int64) error {
	in := d.in
	switch op {
	case 0x80: // PROTO
		if _, err := in.read(1); err != nil {
			return d.truncated(info, at, err)
		}
	case 0x95: // FRAME: a hint for the reader's buffering, bounded like any argument
		b, err := in.read(8)
		if err != nil {
			return d.truncated(info, at, err)
		}
		if n := binary.LittleEndian.Uint64(b); n > maxArgBytes {
			return d.errAt(at, "a frame of %d bytes (at most %d)", n, maxArgBytes)
		}
	case '(':
		if len(d.marks) >= maxMarks {
			return d.errAt(at, "more than %d open MARKs (a snapshot nests a few containers deep)", maxMarks)
		}
		d.marks = append(d.marks, len(d.stack))
	case '0': // POP
		_, err := d.pop(at, info.name)
		if err != nil && len(d.marks) > 0 && d.marks[len(d.marks)-1] == len(d.stack) {
			// Python's POP of an empty mark drops the mark.
			d.marks = d.marks[:len(d.marks)-1]
			return nil
		}
		return err
	case '1': // POP_MARK
		_, err := d.popMark(at, info.name)
		return err
	case '2': // DUP
		v, err := d.top(at, info.name)
		if err != nil {
			return err
		}
		markShared(v)
		return d.push(v, at)
	case 'N':
		return d.push(nil, at)
	case 0x88:
		return d.push(true, at)
	case 0x89:
		return d.push(false, at)
	case 'K':
		b, err := in.read(1)
		if err != nil {
			return d.truncated(info, at, err)
		}
		return d.push(int64(b[0]), at)
	case 'M':
		b, err := in.read(2)
		if err != nil {
			return d.truncated(info, at, err)
		}
		return d.push(int64(binary.LittleEndian.Uint16(b)), at)
	case 'J':
		b, err := in.read(4)
		if err != nil {
			return d.truncated(info, at, err)
		}
		return d.push(int64(int32(binary.LittleEndian.Uint32(b))), at)
	case 0x8a, 0x8b: // LONG1, LONG4
		width := 1
		if op == 0x8b {
			width = 4
		}
		b, err := d.arg(info, width, at)
		if err != nil {
			return err
		}
		return d.push(longValue(b), at)
	case 'G':
		b, err := in.read(8)
		if err != nil {
			return d.truncated(info, at, err)
		}
		return d.push(math.Float64frombits(binary.BigEndian.Uint64(b)), at)
	case 'I', 'L':
		s, err := d.line(info, at)
		if err != nil {
			return err
		}
		v, ok := textInt(s, op == 'I')
		if !ok {
			return d.errAt(at, "%s: not an integer", info.name)
		}
		return d.push(v, at)
	case 'F':
		s, err := d.line(info, at)
		if err != nil {
			return err
		}
		f, err := strconv.ParseFloat(trimNL(s), 64)
		if err != nil {
			return d.errAt(at, "FLOAT: not a number")
		}
		return d.push(f, at)
	case 'S':
		s, err := d.line(info, at)
		if err != nil {
			return err
		}
		v, ok := pyStringLiteral(trimNL(s))
		if !ok {
			return d.errAt(at, "STRING: not a quoted string")
		}
		return d.push(v, at)
	case 'V':
		s, err := d.line(info, at)
		if err != nil {
			return err
		}
		v, ok := rawUnicodeEscape(trimNL(s))
		if !ok {
			return d.errAt(at, "UNICODE: a bad \\u escape")
		}
		return d.push(v, at)
	case 0x8c, 'X', 0x8d, 'U', 'T': // text
		b, err := d.arg(info, widthOf(info.kind), at)
		if err != nil {
			return err
		}
		return d.push(string(b), at)
	case 'C', 'B', 0x8e: // bytes
		b, err := d.arg(info, widthOf(info.kind), at)
		if err != nil {
			return err
		}
		return d.push(bytesV(b), at)
	case ']', ')':
		l := d.newList(op == ')')
		if err := d.hold(&l.cost, listBytes, at); err != nil {
			return err
		}
		return d.push(l, at)
	case '}':
		dv, err := d.newDict(at)
		if err != nil {
			return err
		}
		return d.push(dv, at)
	case 'l', 't': // LIST, TUPLE: the items since the MARK
		items, err := d.popMark(at, info.name)
		if err != nil {
			return err
		}
		l := d.newList(op == 't')
		if err := d.hold(&l.cost, listBytes+itemBytes*len(items), at); err != nil {
			return err
		}
		if l.tuple {
			l.items = append(l.items, items...)
			l.n = len(items)
		} else {
			for _, x := range items {
				if err := d.appendItem(l, x, at); err != nil {
					return err
				}
			}
		}
		clear(items)
		return d.push(l, at)
	case 0x85, 0x86, 0x87: // TUPLE1..3
		n := int(op - 0x84)
		if len(d.stack) < n || (len(d.marks) > 0 && d.marks[len(d.marks)-1] > len(d.stack)-n) {
			return d.errAt(at, "%s with too few values on the stack", info.name)
		}
		l := d.newList(true)
		if err := d.hold(&l.cost, listBytes, at); err != nil {
			return err
		}
		l.items = append(l.items, d.stack[len(d.stack)-n:]...)
		l.n = n
		clear(d.stack[len(d.stack)-n:])
		d.stack = d.stack[:len(d.stack)-n]
		return d.push(l, at)
	case 'd': // DICT: the pairs since the MARK
		items, err := d.popMark(at, info.name)
		if err != nil {
			return err
		}
		dv, err := d.newDict(at)
		if err != nil {
			return err
		}
		if err := d.setItems(dv, items, at); err != nil {
			return err
		}
		clear(items)
		return d.push(dv, at)
	case 'a': // APPEND
		x, err := d.pop(at, info.name)
		if err != nil {
			return err
		}
		t, err := d.top(at, info.name)
		if err != nil {
			return err
		}
		l, ok := t.(*listV)
		if !ok || l.tuple {
			return d.errAt(at, "APPEND to %s, not a list", typeName(t))
		}
		return d.appendItem(l, x, at)
	case 'e': // APPENDS
		items, err := d.popMark(at, info.name)
		if err != nil {
			return err
		}
		t, err := d.top(at, info.name)
		if err != nil {
			return err
		}
		l, ok := t.(*listV)
		if !ok || l.tuple {
			return d.errAt(at, "APPENDS to %s, not a list", typeName(t))
		}
		for _, x := range items {
			if err := d.appendItem(l, x, at); err != nil {
				return err
			}
		}
		clear(items)
	case 's': // SETITEM
		if len(d.stack) < 3 || (len(d.marks) > 0 && d.marks[len(d.marks)-1] > len(d.stack)-3) {
			return d.errAt(at, "SETITEM with too few values on the stack")
		}
		n := len(d.stack)
		dv, ok := d.stack[n-3].(*dictV)
		if !ok {
			return d.errAt(at, "SETITEM on %s, not a dict", typeName(d.stack[n-3]))
		}
		if err := d.setItems(dv, d.stack[n-2:], at); err != nil {
			return err
		}
		d.stack[n-2], d.stack[n-1] = nil, nil
		d.stack = d.stack[:n-2]
	case 'u': // SETITEMS
		items, err := d.popMark(at, info.name)
		if err != nil {
			return err
		}
		t, err := d.top(at, info.name)
		if err != nil {
			return err
		}
		dv, ok := t.(*dictV)
		if !ok {
			return d.errAt(at, "SETITEMS on %s, not a dict", typeName(t))
		}
		if err := d.setItems(dv, items, at); err != nil {
			return err
		}
		clear(items)
	case 0x94: // MEMOIZE
		v, err := d.top(at, info.name)
		if err != nil {
			return err
		}
		return d.put(d.memo.n, v, at)
	case 'p', 'q', 'r': // PUT, BINPUT, LONG_BINPUT
		idx, err := d.memoIndex(op, info, at)
		if err != nil {
			return err
		}
		v, err := d.top(at, info.name)
		if err != nil {
			return err
		}
		return d.put(idx, v, at)
	case 'g', 'h', 'j': // GET, BINGET, LONG_BINGET
		idx, err := d.memoIndex(op, info, at)
		if err != nil {
			return err
		}
		if d.memo.at(idx) == nil {
			return d.errAt(at, "%s of memo %d, which was never stored", info.name, idx)
		}
		v := d.memo.at(idx)
		if _, used := v.(usedV); used {
			return d.errAt(at, "%s of memo %d, a trace entry or block already read: a snapshot refers to each once (a memo bomb?)", info.name, idx)
		}
		markShared(v)
		return d.push(v, at)
	default:
		return d.errAt(at, "opcode %s not handled", info.name)
	}
	return nil
}

func widthOf(k argKind) int {
	switch k {
	case argLen1:
		return 1
	case argLen4:
		return 4
	}
	return 8
}

func (d *decoder) memoIndex(op byte, info *opInfo, at int64) (int, error) {
	var idx uint64
	switch op {
	case 'p', 'g':
		s, err := d.line(info, at)
		if err != nil {
			return 0, err
		}
		n, err := strconv.ParseUint(trimNL(s), 10, 64)
		if err != nil {
			return 0, d.errAt(at, "%s: not a memo index", info.name)
		}
		idx = n
	case 'q', 'h':
		b, err := d.in.read(1)
		if err != nil {
			return 0, d.truncated(info, at, err)
		}
		idx = uint64(b[0])
	default:
		b, err := d.in.read(4)
		if err != nil {
			return 0, d.truncated(info, at, err)
		}
		idx = uint64(binary.LittleEndian.Uint32(b))
	}
	if idx >= maxMemoIndex {
		return 0, d.errAt(at, "%s: memo index %d past %d", info.name, idx, maxMemoIndex)
	}
	return int(idx), nil
}

// put stores v at memo slot idx. The memo is dense, and an index may run
// at most one past the slots already stored per byte of input, so a few
// bytes cannot ask for a large memo.
func (d *decoder) put(idx int, v any, at int64) error {
	if idx > d.memo.n && int64(idx) > d.in.off {
		return d.errAt(at, "memo index %d past the input's size", idx)
	}
	switch x := v.(type) {
	case string:
		d.memoSz += int64(len(x)) + 16
	case bytesV:
		d.memoSz += int64(len(x)) + 16
	case *dictV:
		if x.memo >= 0 {
			x.shared = true
		}
		x.memo = int32(idx)
	case *listV:
		if x.memo >= 0 {
			x.shared = true
		}
		x.memo = int32(idx)
	}
	if d.memoSz > maxMemoStringBytes {
		return d.errAt(at, "the memo holds more than %d bytes of strings", maxMemoStringBytes)
	}
	d.memo.set(idx, v)
	return nil
}

// setItems adds key, value pairs to a dict.
func (d *decoder) setItems(dv *dictV, items []any, at int64) error {
	return d.addPairs(dv, items, nil, at)
}

// addPairs adds key, value pairs to a dict; ints are the integers of
// the items that are stackInt (the fast path's).
func (d *decoder) addPairs(dv *dictV, items []any, ints []int64, at int64) error {
	if len(items)%2 != 0 {
		return d.errAt(at, "a dict's items are key, value pairs: %d values", len(items))
	}
	room := cap(dv.pairs)
	if dv.pairs == nil {
		dv.pairs = make([]kv, 0, max(8, len(items)/2))
	}
	for i := 0; i < len(items); i += 2 {
		k, v := items[i], items[i+1]
		if ints != nil {
			if _, raw := k.(stackInt); raw {
				k = ints[i]
			}
			if _, raw := v.(stackInt); raw {
				v = dv.num(ints[i+1])
			}
		}
		dv.pairs = append(dv.pairs, kv{k, v})
	}
	if grown := cap(dv.pairs) - room; grown > 0 {
		if err := d.hold(&dv.cost, grown*pairBytes, at); err != nil {
			return err
		}
	}
	dv.shape = shapeUnknown
	return nil
}

// newDict is an empty dict with room for a trace entry's keys: a dict
// of an entry already converted when there is one, since a file of
// millions of entries would otherwise allocate one for each.
func (d *decoder) newDict(at int64) (*dictV, error) {
	var dv *dictV
	if n := len(d.free); n > 0 {
		dv = d.free[n-1]
		d.free = d.free[:n-1]
	} else {
		dv = &dictV{memo: -1}
	}
	return dv, d.hold(&dv.cost, dictBytes+pairBytes*cap(dv.pairs), at)
}

// recycle takes back an entry's dict once converted, unless something
// else may still refer to it (it was read from the memo, duplicated, or
// stored twice).
func (d *decoder) recycle(dv *dictV) {
	if dv.shared || len(d.free) >= 1024 || cap(dv.pairs) > 64 {
		dv.pairs, dv.nums = nil, nil
		return
	}
	// Only the pairs in use: those past them were cleared when the dict
	// was last taken back, or never used.
	clear(dv.pairs)
	*dv = dictV{memo: -1, pairs: dv.pairs[:0], nums: dv.nums[:0]}
	d.free = append(d.free, dv)
}

// num is n as a pair's value: a numRef to it in nums, or n itself past
// the 256 a numRef can name.
func (dv *dictV) num(n int64) any {
	if len(dv.nums) > math.MaxUint8 {
		return n
	}
	dv.nums = append(dv.nums, n)
	return numRef(len(dv.nums) - 1)
}

// value is a pair's value as the other decoded values are (an int64
// for a numRef).
func (dv *dictV) value(p *kv) any {
	if r, ok := p.v.(numRef); ok {
		return dv.nums[r]
	}
	return p.v
}

func (dv *dictV) shapeOf() shape {
	if dv.shape != shapeUnknown {
		return dv.shape
	}
	dv.shape = shapeOther
	if len(dv.pairs) <= maxDictKeys {
		for _, p := range dv.pairs {
			k, _ := p.k.(string)
			switch k {
			case "action":
				// Nothing else changes an entry's shape.
				dv.shape = shapeEntry
				return dv.shape
			case "state":
				if dv.shape == shapeOther {
					dv.shape = shapeBlock
				}
			case "filename":
				if dv.shape == shapeOther {
					dv.shape = shapeFrame
				}
			}
		}
	}
	return dv.shape
}

// appendItem appends x to l, converting a trace entry, a block or a frame
// as it arrives. A dict that does not convert stays as it is, so the walk
// that finds it reports the error at its path.
func (d *decoder) appendItem(l *listV, x any, at int64) error {
	if l.mode == modeReduced {
		return d.errAt(at, "a list appended to after it was read as a stack's frames")
	}
	l.n++
	dv, isDict := x.(*dictV)
	if l.mode == modeNew {
		l.mode = modeItems
		if isDict && dv.shapeOf() == shapeEntry {
			l.mode = modeEvents
		}
	}
	if l.mode == modeEvents {
		if l.failAt >= 0 {
			return nil // the list is refused if read as a trace: the rest is not needed
		}
		if isDict && dv.shapeOf() == shapeEntry {
			if err := d.spend(at); err != nil {
				return err
			}
			if e, ok := d.fastEvent(dv); ok {
				if l.stream < 0 {
					l.stream = d.nextID
					d.nextID++
				}
				d.event = e
				if err := d.sink.event(l.stream, &d.event); err != nil {
					return err
				}
				d.consume(dv)
				d.release(&dv.cost)
				d.recycle(dv)
				return nil
			}
		}
		l.failAt, l.fail = l.n-1, x
		return nil
	}
	if isDict {
		switch dv.shapeOf() {
		case shapeFrame:
			if f, err := frameOf(dv, ""); err == nil {
				fv := &frameV{f: f}
				d.memo.replace(dv.memo, dv, fv)
				d.release(&dv.cost)
				x = fv
			}
		case shapeBlock:
			if err := d.spend(at); err != nil {
				return err
			}
			if b, err := convertBlockAt(dv, "", -1); err == nil {
				d.consume(dv)
				d.release(&dv.cost)
				d.recycle(dv)
				if err := d.hold(&l.cost, blockBytes, at); err != nil {
					return err
				}
				x = &b
			}
		}
	}
	room := cap(l.items)
	l.items = append(l.items, x)
	if grown := cap(l.items) - room; grown > 0 {
		return d.hold(&l.cost, grown*itemBytes, at)
	}
	return nil
}

// newList is an empty list: a stack's list already reduced when there
// is one, since a file of millions of entries has a new stack for
// about every other one.
func (d *decoder) newList(tuple bool) *listV {
	var l *listV
	if n := len(d.lists); n > 0 {
		l = d.lists[n-1] // as new but for its inline room (recycleList)
		d.lists = d.lists[:n-1]
		l.tuple = tuple
	} else {
		l = &listV{memo: -1, failAt: -1, stream: -1, tuple: tuple}
	}
	l.items = l.inline[:0]
	if tuple {
		l.mode = modeItems
	}
	return l
}

func markShared(v any) {
	switch x := v.(type) {
	case *dictV:
		x.shared = true
	case *listV:
		if x.refs == math.MaxInt32 {
			x.shared = true // never let go: the count cannot go higher
			return
		}
		x.refs++
	}
}

// releaseList lets go of a stack's list held by an entry just
// converted: the last reference let go gives the list back for reuse.
func (d *decoder) releaseList(l *listV) {
	if l.refs > 0 {
		l.refs--
		return
	}
	d.recycleList(l)
}

// recycleList takes back a stack's list once reduced to its top frame
// and let go by every entry that held it (releaseList), unless it was
// memoized twice: its memo slot holds the top frame instead, and a
// reference that went anywhere but into an entry is never let go.
//
// It is reset here to a new list's state, field by field rather than
// whole (the inline room is most of it, and most of that unused); a
// list in any other state than a reduced stack's is not taken.
func (d *decoder) recycleList(l *listV) {
	if genericOnly || l.shared || l.refs != 0 || len(d.lists) >= 1024 || l.mode != modeReduced || l.tuple || l.used ||
		l.cost != 0 || l.stream >= 0 || l.fail != nil || l.failAt >= 0 {
		return
	}
	clear(l.inline[:min(l.n, len(l.inline))])
	l.items, l.n, l.memo, l.mode, l.top = nil, 0, -1, modeNew, nil
	d.lists = append(d.lists, l)
}

// consume marks a converted entry's or block's memo slot as used, when
// the slot still holds it.
func (d *decoder) consume(dv *dictV) {
	d.memo.replace(dv.memo, dv, usedV{})
}

// spend counts one converted entry or block against the input's size.
func (d *decoder) spend(at int64) error {
	d.conv++
	if d.conv > d.in.off/8+1024 {
		return d.errAt(at, "more entries and blocks than the input's size allows (a memo bomb?)")
	}
	return nil
}

// longValue is a LONG1/LONG4 little-endian two's complement integer.
func longValue(b []byte) any {
	if len(b) > maxLongBytes {
		return bigV{len(b)}
	}
	return longInt(b)
}

// longInt is longValue of at most 8 bytes.
func longInt(b []byte) int64 {
	if len(b) == 0 {
		return 0
	}
	var u uint64
	for i := len(b) - 1; i >= 0; i-- {
		u = u<<8 | uint64(b[i])
	}
	if len(b) < 8 && b[len(b)-1]&0x80 != 0 { // sign-extend
		u |= ^uint64(0) << (8 * len(b))
	}
	return int64(u)
}

func trimNL(s string) string {
	if n := len(s); n > 0 && s[n-1] == '\n' {
		s = s[:n-1]
	}
	if n := len(s); n > 0 && s[n-1] == '\r' {
		s = s[:n-1]
	}
	return s
}

// textInt reads protocol 0's INT ("00"/"01" are the booleans) or LONG
// (a trailing L).
func textInt(s string, isInt bool) (any, bool) {
	s = trimNL(s)
	if isInt && s == "00" {
		return false, true
	}
	if isInt && s == "01" {
		return true, true
	}
	if n := len(s); n > 0 && s[n-1] == 'L' {
		s = s[:n-1]
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	digits := s
	if len(digits) > 0 && (digits[0] == '-' || digits[0] == '+') {
		digits = digits[1:]
	}
	if digits == "" {
		return nil, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return nil, false
		}
	}
	return bigV{len(digits)/2 + 1}, true
}

// pyStringLiteral reads protocol 0's STRING argument: a quoted Python
// string literal with backslash escapes.
func pyStringLiteral(s string) (string, bool) {
	if len(s) < 2 || (s[0] != '\'' && s[0] != '"') || s[len(s)-1] != s[0] {
		return "", false
	}
	s = s[1 : len(s)-1]
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			out = append(out, c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'x':
			if i+2 >= len(s) {
				return "", false
			}
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", false
			}
			out = append(out, byte(v))
			i += 2
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 16)
			out = append(out, byte(v))
			i = j - 1
		case '\\', '\'', '"':
			out = append(out, e)
		default:
			out = append(out, '\\', e)
		}
	}
	return string(out), true
}

// rawUnicodeEscape reads protocol 0's UNICODE argument: UTF-8 text with
// \uXXXX and \UXXXXXXXX escapes.
func rawUnicodeEscape(s string) (string, bool) {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) || (s[i+1] != 'u' && s[i+1] != 'U') {
			out = append(out, c)
			continue
		}
		n := 4
		if s[i+1] == 'U' {
			n = 8
		}
		if i+2+n > len(s) {
			return "", false
		}
		v, err := strconv.ParseUint(s[i+2:i+2+n], 16, 32)
		if err != nil || v > 0x10FFFF {
			return "", false
		}
		out = appendRune(out, rune(v))
		i += 1 + n
	}
	return string(out), true
}

func appendRune(b []byte, r rune) []byte {
	return append(b, string(r)...)
}

// memoTable is the memo: a 4-byte handle per slot, in chunks of
// memoChunk slots that grow without copying (a snapshot of a gigabyte
// has tens of millions of slots). Most slots are entries already
// converted (used) or stacks reduced to their top frame, which the
// handle holds whole; the other values sit in objs, whose freed places
// are reused.
type memoTable struct {
	chunks [][]uint32
	n      int // one past the highest slot set
	objs   []any
	free   []uint32
	tops   []*frameV // the top frames of reduced stacks, by handle
}

const (
	memoChunk = 1 << 16
	hUnset    = 0
	hUsed     = 1
	hTopNone  = 2 // a reduced stack without frames
	hIndex    = 1<<30 - 1
	hTop      = 1 << 30 // | index into tops
	hObj      = 2 << 30 // | index into objs
)

func (m *memoTable) at(i int) any {
	if i < 0 || i >= m.n {
		return nil
	}
	h := m.chunks[i/memoChunk][i%memoChunk]
	switch {
	case h == hUnset:
		return nil
	case h == hUsed:
		return usedV{}
	case h == hTopNone:
		return topV{}
	case h&^hIndex == hTop:
		return topV{m.tops[h&hIndex]}
	}
	return m.objs[h&hIndex]
}

func (m *memoTable) set(i int, v any) {
	for i/memoChunk >= len(m.chunks) {
		m.chunks = append(m.chunks, make([]uint32, memoChunk))
	}
	c := m.chunks[i/memoChunk]
	if h := c[i%memoChunk]; h&^hIndex == hObj {
		m.objs[h&hIndex] = nil
		m.free = append(m.free, h&hIndex)
	}
	c[i%memoChunk] = m.encode(v)
	m.n = max(m.n, i+1)
}

func (m *memoTable) encode(v any) uint32 {
	switch x := v.(type) {
	case usedV:
		return hUsed
	case topV:
		if x.top == nil {
			return hTopNone
		}
		if x.top.tix == 0 {
			m.tops = append(m.tops, x.top)
			x.top.tix = int32(len(m.tops))
		}
		return hTop | uint32(x.top.tix-1)
	}
	if n := len(m.free); n > 0 {
		idx := m.free[n-1]
		m.free = m.free[:n-1]
		m.objs[idx] = v
		return hObj | idx
	}
	m.objs = append(m.objs, v)
	return hObj | uint32(len(m.objs)-1)
}

// replace sets slot i to v when it holds old.
func (m *memoTable) replace(i int32, old, v any) {
	if i >= 0 && m.at(int(i)) == old {
		m.set(int(i), v)
	}
}

// byteSource reads the input through its own buffer, counting bytes
// against the limit.
type byteSource struct {
	r     io.Reader
	buf   []byte
	pos   int
	end   int
	off   int64 // bytes consumed
	limit int64
	err   error
	big   []byte // the argument longer than the buffer, reused
}

var errLongLine = errors.New("line too long")

func newByteSource(r io.Reader, limit int64) *byteSource {
	return &byteSource{r: r, buf: make([]byte, 1<<20), limit: limit}
}

// fill makes at least n bytes available from pos (n <= len(buf)).
func (s *byteSource) fill(n int) error {
	if s.end-s.pos >= n {
		return nil
	}
	if s.pos > 0 {
		copy(s.buf, s.buf[s.pos:s.end])
		s.end -= s.pos
		s.pos = 0
	}
	for s.end < n {
		if s.err != nil {
			return s.err
		}
		m, err := s.r.Read(s.buf[s.end:])
		s.end += m
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			s.err = err
		}
	}
	return nil
}

func (s *byteSource) tooLarge(n int) error {
	if s.off+int64(n) > s.limit {
		return fmt.Errorf("pickle: %w: more than %d bytes", ErrTooLarge, s.limit)
	}
	return nil
}

func (s *byteSource) readByte() (byte, error) {
	if s.pos < s.end && s.off < s.limit {
		b := s.buf[s.pos]
		s.pos++
		s.off++
		return b, nil
	}
	if err := s.tooLarge(1); err != nil {
		return 0, err
	}
	if err := s.fill(1); err != nil {
		return 0, err
	}
	b := s.buf[s.pos]
	s.pos++
	s.off++
	return b, nil
}

// read returns the next n bytes, valid until the next read.
func (s *byteSource) read(n int) ([]byte, error) {
	if s.end-s.pos >= n && s.off+int64(n) <= s.limit {
		b := s.buf[s.pos : s.pos+n]
		s.pos += n
		s.off += int64(n)
		return b, nil
	}
	if err := s.tooLarge(n); err != nil {
		return nil, err
	}
	if n <= len(s.buf) {
		if err := s.fill(n); err != nil {
			return nil, err
		}
		b := s.buf[s.pos : s.pos+n]
		s.pos += n
		s.off += int64(n)
		return b, nil
	}
	// Longer than the buffer: gathered 1 MiB at a time, so a short input
	// with a large declared length fails before it costs memory.
	s.big = s.big[:0]
	for left := n; left > 0; {
		if err := s.fill(1); err != nil {
			return nil, err
		}
		k := min(left, s.end-s.pos)
		s.big = append(s.big, s.buf[s.pos:s.pos+k]...)
		s.pos += k
		s.off += int64(k)
		left -= k
	}
	return s.big, nil
}

// line returns the bytes up to and including the next newline.
func (s *byteSource) line() ([]byte, error) {
	for i := 1; ; i++ {
		if i > maxLineBytes {
			return nil, errLongLine
		}
		if err := s.tooLarge(i); err != nil {
			return nil, err
		}
		if err := s.fill(i); err != nil {
			return nil, err
		}
		if s.buf[s.pos+i-1] == '\n' {
			return s.read(i)
		}
	}
}
