package measure

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"headroom/measure/snapgen"
)

// readBoth reads data with the fast path and with the generic path
// alone (no list reused either), and says how the two differ ("" when
// they do not).
func readBoth(data []byte) string {
	read := func(generic bool) (*Snapshot, string) {
		genericOnly = generic
		defer func() { genericOnly = false }()
		s, err := ReadSnapshot(bytes.NewReader(data), ReadOptions{MaxBytes: 1 << 20})
		if err != nil {
			return nil, err.Error()
		}
		return s, ""
	}
	fs, ferr := read(false)
	gs, gerr := read(true)
	if ferr != gerr {
		return fmt.Sprintf("fast path: %q, generic: %q", ferr, gerr)
	}
	if !reflect.DeepEqual(fs, gs) {
		return "the snapshots differ"
	}
	return ""
}

// fastPathInputs are the committed snapshots (pickle protocols 0 to 5)
// and generated ones.
func fastPathInputs(t testing.TB) [][]byte {
	files, _ := filepath.Glob(filepath.Join("testdata", "snapshots", "*.pickle"))
	var out [][]byte
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	for _, o := range []snapgen.Options{
		{Seed: 5, Allocs: 12, Depth: 3, CallSites: 4, AnnotateEvery: 5, OOMAt: 7},
		{Seed: 9, Allocs: 400, Devices: 2, AnnotateEvery: 100, OOMAt: 300},
	} {
		var buf bytes.Buffer
		if _, err := snapgen.Write(&buf, o); err != nil {
			t.Fatal(err)
		}
		out = append(out, buf.Bytes())
	}
	return out
}

// TestFastPathChangesNothing: the fast path gives the same snapshot or
// the same error as the generic path, for real files, each one cut
// short at many places, and with bytes changed or put in (a changed
// opcode, length, memo index or integer, a MARK too many or too few).
func TestFastPathChangesNothing(t *testing.T) {
	rnd := rand.New(rand.NewSource(36))
	insert := []byte("()}]\x94hjqrKMJGNue\x8a\x8c\x85\x86\x87\x88\x89.")
	for i, data := range fastPathInputs(t) {
		if d := readBoth(data); d != "" {
			t.Fatalf("input %d: %s", i, d)
		}
		cases := 0
		for step := max(1, len(data)/100); cases < 100; cases++ {
			at := rnd.Intn(len(data))
			var m []byte
			switch cases % 3 {
			case 0:
				m = data[:min(len(data), cases*step)]
			case 1:
				m = bytes.Clone(data)
				m[at] = byte(rnd.Intn(256))
			default:
				m = append(append(append([]byte(nil), data[:at]...), insert[rnd.Intn(len(insert))]), data[at:]...)
			}
			if d := readBoth(m); d != "" {
				t.Fatalf("input %d, case %d: %s", i, cases, d)
			}
		}
	}
}

// TestEmptyAppendsThenEntry: an APPENDS of nothing leaves a new list
// new, so an entry appended after it still makes the list a trace,
// converted as it is read (the walk would give the same snapshot from a
// list of plain items, holding every entry until then).
func TestEmptyAppendsThenEntry(t *testing.T) {
	data := []byte("\x80\x04}(\x8c\x08segments]\x8c\x0ddevice_traces](](e(}(\x8c\x06action\x8c\x05alloc" +
		"\x8c\x04addrM\x00\x02\x8c\x04sizeM\x00\x02ueeu.")
	if d := readBoth(data); d != "" {
		t.Fatal(d)
	}
	d := &decoder{in: newByteSource(bytes.NewReader(data), 1<<20), snap: &Snapshot{Frames: []Frame{{}}, Notes: []string{""}}, sink: &collect{}}
	root, err := d.run()
	if err != nil {
		t.Fatal(err)
	}
	traces, _, _ := get(root, "device_traces", "")
	outer, ok := traces.(*listV)
	if !ok || len(outer.items) != 1 {
		t.Fatalf("device_traces: got %#v", traces)
	}
	trace, ok := outer.items[0].(*listV)
	if !ok {
		t.Fatalf("the trace: got %s, want a list", typeName(outer.items[0]))
	}
	if trace.mode != modeEvents {
		t.Fatalf("the trace's mode: got %d, want %d (entries converted as read)", trace.mode, modeEvents)
	}
}

// FuzzFastPath: for any input the fast path and the generic path agree.
func FuzzFastPath(f *testing.F) {
	for _, b := range fastPathInputs(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if d := readBoth(data); d != "" {
			t.Fatal(d)
		}
	})
}

// TestReusedListIsNew: a stack's list taken back once reduced comes
// out of newList as a new one does.
func TestReusedListIsNew(t *testing.T) {
	d := &decoder{}
	l := d.newList(false)
	for i := 0; i < 14; i++ { // past the inline room
		if err := d.appendItem(l, &frameV{f: Frame{Filename: "a.py", Line: int64(i)}}, 0); err != nil {
			t.Fatal(err)
		}
	}
	d.release(&l.cost)
	l.memo, l.mode, l.items, l.top = 7, modeReduced, nil, &frameV{}
	d.recycleList(l)
	if len(d.lists) != 1 {
		t.Fatal("a reduced stack's list was not taken back")
	}
	got, want := d.newList(false), (&decoder{}).newList(false)
	if got != l {
		t.Fatal("newList did not reuse the list taken back")
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("reused %+v, new %+v", *got, *want)
	}
	shared := d.newList(false)
	shared.mode, shared.shared = modeReduced, true
	d.recycleList(shared)
	if len(d.lists) != 0 {
		t.Fatal("a list referred to from elsewhere was taken back")
	}
}

// stackShared is a trace of three entries sharing one stack, the list
// written once and read twice through the memo (memo 0); with meta,
// the second entry also holds the list under another key.
func stackShared(meta bool) []byte {
	var p pk
	p.header()
	p.WriteByte('(')
	entry := func(action string, frames func()) {
		p.WriteString("}(")
		p.str("action")
		p.str(action)
		p.str("addr")
		p.WriteString("M\x00\x02")
		p.str("size")
		p.WriteString("M\x00\x02")
		p.str("frames")
		frames()
		if meta && action == "free_requested" {
			p.str("meta")
			p.get(0)
		}
		p.WriteByte('u')
	}
	entry("alloc", func() {
		p.WriteString("]\x94(}(")
		p.str("filename")
		p.str("a.py")
		p.str("line")
		p.WriteString("K\x07")
		p.str("name")
		p.str("f")
		p.WriteString("ue")
	})
	entry("free_requested", func() { p.get(0) })
	entry("free_completed", func() { p.get(0) })
	p.WriteString("eau.")
	return p.Bytes()
}

// TestStackListReuse: a stack's list is reused once every entry that
// holds it is converted, and never while something else holds it.
func TestStackListReuse(t *testing.T) {
	for _, meta := range []bool{false, true} {
		data := stackShared(meta)
		if d := readBoth(data); d != "" {
			t.Fatalf("meta %v: %s", meta, d)
		}
		d := &decoder{in: newByteSource(bytes.NewReader(data), 1<<20), snap: &Snapshot{Frames: []Frame{{}}, Notes: []string{""}}, sink: &collect{}}
		if _, err := d.run(); err != nil {
			t.Fatalf("meta %v: %v", meta, err)
		}
		if want := map[bool]int{false: 1, true: 0}[meta]; len(d.lists) != want {
			t.Errorf("meta %v: %d lists taken back, want %d", meta, len(d.lists), want)
		}
	}
	s, err := ReadSnapshot(bytes.NewReader(stackShared(false)), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	trace := s.Trace(0)
	if len(trace) != 3 {
		t.Fatalf("%d entries, want 3", len(trace))
	}
	for i, e := range trace {
		if s.Frames[e.Frame] != (Frame{Filename: "a.py", Line: 7, Name: "f"}) {
			t.Errorf("entry %d: frame %+v, want a.py:7:f", i, s.Frames[e.Frame])
		}
	}
}
