package measure

import "encoding/binary"

// packedTrace is a trace held in memory as ReadSnapshot reads it: each
// entry packed into a few bytes (an Event is 56) so that the trace of a
// 1 GiB snapshot, about 15 million entries, is some 180 MB rather than
// 840. An entry is a head byte (the action, and which of the fields that
// are usually 0 follow), the address and the time as the difference from
// the entry before, the size, then those fields; every number a varint.
// Packing loses nothing: unpacked, an entry is the Event it was.
type packedTrace struct {
	chunks [][]byte
	cur    []byte
	n      int
	addr   int64 // the last entry's address and time, for the differences
	time   int64
}

// packChunk is the room a packed trace grows by, never copied.
const packChunk = 1 << 20

// maxPacked bounds one entry packed: the head and seven varints.
const maxPacked = 1 + 7*binary.MaxVarintLen64

// The head byte: the action in the low nibble (Action has 11 values),
// then a bit per optional field present.
const (
	hasFrame = 1 << (4 + iota)
	hasNote
	hasStream
	hasDeviceFree
)

func (p *packedTrace) add(e *Event) {
	if cap(p.cur)-len(p.cur) < maxPacked {
		if len(p.cur) > 0 {
			p.chunks = append(p.chunks, p.cur)
		}
		p.cur = make([]byte, 0, packChunk)
	}
	head := byte(e.Action)
	if e.Frame != 0 {
		head |= hasFrame
	}
	if e.Note != 0 {
		head |= hasNote
	}
	if e.Stream != 0 {
		head |= hasStream
	}
	if e.DeviceFree != 0 {
		head |= hasDeviceFree
	}
	b := append(p.cur, head)
	b = binary.AppendVarint(b, e.Addr-p.addr)
	b = binary.AppendVarint(b, e.TimeUS-p.time)
	b = binary.AppendVarint(b, e.Size)
	if e.Frame != 0 {
		b = binary.AppendVarint(b, int64(e.Frame))
	}
	if e.Note != 0 {
		b = binary.AppendVarint(b, int64(e.Note))
	}
	if e.Stream != 0 {
		b = binary.AppendVarint(b, e.Stream)
	}
	if e.DeviceFree != 0 {
		b = binary.AppendVarint(b, e.DeviceFree)
	}
	p.cur = b
	p.addr, p.time = e.Addr, e.TimeUS
	p.n++
}

// each calls f with every entry, in order; the Event is reused.
func (p *packedTrace) each(f func(e *Event)) {
	var e Event
	var addr, time int64
	for k := 0; k <= len(p.chunks); k++ {
		b := p.cur
		if k < len(p.chunks) {
			b = p.chunks[k]
		}
		for len(b) > 0 {
			head := b[0]
			b = b[1:]
			e = Event{Action: Action(head & 0x0f)}
			var d int64
			d, b = varint(b)
			addr += d
			d, b = varint(b)
			time += d
			e.Addr, e.TimeUS = addr, time
			e.Size, b = varint(b)
			if head&hasFrame != 0 {
				d, b = varint(b)
				e.Frame = int32(d)
			}
			if head&hasNote != 0 {
				d, b = varint(b)
				e.Note = int32(d)
			}
			if head&hasStream != 0 {
				e.Stream, b = varint(b)
			}
			if head&hasDeviceFree != 0 {
				e.DeviceFree, b = varint(b)
			}
			f(&e)
		}
	}
}

// varint reads one varint the packer wrote.
func varint(b []byte) (int64, []byte) {
	v, n := binary.Varint(b)
	return v, b[n:]
}

// events is the trace unpacked.
func (p *packedTrace) events() []Event {
	out := make([]Event, 0, p.n)
	p.each(func(e *Event) { out = append(out, *e) })
	return out
}
