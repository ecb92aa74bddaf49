package measure

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
	"time"
)

// pk writes pickle opcodes by hand.
type pk struct{ bytes.Buffer }

func (p *pk) str(s string) { p.WriteByte(0x8c); p.WriteByte(byte(len(s))); p.WriteString(s) }
func (p *pk) get(i uint32) {
	p.WriteByte('j')
	binary.Write(&p.Buffer, binary.LittleEndian, i)
}

// TestMemoBombs: a few bytes can refer to a large object many times; the
// conversion refuses them quickly instead of doing the product of the two.
func TestMemoBombs(t *testing.T) {
	t.Parallel()
	// A trace entry of 300 keys, referred to 200,000 times.
	var a pk
	a.WriteString("\x80\x04}\x94(") // root dict (memo 0), MARK
	a.str("segments")
	a.WriteString("]")
	a.str("device_traces")
	a.WriteString("]]}\x94(") // outer list, trace, entry dict (memo 1), MARK
	for i := 0; i < 300; i++ {
		a.str("k" + strings.Repeat("x", i%50) + string(rune('a'+i%26)))
		a.WriteString("K\x00")
	}
	a.WriteString("ua(") // SETITEMS, APPEND the entry, MARK
	for i := 0; i < 200_000; i++ {
		a.get(1)
	}
	a.WriteString("eau.") // APPENDS, APPEND the trace, SETITEMS, STOP

	// A segment of 3,000 references to one block, referred to 3,000 times.
	var b pk
	b.WriteString("\x80\x04}\x94(")
	b.str("segments")
	b.WriteString("]}\x94(") // segments list, segment dict (memo 1), MARK
	b.str("address")
	b.WriteString("K\x00")
	b.str("total_size")
	b.WriteString("K\x00")
	b.str("blocks")
	b.WriteString("]}\x94(") // blocks list, block dict (memo 2), MARK
	b.str("size")
	b.WriteString("M\x00\x02")
	b.str("state")
	b.str("inactive")
	b.WriteString("ua(")
	for i := 0; i < 2999; i++ {
		b.get(2)
	}
	b.WriteString("eua(") // APPENDS blocks, SETITEMS segment, APPEND segment, MARK
	for i := 0; i < 2999; i++ {
		b.get(1)
	}
	b.WriteString("eu.")

	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"a wide dict shared", a.Bytes(), "device_traces[0][0]: a dict of 300 keys"},
		{"a segment shared", b.Bytes(), "memo bomb"},
	} {
		start := time.Now()
		_, err := ReadSnapshot(bytes.NewReader(c.data), ReadOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", c.name, err, c.want)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: took %v", c.name, d)
		}
	}
}
