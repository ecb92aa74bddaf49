package snapgen

import (
	"bufio"
	"encoding/binary"
	"math/rand"
	"strconv"
)

// encoder writes the snapshot's values in order: begin/end a dict,
// key, beginList/endList, str, int, and a stack (shared as PyTorch shares
// it).
type encoder interface {
	begin()
	end()
	key(k string)
	beginList()
	endList()
	str(s string)
	int(n int64)
	// frameRef writes a frame, by reference when written before.
	frame(i int, f frameDef)
	// stackRef writes an allocation's stack by reference when written
	// before; false when the caller is to write it (and it is then
	// remembered).
	stackRef(id int) bool
	forget(id int)
	stop()
	err() error
}

type frameDef struct {
	file, name string
	line       int64
}

// callSites are the stacks allocations come from.
type callSites struct {
	frames []frameDef
	sites  [][]int
}

func newSites(o Options) *callSites {
	rng := rand.New(rand.NewSource(o.Seed + 17))
	c := &callSites{}
	cpp := []string{"c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc",
		"c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::malloc",
		"at::detail::empty_generic", "at::native::empty_cuda", "at::_ops::empty_memory_format::call",
		"at::native::mm_out_cuda", "at::_ops::addmm::call", "torch::autograd::VariableType::addmm"}
	for _, n := range cpp {
		c.frames = append(c.frames, frameDef{file: "??", name: n})
	}
	mods := []string{"/opt/art/src/art/trainer_rank/_impl.py", "/opt/art/src/art/trainer_rank/_head.py",
		"/opt/megatron/core/transformer/moe/experts.py", "/opt/megatron/core/transformer/attention.py",
		"/usr/lib/python3/dist-packages/torch/nn/modules/module.py", "/usr/lib/python3/dist-packages/torch/autograd/function.py",
		"/opt/megatron/core/transformer/transformer_block.py", "/opt/art/src/art/trainer_rank/_outputs.py"}
	funcs := []string{"forward", "_call_impl", "backward", "chunk_logprobs", "apply", "_forward_step", "run", "compute"}
	for i := 0; i < 600; i++ {
		c.frames = append(c.frames, frameDef{file: mods[rng.Intn(len(mods))], name: funcs[rng.Intn(len(funcs))],
			line: int64(10 + rng.Intn(5000))})
	}
	depth := o.Depth
	for s := 0; s < o.CallSites; s++ {
		st := make([]int, depth)
		for i := range st {
			if i < 3 && i < depth-1 {
				st[i] = rng.Intn(len(cpp))
			} else {
				st[i] = len(cpp) + rng.Intn(600)
			}
		}
		c.sites = append(c.sites, st)
	}
	return c
}

// stack writes allocation id's stack (of call site site).
func (c *callSites) stack(e encoder, id, site int) {
	if e.stackRef(id) {
		return
	}
	e.beginList()
	for _, f := range c.sites[site] {
		e.frame(f, c.frames[f])
	}
	e.endList()
}

// pickleEnc writes protocol 4 as Python's pickler does.
type pickleEnc struct {
	w      *bufio.Writer
	buf    []byte // the frame being written
	memo   int
	strs   map[string]int
	frames map[int]int
	stacks map[int]int
	open   []container
	e      error
}

type container struct {
	dict    bool
	count   int
	inBatch bool
	halfKey bool // a dict's key written, its value not yet
}

func newPickleEnc(w *bufio.Writer) *pickleEnc {
	p := &pickleEnc{w: w, strs: map[string]int{}, frames: map[int]int{}, stacks: map[int]int{}}
	p.w.Write([]byte{0x80, 4})
	return p
}

const batch = 1000

// valueStart opens a batch in a list before an item.
func (p *pickleEnc) valueStart() {
	if n := len(p.open); n > 0 {
		c := &p.open[n-1]
		if !c.dict && !c.inBatch {
			p.buf = append(p.buf, '(')
			c.inBatch = true
		}
	}
}

// valueEnd counts an item (a dict's value) and closes a full batch.
func (p *pickleEnc) valueEnd() {
	n := len(p.open)
	if n == 0 {
		return
	}
	c := &p.open[n-1]
	c.halfKey = false
	c.count++
	if c.count == batch {
		p.closeBatch(c)
	}
	if n == 1 && len(p.buf) >= 64<<10 {
		p.flushFrame()
	}
}

func (p *pickleEnc) closeBatch(c *container) {
	if !c.inBatch {
		return
	}
	if c.dict {
		p.buf = append(p.buf, 'u')
	} else {
		p.buf = append(p.buf, 'e')
	}
	c.inBatch, c.count = false, 0
	if len(p.buf) >= 64<<10 {
		p.flushFrame()
	}
}

func (p *pickleEnc) flushFrame() {
	if len(p.buf) == 0 {
		return
	}
	var h [9]byte
	h[0] = 0x95
	binary.LittleEndian.PutUint64(h[1:], uint64(len(p.buf)))
	p.w.Write(h[:])
	if _, err := p.w.Write(p.buf); err != nil && p.e == nil {
		p.e = err
	}
	p.buf = p.buf[:0]
}

func (p *pickleEnc) memoize() {
	p.buf = append(p.buf, 0x94)
	p.memo++
}

func (p *pickleEnc) get(i int) {
	if i < 256 {
		p.buf = append(p.buf, 'h', byte(i))
		return
	}
	p.buf = append(p.buf, 'j')
	p.buf = binary.LittleEndian.AppendUint32(p.buf, uint32(i))
}

func (p *pickleEnc) begin() {
	p.valueStart()
	p.buf = append(p.buf, '}')
	p.memoize()
	p.open = append(p.open, container{dict: true})
}

func (p *pickleEnc) end() {
	c := &p.open[len(p.open)-1]
	p.closeBatch(c)
	p.open = p.open[:len(p.open)-1]
	p.valueEnd()
}

func (p *pickleEnc) beginList() {
	p.valueStart()
	p.buf = append(p.buf, ']')
	p.memoize()
	p.open = append(p.open, container{})
}

func (p *pickleEnc) endList() { p.end() }

func (p *pickleEnc) key(k string) {
	c := &p.open[len(p.open)-1]
	if !c.inBatch {
		p.buf = append(p.buf, '(')
		c.inBatch = true
	}
	p.rawStr(k)
	c.halfKey = true
}

// rawStr writes a string, by reference when the same text was written
// (Python shares the interned keys and the actions).
func (p *pickleEnc) rawStr(s string) {
	if i, ok := p.strs[s]; ok {
		p.get(i)
		return
	}
	if len(s) < 256 {
		p.buf = append(p.buf, 0x8c, byte(len(s)))
	} else {
		p.buf = append(p.buf, 'X')
		p.buf = binary.LittleEndian.AppendUint32(p.buf, uint32(len(s)))
	}
	p.buf = append(p.buf, s...)
	p.strs[s] = p.memo
	p.memoize()
}

func (p *pickleEnc) str(s string) {
	p.valueStart()
	p.rawStr(s)
	p.valueEnd()
}

func (p *pickleEnc) int(n int64) {
	p.valueStart()
	switch {
	case n >= 0 && n < 256:
		p.buf = append(p.buf, 'K', byte(n))
	case n >= 0 && n < 65536:
		p.buf = append(p.buf, 'M', byte(n), byte(n>>8))
	case n >= -1<<31 && n < 1<<31:
		p.buf = append(p.buf, 'J')
		p.buf = binary.LittleEndian.AppendUint32(p.buf, uint32(n))
	default:
		// LONG1: the fewest little-endian two's complement bytes.
		var b []byte
		for v := n; ; {
			c := byte(v)
			b = append(b, c)
			v >>= 8
			if (v == 0 && c&0x80 == 0) || (v == -1 && c&0x80 != 0) {
				break
			}
		}
		p.buf = append(p.buf, 0x8a, byte(len(b)))
		p.buf = append(p.buf, b...)
	}
	p.valueEnd()
}

func (p *pickleEnc) frame(i int, f frameDef) {
	if m, ok := p.frames[i]; ok {
		p.valueStart()
		p.get(m)
		p.valueEnd()
		return
	}
	p.begin()
	p.frames[i] = p.memo - 1
	p.key("filename")
	p.str(f.file)
	p.key("line")
	p.int(f.line)
	p.key("name")
	p.str(f.name)
	p.end()
}

func (p *pickleEnc) stackRef(id int) bool {
	if m, ok := p.stacks[id]; ok {
		p.valueStart()
		p.get(m)
		p.valueEnd()
		return true
	}
	p.stacks[id] = p.memo // the list about to be written
	return false
}

func (p *pickleEnc) forget(id int) { delete(p.stacks, id) }

func (p *pickleEnc) stop() {
	p.buf = append(p.buf, '.')
	p.flushFrame()
}

func (p *pickleEnc) err() error { return p.e }

// jsonEnc writes the JSON form: the same dictionary, nothing shared.
type jsonEnc struct {
	w     *bufio.Writer
	first []bool
	e     error
	buf   []byte
}

func (j *jsonEnc) sep() {
	if n := len(j.first); n > 0 {
		if !j.first[n-1] {
			j.w.WriteByte(',')
		}
		j.first[n-1] = false
	}
}

func (j *jsonEnc) begin()     { j.sep(); j.w.WriteByte('{'); j.first = append(j.first, true) }
func (j *jsonEnc) end()       { j.w.WriteByte('}'); j.first = j.first[:len(j.first)-1] }
func (j *jsonEnc) beginList() { j.sep(); j.w.WriteByte('['); j.first = append(j.first, true) }
func (j *jsonEnc) endList()   { j.w.WriteByte(']'); j.first = j.first[:len(j.first)-1] }
func (j *jsonEnc) key(k string) {
	j.sep()
	j.buf = strconv.AppendQuote(j.buf[:0], k)
	j.w.Write(j.buf)
	j.w.WriteByte(':')
	j.first[len(j.first)-1] = true // the value follows without a comma
}
func (j *jsonEnc) str(s string) {
	j.sep()
	j.buf = strconv.AppendQuote(j.buf[:0], s)
	j.w.Write(j.buf)
}
func (j *jsonEnc) int(n int64) {
	j.sep()
	j.buf = strconv.AppendInt(j.buf[:0], n, 10)
	_, err := j.w.Write(j.buf)
	if err != nil && j.e == nil {
		j.e = err
	}
}
func (j *jsonEnc) frame(_ int, f frameDef) {
	j.begin()
	j.key("filename")
	j.str(f.file)
	j.key("line")
	j.int(f.line)
	j.key("name")
	j.str(f.name)
	j.end()
}
func (j *jsonEnc) stackRef(int) bool { return false }
func (j *jsonEnc) forget(int)        {}
func (j *jsonEnc) stop()             {}
func (j *jsonEnc) err() error        { return j.e }
