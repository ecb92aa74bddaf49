// Command wasmsize prints what a Go WebAssembly binary is made of: the
// size of every function body summed by Go package (from the name
// section's function names and the code section's bodies), the data
// segments (with the TrueType fonts found in them), and the rest of the
// file's sections. The binary must keep its name section: build it
// without -ldflags=-s (make wasm-size does).
//
//	go run ./internal/tools/wasmsize [-top 25] bin/app-names.wasm
//
// It reads the binary format itself (the standard library has no wasm
// reader): sections, the imports (which take the first function
// indices), the code section's body sizes, the data segments and the
// "name" custom section.
package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"unicode"
)

func main() {
	top := flag.Int("top", 25, "packages listed by name; the rest are summed on one line")
	list := flag.String("pkgs", "", "a file of the build's import paths, one a line (GOOS=js GOARCH=wasm go list -deps ./app)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: wasmsize -pkgs FILE [-top N] file.wasm (built without -ldflags=-s)")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || *list == "" {
		flag.Usage()
		os.Exit(2)
	}
	listed, err := os.ReadFile(*list)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
	pkgs := newPackages(strings.Fields(string(listed)))
	data, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
	m, err := parse(data)
	if err != nil {
		fmt.Fprintf(os.Stderr, "wasmsize: %s: %v\n", flag.Arg(0), err)
		os.Exit(1)
	}
	if len(m.names) == 0 {
		fmt.Fprintf(os.Stderr, "wasmsize: %s has no function names (built with -ldflags=-s?)\n", flag.Arg(0))
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	report(w, m, pkgs, int64(len(data)), *top)
	w.Flush()
}

// module is what wasmsize reads of a binary.
type module struct {
	sections  []section
	imported  int     // imported functions: they take indices 0..imported-1
	bodies    []int64 // the code section's bodies, size prefix included, by index-imported
	names     map[int]string
	segments  []int64 // the data segments' byte counts
	dataBytes []byte  // the segments' bytes, one after another (for fonts)
}

type section struct {
	id   byte
	name string // a custom section's name
	size int64  // header included
}

var sectionNames = map[byte]string{
	0: "custom", 1: "type", 2: "import", 3: "function", 4: "table", 5: "memory",
	6: "global", 7: "export", 8: "start", 9: "element", 10: "code", 11: "data", 12: "datacount",
}

// reader reads the binary format's primitives from a byte slice.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("at byte %d: "+format, append([]any{r.off}, args...)...)
	}
}

func (r *reader) byte() byte {
	if r.err != nil || r.off >= len(r.b) {
		r.fail("unexpected end")
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

func (r *reader) uleb() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.fail("bad LEB128")
		return 0
	}
	r.off += n
	return v
}

func (r *reader) bytes(n uint64) []byte {
	if r.err != nil || n > uint64(len(r.b)-r.off) {
		r.fail("a length of %d runs past the end", n)
		return nil
	}
	b := r.b[r.off : r.off+int(n)]
	r.off += int(n)
	return b
}

func (r *reader) name() string { return string(r.bytes(r.uleb())) }

// constExpr skips an initializer expression (up to its end opcode).
func (r *reader) constExpr() {
	for r.err == nil {
		switch op := r.byte(); op {
		case 0x0b: // end
			return
		case 0x41, 0x42, 0x23: // i32.const, i64.const (signed LEB128), global.get
			r.uleb()
		default:
			r.fail("unexpected opcode 0x%02x in an initializer", op)
		}
	}
}

func parse(data []byte) (*module, error) {
	if len(data) < 8 || string(data[:4]) != "\x00asm" || binary.LittleEndian.Uint32(data[4:8]) != 1 {
		return nil, errors.New("not a WebAssembly binary (version 1)")
	}
	m := &module{names: map[int]string{}}
	r := &reader{b: data, off: 8}
	for r.err == nil && r.off < len(data) {
		start := r.off
		id := r.byte()
		body := &reader{b: r.bytes(r.uleb())}
		if r.err != nil {
			break
		}
		s := section{id: id, size: int64(r.off - start)}
		switch id {
		case 0:
			s.name = body.name()
			if s.name == "name" {
				m.readNames(body)
			}
		case 2:
			m.readImports(body)
		case 10:
			m.readCode(body)
		case 11:
			m.readData(body)
		}
		if body.err != nil {
			return nil, fmt.Errorf("%s section: %v", sectionNames[id], body.err)
		}
		m.sections = append(m.sections, s)
	}
	return m, r.err
}

func (m *module) readImports(r *reader) {
	for n := r.uleb(); n > 0 && r.err == nil; n-- {
		r.name()
		r.name()
		switch kind := r.byte(); kind {
		case 0: // function: its type
			r.uleb()
			m.imported++
		case 1: // table: element type, limits
			r.byte()
			if r.byte()&1 != 0 {
				r.uleb()
			}
			r.uleb()
		case 2: // memory: limits
			if r.byte()&1 != 0 {
				r.uleb()
			}
			r.uleb()
		case 3: // global: type, mutability
			r.byte()
			r.byte()
		default:
			r.fail("unknown import kind %d", kind)
		}
	}
}

func (m *module) readCode(r *reader) {
	for n := r.uleb(); n > 0 && r.err == nil; n-- {
		start := r.off
		r.bytes(r.uleb())
		m.bodies = append(m.bodies, int64(r.off-start))
	}
}

func (m *module) readData(r *reader) {
	for n := r.uleb(); n > 0 && r.err == nil; n-- {
		switch flags := r.uleb(); flags {
		case 0:
			r.constExpr()
		case 1:
		case 2:
			r.uleb()
			r.constExpr()
		default:
			r.fail("unknown data segment kind %d", flags)
		}
		b := r.bytes(r.uleb())
		m.segments = append(m.segments, int64(len(b)))
		m.dataBytes = append(m.dataBytes, b...)
	}
}

// readNames reads the function names (subsection 1) of the name section.
func (m *module) readNames(r *reader) {
	for r.err == nil && r.off < len(r.b) {
		id := r.byte()
		sub := &reader{b: r.bytes(r.uleb())}
		if id != 1 {
			continue
		}
		for n := sub.uleb(); n > 0 && sub.err == nil; n-- {
			idx := sub.uleb()
			m.names[int(idx)] = sub.name()
		}
		if sub.err != nil {
			r.err = sub.err
		}
	}
}

// mangle is a symbol name as Go's linker writes it in the name section:
// every character but letters, digits, _ and . is an underscore
// (cmd/link/internal/wasm's nameRegexp), so "github.com/a/b.(*T).M" is
// "github.com_a_b.__T_.M".
func mangle(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return '_'
	}, s)
}

// packages tells a mangled function name's Go package, from the import
// paths the binary was built from (go list -deps): the longest path
// whose mangled form, and a dot, begins the name. A name no path begins
// is the linker's own (type:.eq.T is "type_.eq.T") or a package the list
// lacks: it is grouped by what precedes its first dot.
type packages struct {
	byMangled map[string]string
}

func newPackages(paths []string) *packages {
	p := &packages{byMangled: map[string]string{}}
	for _, path := range paths {
		p.byMangled[mangle(path)] = path
	}
	return p
}

func (p *packages) of(sym string) string {
	best := ""
	for i := 0; i < len(sym); i++ {
		if sym[i] != '.' {
			continue
		}
		if path, ok := p.byMangled[sym[:i]]; ok {
			best = path
		}
	}
	if best != "" {
		return best
	}
	switch {
	case strings.HasPrefix(sym, "type_."):
		return "<type:> (the linker's equality functions)"
	case strings.HasPrefix(sym, "go_."):
		return "<go:>"
	}
	if i := strings.Index(sym, "."); i > 0 {
		return "? " + sym[:i]
	}
	return "? " + sym
}

// fonts finds the TrueType and OpenType fonts in b: an sfnt header
// whose table directory is consistent, its length the end of its last
// table. It returns each font's offset and length.
func fonts(b []byte) (offs, lens []int) {
	for i := 0; i+12 <= len(b); i++ {
		tag := binary.BigEndian.Uint32(b[i:])
		if tag != 0x00010000 && tag != 0x4f54544f /* OTTO */ {
			continue
		}
		n := int(binary.BigEndian.Uint16(b[i+4:]))
		if n < 4 || n > 64 || i+12+16*n > len(b) {
			continue
		}
		end, ok := 0, true
		for t := 0; t < n && ok; t++ {
			rec := b[i+12+16*t:]
			for _, c := range rec[:4] {
				ok = ok && c >= 0x20 && c < 0x7f
			}
			off, length := int(binary.BigEndian.Uint32(rec[8:])), int(binary.BigEndian.Uint32(rec[12:]))
			ok = ok && off >= 12+16*n && off+length <= len(b)-i
			end = max(end, off+length)
		}
		if !ok {
			continue
		}
		offs, lens = append(offs, i), append(lens, end)
		i += end - 1
	}
	return offs, lens
}

type row struct {
	name  string
	bytes int64
	count int
}

func report(w io.Writer, m *module, pkgs *packages, fileSize int64, top int) {
	byPkg := map[string]*row{}
	var code int64
	for i, size := range m.bodies {
		name, ok := m.names[m.imported+i]
		pkg := "<unnamed>"
		if ok {
			pkg = pkgs.of(name)
		}
		r := byPkg[pkg]
		if r == nil {
			r = &row{name: pkg}
			byPkg[pkg] = r
		}
		r.bytes += size
		r.count++
		code += size
	}
	rows := make([]*row, 0, len(byPkg))
	for _, r := range byPkg {
		rows = append(rows, r)
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].bytes != rows[j].bytes {
			return rows[i].bytes > rows[j].bytes
		}
		return rows[i].name < rows[j].name
	})
	var data int64
	for _, s := range m.segments {
		data += s
	}
	share := func(n int64) string { return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(fileSize)) }

	fmt.Fprintf(w, "%s bytes: %d functions (%d imported), %d packages, %d data segments\n\n",
		commas(fileSize), len(m.bodies), m.imported, len(rows), len(m.segments))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "bytes\tshare\tfunctions\t  package (function bodies)")
	for i, r := range rows {
		if i == top {
			var rest row
			for _, r := range rows[top:] {
				rest.bytes += r.bytes
				rest.count += r.count
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t  (%d other packages)\n", commas(rest.bytes), share(rest.bytes), rest.count, len(rows)-top)
			break
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t  %s\n", commas(r.bytes), share(r.bytes), r.count, r.name)
	}
	fmt.Fprintf(tw, "%s\t%s\t%d\t  all function bodies (code section)\n", commas(code), share(code), len(m.bodies))
	offs, lens := fonts(m.dataBytes)
	var fontBytes int64
	for _, l := range lens {
		fontBytes += int64(l)
	}
	fmt.Fprintf(tw, "%s\t%s\t%d\t  data segments (strings, tables, type data, pclntab; no names in a wasm)\n", commas(data), share(data), len(m.segments))
	fmt.Fprintf(tw, "%s\t%s\t%d\t    of which TrueType/OpenType fonts\n", commas(fontBytes), share(fontBytes), len(lens))
	var other int64
	for _, s := range m.sections {
		switch {
		case s.id == 10:
			other += s.size - code
		case s.id == 11:
			fmt.Fprintf(tw, "%s\t%s\t\t  data segment headers (an offset and a length each)\n", commas(s.size-data), share(s.size-data))
		case s.id == 0 && s.name == "name":
			fmt.Fprintf(tw, "%s\t%s\t\t  name section (make wasm's build has none: -s)\n", commas(s.size), share(s.size))
		default:
			other += s.size
		}
	}
	fmt.Fprintf(tw, "%s\t%s\t\t  everything else (other sections, headers)\n", commas(other+8), share(other+8))
	tw.Flush()
	for i, l := range lens {
		fmt.Fprintf(w, "font %d: %s bytes at data offset %d\n", i+1, commas(int64(l)), offs[i])
	}
}

// commas writes n with thousands separators, as BENCHMARKS.md does.
func commas(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
