package main

import (
	"bytes"
	"strings"
	"testing"
)

// section appends a section (id, LEB128 size, body) to b.
func appendSection(b []byte, id byte, body []byte) []byte {
	b = append(b, id)
	b = appendULEB(b, uint64(len(body)))
	return append(b, body...)
}

func appendULEB(b []byte, v uint64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			c |= 0x80
		}
		b = append(b, c)
		if v == 0 {
			return b
		}
	}
}

func appendName(b []byte, s string) []byte {
	return append(appendULEB(b, uint64(len(s))), s...)
}

// tinyModule is a module as Go's linker writes one: an imported function
// (index 0), three bodies (indices 1-3) named as the name section
// mangles them, and one data segment.
func tinyModule() []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	imp := appendULEB(nil, 1)
	imp = appendName(imp, "gojs")
	imp = appendName(imp, "runtime.wasmExit")
	imp = append(imp, 0, 0) // a function of type 0
	b = appendSection(b, 2, imp)
	code := appendULEB(nil, 3)
	for _, n := range []int{10, 200, 3000} {
		code = appendULEB(code, uint64(n))
		code = append(code, make([]byte, n)...)
	}
	b = appendSection(b, 10, code)
	data := appendULEB(nil, 1)
	data = append(data, 0, 0x41, 0x80, 0x01, 0x0b) // active, i32.const 128, end
	data = appendULEB(data, 5)
	data = append(data, "hello"...)
	b = appendSection(b, 11, data)
	fn := appendULEB(nil, 3)
	for i, name := range []string{
		"github.com_a_b_c.__T_.M",     // github.com/a-b/c.(*T).M
		"github.com_a_b_c_d.F",        // github.com/a-b/c/d.F
		"type_.eq.github.com_a_b_c.T", // the linker's
	} {
		fn = appendULEB(fn, uint64(i+1))
		fn = appendName(fn, name)
	}
	names := appendName(nil, "name")
	names = appendSection(names, 1, fn)
	return appendSection(b, 0, names)
}

func TestReport(t *testing.T) {
	bin := tinyModule()
	m, err := parse(bin)
	if err != nil {
		t.Fatal(err)
	}
	if m.imported != 1 || len(m.bodies) != 3 || len(m.segments) != 1 || m.segments[0] != 5 {
		t.Fatalf("imported %d, bodies %v, segments %v", m.imported, m.bodies, m.segments)
	}
	pkgs := newPackages([]string{"github.com/a-b/c", "github.com/a-b/c/d", "fmt"})
	var out bytes.Buffer
	report(&out, m, pkgs, int64(len(bin)), 25)
	// The bodies count their size prefix: 1+10, 2+200, 2+3000.
	for _, want := range []string{
		"3,002  ", "<type:>",
		"11  ", "github.com/a-b/c\n",
		"202  ", "github.com/a-b/c/d\n",
		"3,215  ", "all function bodies",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
}

func TestParseRefusesOtherFiles(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("\x7fELF\x02\x01\x01\x00"), tinyModule()[:30]} {
		if _, err := parse(b); err == nil {
			t.Errorf("parse(%q) took it", b)
		}
	}
}

func TestFontsFindsAnSfnt(t *testing.T) {
	// An sfnt of four tables, the last ending at byte 200, in noise.
	font := make([]byte, 200)
	copy(font, "\x00\x01\x00\x00\x00\x04")
	for i, tag := range []string{"cmap", "glyf", "head", "hmtx"} {
		rec := font[12+16*i:]
		copy(rec, tag)
		off, length := 76+30*i, 30
		if i == 3 {
			length = 200 - off
		}
		rec[8], rec[9], rec[10], rec[11] = 0, 0, byte(off>>8), byte(off)
		rec[12], rec[13], rec[14], rec[15] = 0, 0, byte(length>>8), byte(length)
	}
	b := append(append([]byte("noise\x00\x01\x00\x00"), font...), "tail"...)
	offs, lens := fonts(b)
	if len(offs) != 1 || offs[0] != 9 || lens[0] != 200 {
		t.Errorf("fonts: %v %v, want [9] [200]", offs, lens)
	}
}
