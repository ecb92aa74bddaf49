package measure

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/nlpodyssey/gopickle/pickle"
)

// Limits of the readers. A pickle decodes to about ten times its size in
// memory (doc.go gives the measured figure), so the default caps the input
// at 1 GiB.
const (
	// DefaultMaxBytes is the largest input Read accepts by default.
	DefaultMaxBytes = 1 << 30
	// maxArgBytes bounds one string, bytes object or frame of a pickle:
	// the decoder allocates an argument's declared length before reading
	// it, so a five-byte header could otherwise ask for an exabyte.
	maxArgBytes = 64 << 20
	// maxLineBytes bounds a text argument of protocol 0 (INT, FLOAT, GET...).
	maxLineBytes = 1 << 16
)

// The kinds of refusal, for callers that branch on them (errors.Is).
var (
	// ErrGlobal is a pickle that names or calls a Python global, or uses
	// any opcode that is not plain data.
	ErrGlobal = errors.New("not plain data")
	// ErrTooLarge is an input past the reader's byte limit.
	ErrTooLarge = errors.New("too large")
)

// argKind says how an opcode's argument is laid out.
type argKind uint8

const (
	argNone   argKind = iota
	argFixed          // n bytes
	argLine           // up to and including '\n'
	argLen1           // 1-byte length, then data
	argLen4           // 4-byte little-endian length, then data
	argLen8           // 8-byte little-endian length, then data
	argRefuse         // not data: refused
)

type opInfo struct {
	name string
	kind argKind
	n    int
}

// opcodes lists every opcode of pickle protocols 0-5. The data opcodes
// (containers, strings, bytes, numbers, booleans, None, the memo, the
// protocol and frame markers) pass; the others (globals, calls, object
// construction, persistent ids, extensions, sets, out-of-band buffers) are
// refused before the decoder sees them.
var opcodes = func() [256]opInfo {
	var t [256]opInfo
	set := func(op byte, name string, kind argKind, n int) { t[op] = opInfo{name, kind, n} }
	// Protocol 0 and 1.
	set('(', "MARK", argNone, 0)
	set('.', "STOP", argNone, 0)
	set('0', "POP", argNone, 0)
	set('1', "POP_MARK", argNone, 0)
	set('2', "DUP", argNone, 0)
	set('F', "FLOAT", argLine, 0)
	set('I', "INT", argLine, 0)
	set('J', "BININT", argFixed, 4)
	set('K', "BININT1", argFixed, 1)
	set('L', "LONG", argLine, 0)
	set('M', "BININT2", argFixed, 2)
	set('N', "NONE", argNone, 0)
	set('S', "STRING", argLine, 0)
	set('T', "BINSTRING", argLen4, 0)
	set('U', "SHORT_BINSTRING", argLen1, 0)
	set('V', "UNICODE", argLine, 0)
	set('X', "BINUNICODE", argLen4, 0)
	set('a', "APPEND", argNone, 0)
	set('d', "DICT", argNone, 0)
	set('}', "EMPTY_DICT", argNone, 0)
	set('e', "APPENDS", argNone, 0)
	set('g', "GET", argLine, 0)
	set('h', "BINGET", argFixed, 1)
	set('j', "LONG_BINGET", argFixed, 4)
	set('l', "LIST", argNone, 0)
	set(']', "EMPTY_LIST", argNone, 0)
	set('p', "PUT", argLine, 0)
	set('q', "BINPUT", argFixed, 1)
	set('r', "LONG_BINPUT", argFixed, 4)
	set('s', "SETITEM", argNone, 0)
	set('t', "TUPLE", argNone, 0)
	set(')', "EMPTY_TUPLE", argNone, 0)
	set('u', "SETITEMS", argNone, 0)
	set('G', "BINFLOAT", argFixed, 8)
	// Protocol 2.
	set(0x80, "PROTO", argFixed, 1)
	set(0x85, "TUPLE1", argNone, 0)
	set(0x86, "TUPLE2", argNone, 0)
	set(0x87, "TUPLE3", argNone, 0)
	set(0x88, "NEWTRUE", argNone, 0)
	set(0x89, "NEWFALSE", argNone, 0)
	set(0x8a, "LONG1", argLen1, 0)
	set(0x8b, "LONG4", argLen4, 0)
	// Protocol 3.
	set('B', "BINBYTES", argLen4, 0)
	set('C', "SHORT_BINBYTES", argLen1, 0)
	// Protocol 4.
	set(0x8c, "SHORT_BINUNICODE", argLen1, 0)
	set(0x8d, "BINUNICODE8", argLen8, 0)
	set(0x8e, "BINBYTES8", argLen8, 0)
	set(0x94, "MEMOIZE", argNone, 0)
	set(0x95, "FRAME", argFixed, 8)
	// Not data.
	for op, name := range map[byte]string{
		'c': "GLOBAL", 0x93: "STACK_GLOBAL", 'i': "INST", 'o': "OBJ", 'R': "REDUCE",
		'b': "BUILD", 0x81: "NEWOBJ", 0x92: "NEWOBJ_EX", 0x82: "EXT1", 0x83: "EXT2",
		0x84: "EXT4", 'P': "PERSID", 'Q': "BINPERSID", 0x8f: "EMPTY_SET",
		0x90: "ADDITEMS", 0x91: "FROZENSET", 0x96: "BYTEARRAY8", 0x97: "NEXT_BUFFER",
		0x98: "READONLY_BUFFER",
	} {
		set(op, name, argRefuse, 0)
	}
	return t
}()

// opFilter is the reader the pickle decoder reads through. It parses the
// stream one opcode at a time, refuses every opcode that is not plain data
// (with its name and byte offset), bounds every argument and the whole
// input, and passes the rest on unchanged, so the decoder never sees a
// global, a call or an oversized length. It stops at the first STOP.
type opFilter struct {
	src     *bufio.Reader
	limit   int64 // the input's byte limit
	off     int64 // bytes of src consumed
	pending []byte
	pos     int
	stopped bool
	err     error // the first refusal or read error, kept for the caller
}

func newOpFilter(r io.Reader, limit int64) *opFilter {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 1<<20)
	}
	return &opFilter{src: br, limit: limit}
}

// Read passes on the next validated bytes.
func (f *opFilter) Read(p []byte) (int, error) {
	if f.pos == len(f.pending) {
		if err := f.next(); err != nil {
			return 0, err
		}
	}
	n := copy(p, f.pending[f.pos:])
	f.pos += n
	return n, nil
}

// ReadByte passes on the next validated byte; the decoder reads most
// opcodes one byte at a time.
func (f *opFilter) ReadByte() (byte, error) {
	if f.pos == len(f.pending) {
		if err := f.next(); err != nil {
			return 0, err
		}
	}
	b := f.pending[f.pos]
	f.pos++
	return b, nil
}

func (f *opFilter) fail(err error) error {
	if f.err == nil {
		f.err = err
	}
	return f.err
}

// readByte reads one byte of the source, counting it against the limit.
func (f *opFilter) readByte() (byte, error) {
	if f.off >= f.limit {
		return 0, fmt.Errorf("pickle: %w: more than %d bytes", ErrTooLarge, f.limit)
	}
	b, err := f.src.ReadByte()
	if err == io.EOF {
		return 0, io.ErrUnexpectedEOF
	}
	if err == nil {
		f.off++
	}
	return b, err
}

// copyN moves n bytes of the source into pending, 64 KiB at a time, so
// a short input with a large declared length fails before it costs
// memory.
func (f *opFilter) copyN(n int64) error {
	if f.off+n > f.limit {
		return fmt.Errorf("pickle: %w: more than %d bytes", ErrTooLarge, f.limit)
	}
	for n > 0 {
		chunk := min(n, 64<<10)
		start := len(f.pending)
		f.pending = append(f.pending, make([]byte, chunk)...)
		m, err := io.ReadFull(f.src, f.pending[start:])
		f.off += int64(m)
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return err
		}
		n -= chunk
	}
	return nil
}

// next parses one opcode and its argument into pending. After an error
// nothing is pending, so every later read returns the error again.
func (f *opFilter) next() error {
	err := f.parse()
	if err != nil {
		f.pending, f.pos = f.pending[:0], 0
	}
	return err
}

func (f *opFilter) parse() error {
	if f.err != nil {
		return f.err
	}
	if f.stopped {
		return io.EOF
	}
	f.pending, f.pos = f.pending[:0], 0
	at := f.off
	op, err := f.readByte()
	if err != nil {
		return f.fail(fmt.Errorf("pickle: truncated at byte %d: %w", at, err))
	}
	info := opcodes[op]
	if info.name == "" {
		return f.fail(fmt.Errorf("pickle: byte %d: unknown opcode 0x%02x: not a pickle, or a damaged one", at, op))
	}
	if info.kind == argRefuse {
		return f.fail(fmt.Errorf("pickle: byte %d: opcode %s %w: it names, calls or builds a Python object, and a memory snapshot is only dicts, lists, strings and numbers; refusing to run it", at, info.name, ErrGlobal))
	}
	f.pending = append(f.pending, op)
	truncated := func(err error) error {
		if errors.Is(err, ErrTooLarge) {
			return f.fail(err)
		}
		return f.fail(fmt.Errorf("pickle: truncated in %s at byte %d: %w", info.name, at, err))
	}
	switch info.kind {
	case argFixed:
		if err := f.copyN(int64(info.n)); err != nil {
			return truncated(err)
		}
		if op == 0x95 { // FRAME: the frame's length, bounded like any argument
			if n := binary.LittleEndian.Uint64(f.pending[1:]); n > maxArgBytes {
				return f.fail(fmt.Errorf("pickle: byte %d: a frame of %d bytes (at most %d)", at, n, maxArgBytes))
			}
		}
	case argLine:
		for {
			b, err := f.readByte()
			if err != nil {
				return truncated(err)
			}
			f.pending = append(f.pending, b)
			if b == '\n' {
				break
			}
			if len(f.pending) > maxLineBytes {
				return f.fail(fmt.Errorf("pickle: byte %d: %s argument longer than %d bytes", at, info.name, maxLineBytes))
			}
		}
	case argLen1, argLen4, argLen8:
		width := map[argKind]int{argLen1: 1, argLen4: 4, argLen8: 8}[info.kind]
		if err := f.copyN(int64(width)); err != nil {
			return truncated(err)
		}
		var n uint64
		for i := width; i >= 1; i-- {
			n = n<<8 | uint64(f.pending[i])
		}
		if (op == 'T' || op == 0x8b) && n >= 1<<31 { // signed 4-byte lengths
			return f.fail(fmt.Errorf("pickle: byte %d: %s has a negative length", at, info.name))
		}
		if n > maxArgBytes {
			return f.fail(fmt.Errorf("pickle: byte %d: %s of %d bytes (at most %d)", at, info.name, n, maxArgBytes))
		}
		if n == 0 && (op == 0x8a || op == 0x8b) {
			// LONG1/LONG4 of no bytes is the integer 0; the decoder
			// indexes the last byte, so it gets BININT1 0 instead.
			f.pending = append(f.pending[:0], 'K', 0)
			return nil
		}
		if err := f.copyN(int64(n)); err != nil {
			return truncated(err)
		}
	}
	if op == '.' {
		f.stopped = true
	}
	return nil
}

// decodePickle decodes one pickle of plain data from r. Values are
// gopickle's: *types.Dict, *types.List, *types.Tuple, string, []byte,
// int, *big.Int, float64, bool and nil.
//
// n is the number of bytes read, which bounds the conversion's work.
func decodePickle(r io.Reader, limit int64) (v any, n int64, err error) {
	f := newOpFilter(r, limit)
	u := pickle.NewUnpickler(f)
	defer func() {
		// The filter keeps the decoder on plain data; should the decoder
		// still fail on a malformed stream, that is an error, not a crash.
		n = f.off
		if p := recover(); p != nil {
			v, err = nil, fmt.Errorf("pickle: malformed stream near byte %d (%v)", f.off, p)
			if f.err != nil {
				err = f.err
			}
		}
	}()
	v, err = u.Load()
	if f.err != nil {
		return nil, f.off, f.err
	}
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, f.off, fmt.Errorf("pickle: truncated at byte %d: the stream ends before STOP", f.off)
		}
		return nil, f.off, fmt.Errorf("pickle: malformed near byte %d: %v", f.off, err)
	}
	return v, f.off, nil
}
