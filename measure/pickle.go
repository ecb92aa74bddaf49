package measure

import "errors"

// Limits of the readers. The snapshot is read as a stream into a result
// of about half the pickle's size (doc.go gives the measured figures), so
// the default takes inputs up to 2 GiB.
const (
	// DefaultMaxBytes is the largest input Read accepts by default.
	DefaultMaxBytes = 2 << 30
	// maxArgBytes bounds one string, bytes object or frame of a pickle:
	// a five-byte header could otherwise ask for an exabyte.
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
