package measure

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Crafted files: small inputs that once cost minutes of CPU or gigabytes
// of memory. Each is generated here; each must be refused or read with
// memory (allocated bytes, which do not depend on the machine's speed)
// within a small multiple of its size. The time is logged, not asserted.

// craftedBudget is what reading one of these files may allocate.
const craftedBudget = 256 << 20

// costOf reads data, analyzes it when it reads, encodes the reports as
// the command's json does, and returns the error, the bytes of that JSON
// and the bytes allocated.
func costOf(t *testing.T, data []byte) (error, int, uint64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	out := 0
	s, err := ReadSnapshot(bytes.NewReader(data), ReadOptions{})
	if err == nil {
		var devs []DeviceReport
		if devs, err = Analyze(s, 0); err == nil {
			b, _ := json.Marshal(devs)
			out = len(b)
		}
	}
	runtime.ReadMemStats(&after)
	t.Logf("%d bytes in %v, %d bytes allocated, %d bytes of json, err %v", len(data), time.Since(start), after.TotalAlloc-before.TotalAlloc, out, trimErr(err))
	return err, out, after.TotalAlloc - before.TotalAlloc
}

func trimErr(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// header writes a snapshot's start: the root dict with segments [] and a
// device_traces list holding one trace, a MARK open for its entries.
func (p *pk) header() {
	p.WriteString("\x80\x04}(")
	p.str("segments")
	p.WriteString("]")
	p.str("device_traces")
	p.WriteString("]]")
}

// long4 writes a LONG4 of n bytes.
func (p *pk) long4(n int) {
	p.WriteByte(0x8b)
	binary.Write(&p.Buffer, binary.LittleEndian, int32(n))
	p.Write(bytes.Repeat([]byte{0x11}, n-1))
	p.WriteByte(0x01)
}

// TestLongIntegers: LONG4 of a megabyte once took 84 s (its digits were
// built a byte at a time); now an integer past 8 bytes is kept without
// them, and the error that names it is one short line.
func TestLongIntegers(t *testing.T) {
	var top pk
	top.WriteString("\x80\x04")
	top.long4(1 << 20)
	top.WriteString(".")
	var addr pk
	addr.header()
	addr.WriteString("}(")
	addr.str("action")
	addr.str("alloc")
	addr.str("addr")
	addr.long4(300 << 10)
	addr.str("size")
	addr.WriteString("K\x07ua")
	addr.WriteString("au.")
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"a megabyte integer as the file", top.Bytes(), "snapshot: want a dict, got an integer"},
		{"a 300 KB address", addr.Bytes(), "device_traces[0][0].addr: an integer of 307200 bytes does not fit in 64 bits"},
	} {
		err, _, alloc := costOf(t, c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", c.name, err, c.want)
		}
		if err != nil && len(err.Error()) > 200 {
			t.Errorf("%s: an error of %d bytes", c.name, len(err.Error()))
		}
		if alloc > 8*uint64(len(c.data))+16<<20 {
			t.Errorf("%s: %d bytes allocated for %d of input", c.name, alloc, len(c.data))
		}
	}
}

// TestHugeJSONInteger: a 4-million-digit address in the JSON form was
// parsed in quadratic time and printed whole.
func TestHugeJSONInteger(t *testing.T) {
	data := `{"segments": [], "device_traces": [[{"action": "alloc", "addr": ` + strings.Repeat("7", 4_000_000) + `, "size": 5}]]}`
	err, _, alloc := costOf(t, []byte(data))
	want := "device_traces[0][0].addr: an integer of 4000000 digits does not fit in 64 bits"
	if err == nil || err.Error() != want {
		t.Errorf("err %v, want %q", err, want)
	}
	if alloc > craftedBudget {
		t.Errorf("%d bytes allocated", alloc)
	}
}

// TestSharedLongFilename: one memoized 1 MiB filename, referred to by the
// frame of every allocation, once cost 1.5 to 5.8 GB (a copy of the
// frame's text per live block). The text is now shared and cut for the
// reports.
func TestSharedLongFilename(t *testing.T) {
	var p pk
	p.header()
	long := strings.Repeat("f", 1<<20)
	p.WriteByte('X')
	binary.Write(&p.Buffer, binary.LittleEndian, uint32(len(long)))
	p.WriteString(long)
	p.WriteString("r\x00\x10\x00\x00") // LONG_BINPUT 4096
	p.WriteString("0")                 // POP: it stays in the memo only
	p.WriteString("(")
	const n = 20_000
	for i := 0; i < n; i++ {
		p.WriteString("}(")
		p.str("action")
		p.str("alloc")
		p.str("addr")
		p.WriteString("J")
		binary.Write(&p.Buffer, binary.LittleEndian, int32(i*512))
		p.str("size")
		p.WriteString("M\x00\x02")
		p.str("frames")
		p.WriteString("]}(")
		p.str("filename")
		p.get(4096)
		p.str("line")
		p.WriteString("K\x01")
		p.str("name")
		p.str("f")
		p.WriteString("uau") // SETITEMS frame, APPEND it, SETITEMS entry
	}
	p.WriteString("eau.")
	err, out, alloc := costOf(t, p.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if alloc > craftedBudget {
		t.Errorf("%d bytes allocated for %d of input", alloc, p.Len())
	}
	if out > n*(maxFrameText+200) {
		t.Errorf("%d bytes of json for %d live blocks", out, n)
	}
}

// TestWideFrameScan: stacks of 256 references to one dict of 256 keys
// without a Python filename once cost 100 us per input byte (every frame
// scanned and formatted for every entry). A dict's shape is now read
// once, and a memoized entry cannot be read twice.
func TestWideFrameScan(t *testing.T) {
	wide := func(p *pk) {
		p.WriteString("}\x94(") // the wide dict: the first MEMOIZE, memo 0
		for i := 0; i < 256; i++ {
			p.str("k" + strings.Repeat("y", i%40) + string(rune('a'+i%26)))
			p.WriteString("K\x00")
		}
		p.WriteString("u0")
	}
	var many pk // many entries, each with its own stack of 256 references
	many.WriteString("\x80\x04}(")
	many.str("segments")
	many.WriteString("]")
	many.str("device_traces")
	many.WriteString("]]")
	wide(&many)
	many.WriteString("(")
	for many.Len() < 1<<20 {
		many.WriteString("}(")
		many.str("action")
		many.str("alloc")
		many.str("addr")
		many.WriteString("K\x00")
		many.str("size")
		many.WriteString("K\x01")
		many.str("frames")
		many.WriteString("](")
		for i := 0; i < 256; i++ {
			many.get(0)
		}
		many.WriteString("eu")
	}
	many.WriteString("eau.")

	var shared pk // one entry with that stack, referred to many times
	shared.WriteString("\x80\x04}(")
	shared.str("segments")
	shared.WriteString("]")
	shared.str("device_traces")
	shared.WriteString("]]")
	wide(&shared)
	shared.WriteString("}\x94(") // the entry, memo 1
	shared.str("action")
	shared.str("alloc")
	shared.str("addr")
	shared.WriteString("K\x00")
	shared.str("size")
	shared.WriteString("K\x01")
	shared.str("frames")
	shared.WriteString("](")
	for i := 0; i < 256; i++ {
		shared.get(0)
	}
	shared.WriteString("eua(")
	for shared.Len() < 1<<20 {
		shared.get(1)
	}
	shared.WriteString("eau.")

	if err, _, alloc := costOf(t, many.Bytes()); err != nil || alloc > craftedBudget {
		t.Errorf("many stacks: err %v, %d bytes allocated", err, alloc)
	}
	err, _, alloc := costOf(t, shared.Bytes())
	if err == nil || !strings.Contains(err.Error(), "a trace entry or block already read") || alloc > craftedBudget {
		t.Errorf("one entry shared: err %v, %d bytes allocated", err, alloc)
	}
}

// TestFloods: 10 MB of MARK, of empty dicts or of empty lists once cost
// gigabytes; each is now refused at a bound well within its first
// megabyte's worth of memory.
func TestFloods(t *testing.T) {
	for _, c := range []struct {
		name string
		unit string
		want string
	}{
		{"MARK", "(", "open MARKs"},
		{"empty dicts", "}", "values pending on the stack"},
		{"empty lists", "]", "values pending on the stack"},
		{"empty dicts in a list", "}", "held at once"},
	} {
		data := "\x80\x04" + strings.Repeat(c.unit, 10<<20) + "."
		if c.name == "empty dicts in a list" {
			data = "\x80\x04]" + strings.Repeat("("+strings.Repeat("}", 1000)+"e", 10<<10) + "."
		}
		err, _, alloc := costOf(t, []byte(data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", c.name, err, c.want)
		}
		if alloc > craftedBudget {
			t.Errorf("%s: %d bytes allocated", c.name, alloc)
		}
	}
}

// TestManyWindows: 600,000 markers once gave a 64 MB table and 154 MB of
// JSON; windows and OOM entries are now capped, with a warning that says
// so.
func TestManyWindows(t *testing.T) {
	var p pk
	p.header()
	p.WriteString("(")
	for i := 0; i < 300_000; i++ {
		p.WriteString("}(")
		p.str("action")
		p.str("alloc")
		p.str("addr")
		p.WriteString("J")
		binary.Write(&p.Buffer, binary.LittleEndian, int32(i))
		p.str("size")
		p.WriteString("K\x01u")
		p.WriteString("}(")
		p.str("action")
		if i%2 == 0 {
			p.str("annotate")
		} else {
			p.str("oom")
		}
		p.str("user_metadata")
		p.str("|x|\n## y")
		p.WriteString("u")
		if i%400 == 399 {
			p.WriteString("e(")
		}
	}
	p.WriteString("eau.")
	s, err := ReadSnapshot(bytes.NewReader(p.Bytes()), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	devs, err := Analyze(s, 0)
	if err != nil {
		t.Fatal(err)
	}
	d := devs[0]
	if len(d.Windows) != MaxWindows || len(d.OOMs) != MaxOOMs {
		t.Errorf("%d windows, %d OOMs; want %d, %d", len(d.Windows), len(d.OOMs), MaxWindows, MaxOOMs)
	}
	warned := 0
	for _, w := range d.Warnings {
		if strings.Contains(w, "windows") || strings.Contains(w, "oom entries") {
			warned++
		}
	}
	if warned != 2 {
		t.Errorf("warnings %q", d.Warnings)
	}
}

// TestJSONDeepUnknownKey: a key the reader skips, holding 10 MB of '[',
// is refused at a depth, not held.
func TestJSONDeepUnknownKey(t *testing.T) {
	data := `{"segments": [], "x": ` + strings.Repeat("[", 10<<20) + `}`
	err, _, alloc := costOf(t, []byte(data))
	if err == nil || !strings.Contains(err.Error(), "nested more than 1000 deep") || alloc > craftedBudget {
		t.Errorf("err %v, %d bytes allocated", err, alloc)
	}
}
