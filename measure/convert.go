package measure

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unsafe"
)

// The conversion reads both decoded forms: the pickle decoder's values
// (unpickle.go) and encoding/json's (map[string]any, []any, json.Number).

func typeName(v any) string {
	switch v := v.(type) {
	case nil:
		return "None"
	case *dictV, map[string]any, *frameV, *Block:
		return "a dict"
	case *listV:
		if v.tuple {
			return "a tuple"
		}
		return "a list"
	case []any, topV:
		return "a list"
	case string:
		return "a string"
	case bytesV:
		return "bytes"
	case bool:
		return "a bool"
	case float64:
		return "a float"
	case json.Number:
		if strings.ContainsAny(string(v), ".eE") {
			return "a float"
		}
		return "an integer"
	case int64, *int64, bigV:
		return "an integer"
	}
	return fmt.Sprintf("%T", v)
}

func wrongType(path, want string, v any) error {
	return fmt.Errorf("%s: want %s, got %s", path, want, typeName(v))
}

// maxDictKeys bounds a dict's keys: a snapshot's dicts have a handful,
// and a lookup scans them.
const maxDictKeys = 256

// maxFramesScanned bounds how far topFrame looks for a Python frame.
const maxFramesScanned = 256

// maxSnapshotIntDigits bounds an integer's decimal digits in JSON: int64 has 19,
// and a longer one is refused without being parsed or printed.
const maxSnapshotIntDigits = 20

// get returns key's value in a dict (the last one, as Python keeps the
// last of repeated keys), whether it is there, or an error when v is not a
// dict.
func get(v any, key, path string) (any, bool, error) {
	switch d := v.(type) {
	case *dictV:
		if len(d.pairs) > maxDictKeys {
			return nil, false, fmt.Errorf("%s: a dict of %d keys, more than any snapshot dict has (%d)", path, len(d.pairs), maxDictKeys)
		}
		var val any
		found := false
		for i := range d.pairs {
			if k, ok := d.pairs[i].k.(string); ok && k == key {
				val, found = d.value(&d.pairs[i]), true
			}
		}
		return val, found, nil
	case map[string]any:
		val, ok := d[key]
		return val, ok, nil
	}
	return nil, false, wrongType(path, "a dict", v)
}

func list(v any, path string) ([]any, error) {
	switch l := v.(type) {
	case *listV:
		if l.mode == modeEvents || l.mode == modeReduced {
			return nil, fmt.Errorf("%s: a list read as another part of the snapshot", path)
		}
		return l.items, nil
	case []any:
		return l, nil
	}
	return nil, wrongType(path, "a list", v)
}

func integer(v any, path string) (int64, error) {
	switch n := v.(type) {
	case int64:
		return n, nil
	case *int64:
		return *n, nil
	case bigV:
		return 0, fmt.Errorf("%s: an integer of %d bytes does not fit in 64 bits", path, n.nbytes)
	case json.Number:
		s := string(n)
		if strings.ContainsAny(s, ".eE") {
			break
		}
		digits := strings.TrimPrefix(s, "-")
		if len(digits) > maxSnapshotIntDigits {
			return 0, fmt.Errorf("%s: an integer of %d digits does not fit in 64 bits", path, len(digits))
		}
		x, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s: an integer of %d digits does not fit in 64 bits", path, len(digits))
		}
		return x, nil
	}
	return 0, wrongType(path, "an integer", v)
}

func text(v any, path string) (string, error) {
	switch s := v.(type) {
	case string:
		return s, nil
	case bytesV:
		return string(s), nil
	}
	return "", wrongType(path, "a string", v)
}

// field reads an optional field with conv; absent or None leaves *dst.
func field[T any](v any, key, path string, dst *T, conv func(any, string) (T, error)) error {
	val, ok, err := get(v, key, path)
	if err != nil || !ok || val == nil {
		return err
	}
	x, err := conv(val, path+"."+key)
	if err == nil {
		*dst = x
	}
	return err
}

// required reads a field that must be there.
func required[T any](v any, key, path string, dst *T, conv func(any, string) (T, error)) error {
	val, ok, err := get(v, key, path)
	if err != nil {
		return err
	}
	if !ok || val == nil {
		return fmt.Errorf("%s.%s: missing", path, key)
	}
	x, err := conv(val, path+"."+key)
	if err == nil {
		*dst = x
	}
	return err
}

func nonNegative(n int64, path string) error {
	if n < 0 {
		return fmt.Errorf("%s: must be >= 0, got %d", path, n)
	}
	return nil
}

// frameOf converts one frame dict.
func frameOf(v any, path string) (Frame, error) {
	var fr Frame
	if err := field(v, "filename", path, &fr.Filename, text); err != nil {
		return Frame{}, err
	}
	if err := field(v, "line", path, &fr.Line, integer); err != nil {
		return Frame{}, err
	}
	if err := field(v, "name", path, &fr.Name, text); err != nil {
		return Frame{}, err
	}
	return fr, nil
}

// filenameOf is a frame's filename, for the search of a Python frame.
// A decoded dict without a filename key is known by its shape, so a dict
// referred to many times is not scanned again.
func filenameOf(f any, base string, i int) (string, error) {
	switch x := f.(type) {
	case *frameV:
		return x.f.Filename, nil
	case *dictV:
		if x.shapeOf() != shapeFrame && len(x.pairs) <= maxDictKeys {
			return "", nil
		}
	}
	if m, ok := f.(map[string]any); ok {
		if s, ok := m["filename"].(string); ok {
			return s, nil
		}
	}
	var name string
	err := field(f, "filename", base+"["+strconv.Itoa(i)+"]", &name, text)
	return name, err
}

// topFrame picks the frame a table shows for a stack: the first (innermost)
// frame of a Python file among the first 256, since the C++ frames above
// it are the allocator's own; the first frame when none is Python; none
// for an empty stack (a block allocated before recording began). The
// *frameV is the decoded frame when there is one (for its identity).
func topFrame(v any, path string) (Frame, *frameV, error) { return topFrameAt(v, path, "") }

// topFrameAt is topFrame of the list at path+suffix, the path built only
// for an error.
func topFrameAt(v any, base, suffix string) (Frame, *frameV, error) {
	var top *frameV
	switch t := v.(type) {
	case topV:
		top = t.top
	case *listV:
		if t.mode != modeReduced {
			goto scan
		}
		top = t.top
	default:
		goto scan
	}
	if top == nil {
		return Frame{}, nil, nil
	}
	return top.f, top, nil
scan:
	l, ok := v.(*listV)
	if !ok || l.mode != modeItems {
		if l, ok := v.([]any); ok {
			return scanFrames(l, base+suffix)
		}
		frames, err := list(v, base+suffix)
		if err != nil {
			return Frame{}, nil, err
		}
		return scanFrames(frames, base+suffix)
	}
	// The decoded frames: the path is needed only for an error.
	frames := l.items
	for _, f := range frames[:min(len(frames), maxFramesScanned)] {
		fv, ok := f.(*frameV)
		if !ok {
			return scanFrames(frames, base+suffix)
		}
		if strings.HasSuffix(fv.f.Filename, ".py") {
			return fv.f, fv, nil
		}
	}
	if len(frames) == 0 {
		return Frame{}, nil, nil
	}
	if fv, ok := frames[0].(*frameV); ok {
		return fv.f, fv, nil
	}
	return scanFrames(frames, base+suffix)
}

func scanFrames(frames []any, path string) (Frame, *frameV, error) {
	if len(frames) == 0 {
		return Frame{}, nil, nil
	}
	pick := -1
	for i, f := range frames[:min(len(frames), maxFramesScanned)] {
		name, err := filenameOf(f, path, i)
		if err != nil {
			return Frame{}, nil, err
		}
		if strings.HasSuffix(name, ".py") {
			pick = i
			break
		}
	}
	if pick < 0 {
		pick = 0
	}
	if fv, ok := frames[pick].(*frameV); ok {
		return fv.f, fv, nil
	}
	fr, err := frameOf(frames[pick], path+"["+strconv.Itoa(pick)+"]")
	return fr, nil, err
}

// blockFrame is topFrame for a block, whose frame is kept whole.
func blockFrame(v any, path string) (Frame, error) {
	f, _, err := topFrame(v, path)
	return f, err
}

// walker converts the decoded tree into a Snapshot, counting segments,
// blocks and entries against a budget.
type walker struct {
	left int64
	d    *decoder // the pickle decoder, nil for JSON
	// byContent interns top frames by their text (JSON, where nothing is
	// shared); otherwise by the identity of the decoded frame.
	byContent map[Frame]int32
	byID      map[frameKey]int32
	sink      eventSink
	nextID    *int32 // the next stream's number, shared with the decoder
}

// newStream numbers a trace whose entries the walk converts.
func (w *walker) newStream() int32 {
	id := *w.nextID
	*w.nextID++
	return id
}

// frameKey is a frame's identity: its strings' storage, not their text,
// so one long shared string is never hashed once per use.
type frameKey struct {
	fp, np *byte
	fl, nl int
	line   int64
}

func (w *walker) spend(path string) error {
	if w.left--; w.left < 0 {
		return fmt.Errorf("%s: the pickle refers to the same objects more times than its size allows (a memo bomb?)", path)
	}
	return nil
}

// Bounds on the tables a snapshot's entries share, which a crafted file
// could otherwise grow faster than its own size: past MaxTopFrames
// distinct top frames an entry's frame is left out, and past
// MaxNoteBytes of marker texts a marker's text (its window is then named
// by its entry). A real trace has thousands of top frames and a marker
// per step.
const (
	MaxTopFrames = 1 << 19
	MaxNoteBytes = 16 << 20
)

// frameID is the index of a top frame in s.Frames (0: none).
func frameID(s *Snapshot, f Frame, fv *frameV, byContent map[Frame]int32, byID map[frameKey]int32) int32 {
	if f == (Frame{}) {
		return 0
	}
	if fv != nil && fv.id > 0 {
		return fv.id
	}
	var id int32
	var ok bool
	if byContent != nil {
		id, ok = byContent[f]
	} else {
		id, ok = byID[keyOf(f)]
	}
	if !ok {
		if len(s.Frames) > MaxTopFrames {
			return 0 // past the bound: the entry is shown without its frame
		}
		s.Frames = append(s.Frames, f)
		id = int32(len(s.Frames) - 1)
		if byContent != nil {
			byContent[f] = id
		} else {
			byID[keyOf(f)] = id
		}
	}
	if fv != nil {
		fv.id = id
	}
	return id
}

func keyOf(f Frame) frameKey {
	return frameKey{unsafe.StringData(f.Filename), unsafe.StringData(f.Name), len(f.Filename), len(f.Name), f.Line}
}

// convertSnapshot reads the decoded dictionary into s.
func (w *walker) convertSnapshot(tree any, s *Snapshot) error {
	const root = "snapshot"
	segs, ok, err := get(tree, "segments", root)
	if err != nil {
		return fmt.Errorf("%v: a memory snapshot is a dict with segments and device_traces", err)
	}
	if !ok {
		return fmt.Errorf("snapshot.segments: missing: not a memory snapshot (torch.cuda.memory._snapshot() has segments and device_traces)")
	}
	segList, err := list(segs, "segments")
	if err != nil {
		return err
	}
	for i, sv := range segList {
		seg, err := w.convertSegment(sv, "segments["+strconv.Itoa(i)+"]")
		if err != nil {
			return err
		}
		s.Segments = append(s.Segments, seg)
	}
	traces, ok, _ := get(tree, "device_traces", root)
	if !ok || traces == nil {
		return nil
	}
	s.History = true
	devs, err := list(traces, "device_traces")
	if err != nil {
		return err
	}
	for d, tv := range devs {
		path := "device_traces[" + strconv.Itoa(d) + "]"
		if l, ok := tv.(*listV); ok && l.mode == modeEvents {
			if l.used {
				return fmt.Errorf("%s: the same list as another device's trace", path)
			}
			l.used = true
			if l.failAt >= 0 {
				_, err := w.convertEvent(s, l.fail, path+"["+strconv.Itoa(l.failAt)+"]")
				if err == nil {
					err = fmt.Errorf("%s[%d]: not a trace entry", path, l.failAt)
				}
				return err
			}
			s.streams = append(s.streams, l.stream)
			continue
		}
		entries, err := list(tv, path)
		if err != nil {
			return err
		}
		stream := int32(-1)
		if len(entries) > 0 {
			stream = w.newStream()
		}
		for i, ev := range entries {
			e, err := w.convertEvent(s, ev, path+"["+strconv.Itoa(i)+"]")
			if err != nil {
				return err
			}
			if err := w.sink.event(stream, &e); err != nil {
				return err
			}
			// The decoded entry is garbage once converted.
			entries[i] = nil
		}
		s.streams = append(s.streams, stream)
	}
	return nil
}

func (w *walker) convertSegment(v any, path string) (Segment, error) {
	var seg Segment
	if err := w.spend(path); err != nil {
		return seg, err
	}
	if _, ok := v.(*Block); ok {
		return seg, fmt.Errorf("%s: a block (a dict with a state) where a segment belongs", path)
	}
	for _, f := range []struct {
		key string
		dst *int64
		req bool
	}{
		{"device", &seg.Device, false}, {"address", &seg.Address, true}, {"total_size", &seg.TotalSize, true},
		{"allocated_size", &seg.AllocatedSize, false}, {"active_size", &seg.ActiveSize, false},
		{"stream", &seg.Stream, false},
	} {
		read := field[int64]
		if f.req {
			read = required[int64]
		}
		if err := read(v, f.key, path, f.dst, integer); err != nil {
			return seg, err
		}
		if f.key != "stream" {
			if err := nonNegative(*f.dst, path+"."+f.key); err != nil {
				return seg, err
			}
		}
	}
	if err := field(v, "segment_type", path, &seg.SegmentType, text); err != nil {
		return seg, err
	}
	var blocks []any
	if err := field(v, "blocks", path, &blocks, list); err != nil {
		return seg, err
	}
	addr := seg.Address
	for i, bv := range blocks {
		p := path + ".blocks[" + strconv.Itoa(i) + "]"
		var b Block
		if cb, ok := bv.(*Block); ok {
			b = *cb
			if b.Address < 0 { // no address recorded: after the previous block
				b.Address = addr
			}
		} else {
			if err := w.spend(p); err != nil {
				return seg, err
			}
			var err error
			if b, err = convertBlockAt(bv, p, addr); err != nil {
				return seg, err
			}
		}
		seg.Blocks = append(seg.Blocks, b)
		addr = b.Address + b.Size
	}
	return seg, nil
}

// convertBlockAt converts a block dict. A block without an address
// follows the previous one: addr, or -1 as the decoder converts it
// (the segment fills it in).
func convertBlockAt(v any, p string, addr int64) (Block, error) {
	b := Block{Address: addr, RequestedSize: -1}
	if err := required(v, "size", p, &b.Size, integer); err != nil {
		return b, err
	}
	if err := field(v, "requested_size", p, &b.RequestedSize, integer); err != nil {
		return b, err
	}
	av, hasAddr, err := get(v, "address", p)
	if err != nil {
		return b, err
	}
	if hasAddr && av != nil {
		if b.Address, err = integer(av, p+".address"); err != nil {
			return b, err
		}
		if err := nonNegative(b.Address, p+".address"); err != nil {
			return b, err
		}
	}
	if err := required(v, "state", p, &b.State, text); err != nil {
		return b, err
	}
	if err := field(v, "frames", p, &b.Frame, blockFrame); err != nil {
		return b, err
	}
	if b.RequestedSize < 0 { // legacy snapshots: not recorded
		b.RequestedSize = b.Size
	}
	if err := nonNegative(b.Size, p+".size"); err != nil {
		return b, err
	}
	if err := nonNegative(b.RequestedSize, p+".requested_size"); err != nil {
		return b, err
	}
	return b, nil
}

// entryFields are a trace entry's values, read in one pass over its keys.
type entryFields struct {
	action, addr, size, stream, timeUS, deviceFree, frames any
	hasAction, hasAddr, hasSize, hasFrames                 bool
	dict                                                   any // for the note
}

func fieldsOf(v any, path string) (entryFields, error) {
	f := entryFields{dict: v}
	set := func(k string, val any) {
		switch k {
		case "action":
			f.action, f.hasAction = val, true
		case "addr":
			f.addr, f.hasAddr = val, true
		case "size":
			f.size, f.hasSize = val, true
		case "stream":
			f.stream = val
		case "time_us":
			f.timeUS = val
		case "device_free":
			f.deviceFree = val
		case "frames":
			f.frames, f.hasFrames = val, true
		}
	}
	switch d := v.(type) {
	case *dictV:
		if len(d.pairs) > maxDictKeys {
			return f, fmt.Errorf("%s: a dict of %d keys, more than any snapshot dict has (%d)", path, len(d.pairs), maxDictKeys)
		}
		for _, p := range d.pairs {
			if k, ok := p.k.(string); ok {
				if r, isNum := p.v.(numRef); isNum {
					// Read in place, not boxed: intField takes it.
					set(k, &d.nums[r])
					continue
				}
				set(k, p.v)
			}
		}
	case map[string]any:
		for _, k := range [...]string{"action", "addr", "size", "stream", "time_us", "device_free", "frames"} {
			if val, ok := d[k]; ok {
				set(k, val)
			}
		}
	default:
		return f, wrongType(path, "a dict", v)
	}
	return f, nil
}

func (w *walker) convertEvent(s *Snapshot, v any, path string) (Event, error) {
	if err := w.spend(path); err != nil {
		return Event{}, err
	}
	f, err := fieldsOf(v, path)
	if err != nil {
		return Event{}, err
	}
	e, fr, fv, err := eventOf(&f, path)
	if err != nil {
		return e, err
	}
	e.Frame = frameID(s, fr, fv, w.byContent, w.byID)
	e.Note = noteID(s, &e, f.dict)
	return e, nil
}

// fastEvent converts an entry as the decoder appends it; false when it
// does not convert (the walk then reports why, at its path).
func (d *decoder) fastEvent(dv *dictV) (Event, bool) {
	f, err := fieldsOf(dv, "")
	if err != nil {
		return Event{}, false
	}
	e, fr, fv, err := eventOf(&f, "")
	if err != nil {
		return Event{}, false
	}
	if l, ok := f.frames.(*listV); ok && l.mode == modeItems && !l.tuple && (fv != nil || fr == (Frame{})) {
		// The stack is read: keep only its top frame, for the entries
		// that share it.
		d.release(&l.cost)
		l.mode, l.items, l.top = modeReduced, nil, fv
		d.memo.replace(l.memo, l, topV{fv})
		d.releaseList(l)
	} else if ok && l.mode == modeReduced {
		d.releaseList(l)
	}
	e.Frame = frameID(d.snap, fr, fv, nil, d.byID())
	e.Note = noteID(d.snap, &e, dv)
	return e, true
}

func (d *decoder) byID() map[frameKey]int32 {
	if d.ids == nil {
		d.ids = map[frameKey]int32{}
	}
	return d.ids
}

// eventOf is the entry's Event and its top frame.
func eventOf(f *entryFields, path string) (Event, Frame, *frameV, error) {
	var e Event
	if !f.hasAction || f.action == nil {
		return e, Frame{}, nil, fmt.Errorf("%s.action: missing", path)
	}
	action, ok := f.action.(string)
	if !ok {
		var err error
		if action, err = text(f.action, path+".action"); err != nil {
			return e, Frame{}, nil, err
		}
	}
	e.Action = parseAction(action)
	need := false
	switch e.Action {
	case ActionAlloc, ActionFreeRequested, ActionFreeCompleted, ActionSegmentAlloc,
		ActionSegmentFree, ActionSegmentMap, ActionSegmentUnmap:
		need = true
	}
	var err error
	if e.Addr, err = intField(f.addr, need, path, "addr"); err != nil {
		return e, Frame{}, nil, err
	}
	if e.Size, err = intField(f.size, need, path, "size"); err != nil {
		return e, Frame{}, nil, err
	}
	// The paths are built only for an error: this runs for every entry.
	if e.Addr < 0 {
		return e, Frame{}, nil, nonNegative(e.Addr, path+".addr")
	}
	if e.Size < 0 {
		return e, Frame{}, nil, nonNegative(e.Size, path+".size")
	}
	if e.Stream, err = intField(f.stream, false, path, "stream"); err != nil {
		return e, Frame{}, nil, err
	}
	if e.TimeUS, err = intField(f.timeUS, false, path, "time_us"); err != nil {
		return e, Frame{}, nil, err
	}
	if e.DeviceFree, err = intField(f.deviceFree, false, path, "device_free"); err != nil {
		return e, Frame{}, nil, err
	}
	var fr Frame
	var fv *frameV
	if f.frames != nil {
		var err error
		if fr, fv, err = topFrameAt(f.frames, path, ".frames"); err != nil {
			return e, Frame{}, nil, err
		}
	}
	return e, fr, fv, nil
}

// intField reads an entry's integer field: absent or None is 0, or
// missing when need; the path is built only for an error.
func intField(v any, need bool, path, name string) (int64, error) {
	if n, ok := v.(int64); ok {
		return n, nil
	}
	if n, ok := v.(*int64); ok { // a dict's integer read in place (fieldsOf)
		return *n, nil
	}
	if v == nil {
		if need {
			return 0, fmt.Errorf("%s.%s: missing", path, name)
		}
		return 0, nil
	}
	return integer(v, path+"."+name)
}

// noteID keeps a marker's text in s.Notes and returns its index.
func noteID(s *Snapshot, e *Event, v any) int32 {
	if e.Action != ActionAnnotate && e.Action != ActionSnapshot {
		return 0
	}
	n := noteOf(v)
	if n == "" || s.noteBytes+len(n) > MaxNoteBytes {
		return 0
	}
	s.noteBytes += len(n)
	s.Notes = append(s.Notes, n)
	return int32(len(s.Notes) - 1)
}

// noteOf is an annotation's text: its user_metadata, or its name or
// stage, when they are strings (their shape differs across PyTorch
// versions, so anything else is left out rather than refused).
func noteOf(v any) string {
	for _, key := range []string{"user_metadata", "name", "stage"} {
		if val, ok, _ := get(v, key, ""); ok {
			if s, err := text(val, ""); err == nil && s != "" {
				return truncate(s, 64)
			}
			if d, ok2, _ := get(val, "name", ""); ok2 {
				if s, err := text(d, ""); err == nil && s != "" {
					return truncate(s, 64)
				}
			}
		}
	}
	return ""
}

// truncate cuts s to at most n bytes, dropping a rune the cut splits. The
// result is a copy, so a long shared string is not kept alive by it.
func truncate(s string, n int) string {
	if len(s) <= n {
		return strings.Clone(s)
	}
	return strings.ToValidUTF8(s[:n], "")
}
