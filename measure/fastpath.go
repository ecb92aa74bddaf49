package measure

import (
	"encoding/binary"
	"math"
)

// The decoder's fast path: the opcodes a snapshot is made of (a trace
// entry is about 16 of them: EMPTY_DICT, MEMOIZE, MARK, a GET per key,
// the integers, SETITEMS), run without going through readByte, the
// opcode table and step's switch. It takes an opcode only when the
// buffer already holds it and its whole argument within the input's
// limit, and only when the opcode will succeed as far as the stack,
// the marks and the memo go: anything else (a short buffer, an error,
// a rare opcode) is left unread for run's generic path, which reports
// it exactly as before. What may still fail (the held-memory and memo
// bounds, a trace entry's conversion) fails through the same calls, at
// the same byte, as in step.

// genericOnly turns the fast path and the reuse of stacks' lists off,
// for the tests that check they change nothing.
var genericOnly = false

// fastRoom is the bytes an opcode with a fixed argument may need: the
// opcode and 8 bytes.
const fastRoom = 9

// stackInt is an integer the fast path pushed, kept in d.ints at the
// same place rather than boxed on the heap (three an entry: its
// address, size and time). A SETITEMS stores it in the dict's nums;
// anything else that takes it boxes it, and so does the fast path's
// end for those still on the stack, so that the generic path never
// sees one.
type stackInt struct{}

// pushInt pushes n as a stackInt.
func (d *decoder) pushInt(n int64) {
	i := len(d.stack)
	d.stack = append(d.stack, stackInt{})
	if i >= len(d.ints) {
		d.ints = append(d.ints, make([]int64, i+1-len(d.ints))...)
	}
	d.ints[i] = n
	if !d.hasRaw || i < d.rawLow {
		d.rawLow, d.hasRaw = i, true
	}
}

// box makes the stack's place i an int64 if it is a stackInt.
func (d *decoder) box(i int) {
	if _, raw := d.stack[i].(stackInt); raw {
		d.stack[i] = d.ints[i]
	}
}

// fast runs opcodes until one is left to the generic path, with no
// stackInt left on the stack. Those above rawLow were all pushed by
// this call, so the boxing is linear.
func (d *decoder) fast() error {
	err := d.fastOps()
	if d.hasRaw {
		for i := d.rawLow; i < len(d.stack); i++ {
			d.box(i)
		}
		d.hasRaw = false
	}
	return err
}

// fastOps runs the opcodes.
func (d *decoder) fastOps() error {
	in := d.in
	for in.end-in.pos >= fastRoom && in.limit-in.off >= fastRoom {
		b := in.buf[in.pos:in.end]
		at := in.off
		n := 1 // the bytes the opcode takes
		switch b[0] {
		case 'h', 'j': // BINGET, LONG_BINGET
			var idx int
			if b[0] == 'h' {
				idx, n = int(b[1]), 2
			} else {
				u := binary.LittleEndian.Uint32(b[1:5])
				if u >= maxMemoIndex {
					return nil
				}
				idx, n = int(u), 5
			}
			v := d.memo.at(idx)
			if v == nil || len(d.stack) >= maxStack {
				return nil
			}
			if _, used := v.(usedV); used {
				return nil
			}
			markShared(v)
			d.stack = append(d.stack, v)
		case 0x94: // MEMOIZE
			if !d.hasTop() {
				return nil
			}
			in.advance(1)
			d.box(len(d.stack) - 1)
			if err := d.put(d.memo.n, d.stack[len(d.stack)-1], at); err != nil {
				return err
			}
			continue
		case 'q', 'r': // BINPUT, LONG_BINPUT
			idx := int(b[1])
			n = 2
			if b[0] == 'r' {
				u := binary.LittleEndian.Uint32(b[1:5])
				if u >= maxMemoIndex {
					return nil
				}
				idx, n = int(u), 5
			}
			if !d.hasTop() {
				return nil
			}
			in.advance(n)
			d.box(len(d.stack) - 1)
			if err := d.put(idx, d.stack[len(d.stack)-1], at); err != nil {
				return err
			}
			continue
		case '(': // MARK
			if len(d.marks) >= maxMarks {
				return nil
			}
			d.marks = append(d.marks, len(d.stack))
		case '}': // EMPTY_DICT
			if len(d.stack) >= maxStack {
				return nil
			}
			in.advance(1)
			dv, err := d.newDict(at)
			if err != nil {
				return err
			}
			d.stack = append(d.stack, dv)
			continue
		case ']': // EMPTY_LIST
			if len(d.stack) >= maxStack {
				return nil
			}
			in.advance(1)
			l := d.newList(false)
			if err := d.hold(&l.cost, listBytes, at); err != nil {
				return err
			}
			d.stack = append(d.stack, l)
			continue
		case 'K': // BININT1
			if len(d.stack) >= maxStack {
				return nil
			}
			d.stack = append(d.stack, int64(b[1]))
			n = 2
		case 'M': // BININT2
			if len(d.stack) >= maxStack {
				return nil
			}
			d.pushInt(int64(binary.LittleEndian.Uint16(b[1:3])))
			n = 3
		case 'J': // BININT
			if len(d.stack) >= maxStack {
				return nil
			}
			d.pushInt(int64(int32(binary.LittleEndian.Uint32(b[1:5]))))
			n = 5
		case 'G': // BINFLOAT
			if len(d.stack) >= maxStack {
				return nil
			}
			d.stack = append(d.stack, math.Float64frombits(binary.BigEndian.Uint64(b[1:9])))
			n = 9
		case 'N':
			if len(d.stack) >= maxStack {
				return nil
			}
			d.stack = append(d.stack, nil)
		case 0x88, 0x89: // NEWTRUE, NEWFALSE
			if len(d.stack) >= maxStack {
				return nil
			}
			d.stack = append(d.stack, b[0] == 0x88)
		case 0x8a: // LONG1
			n = 2 + int(b[1])
			if len(b) < n || in.limit-in.off < int64(n) || len(d.stack) >= maxStack {
				return nil
			}
			if n-2 > maxLongBytes {
				d.stack = append(d.stack, longValue(b[2:n]))
			} else {
				d.pushInt(longInt(b[2:n]))
			}
		case 0x8c: // SHORT_BINUNICODE
			n = 2 + int(b[1])
			if len(b) < n || in.limit-in.off < int64(n) || len(d.stack) >= maxStack {
				return nil
			}
			d.stack = append(d.stack, string(b[2:n]))
		case 'u': // SETITEMS
			dv, m, ok := d.markedOn()
			if !ok {
				return nil
			}
			target, isDict := dv.(*dictV)
			if !isDict || (len(d.stack)-m)%2 != 0 {
				return nil
			}
			in.advance(1)
			d.marks = d.marks[:len(d.marks)-1]
			items := d.stack[m:]
			d.stack = d.stack[:m]
			var ints []int64 // the places of the items in d.ints, if any is there
			if d.hasRaw && m < len(d.ints) {
				ints = d.ints[m:]
			}
			if err := d.addPairs(target, items, ints, at); err != nil {
				return err
			}
			clear(items)
			continue
		case 'e': // APPENDS
			lv, m, ok := d.markedOn()
			if !ok {
				return nil
			}
			l, isList := lv.(*listV)
			if !isList || l.tuple {
				return nil
			}
			in.advance(1)
			d.marks = d.marks[:len(d.marks)-1]
			for i := m; i < len(d.stack); i++ {
				d.box(i)
			}
			items := d.stack[m:]
			d.stack = d.stack[:m]
			if plainItems(l, items) {
				// A stack's frames: what appendItem does for each, at once.
				l.mode = modeItems
				l.n += len(items)
				l.items = append(l.items, items...)
			} else {
				for _, x := range items {
					if err := d.appendItem(l, x, at); err != nil {
						return err
					}
				}
			}
			clear(items)
			continue
		default:
			return nil
		}
		in.advance(n)
	}
	return nil
}

// plainItems is whether appendItem would only add items to l, one by
// one: some items (none leaves a new list new), none of them a dict
// (which might convert), to a list of plain items (not a trace, not a
// stack already read) with room for them all (so that what is counted
// as held is the same).
func plainItems(l *listV, items []any) bool {
	if len(items) == 0 || (l.mode != modeNew && l.mode != modeItems) || len(l.items)+len(items) > cap(l.items) {
		return false
	}
	for _, x := range items {
		if _, isDict := x.(*dictV); isDict {
			return false
		}
	}
	return true
}

// hasTop is whether top would succeed: a value on the stack above the
// last MARK.
func (d *decoder) hasTop() bool {
	n := len(d.stack)
	return n > 0 && (len(d.marks) == 0 || d.marks[len(d.marks)-1] != n)
}

// markedOn is, for SETITEMS and APPENDS, the value below the last MARK
// and the MARK's place, when popMark and then top would succeed.
func (d *decoder) markedOn() (any, int, bool) {
	k := len(d.marks)
	if k == 0 {
		return nil, 0, false
	}
	m := d.marks[k-1]
	if m == 0 || (k > 1 && d.marks[k-2] == m) {
		return nil, 0, false
	}
	return d.stack[m-1], m, true
}

// advance consumes n bytes the buffer holds.
func (s *byteSource) advance(n int) {
	s.pos += n
	s.off += int64(n)
}
