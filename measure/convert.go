package measure

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/nlpodyssey/gopickle/types"
)

// The conversion reads both decoded forms: gopickle's values and
// encoding/json's (map[string]any, []any, json.Number).

func typeName(v any) string {
	switch v := v.(type) {
	case nil:
		return "None"
	case *types.Dict, map[string]any:
		return "a dict"
	case *types.List, []any:
		return "a list"
	case *types.Tuple:
		return "a tuple"
	case string:
		return "a string"
	case []byte:
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
	case int, int64, *big.Int:
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

// get returns key's value in a dict (the last one, as Python keeps the
// last of repeated keys), whether it is there, or an error when v is not a
// dict.
func get(v any, key, path string) (any, bool, error) {
	switch d := v.(type) {
	case *types.Dict:
		if len(*d) > maxDictKeys {
			return nil, false, fmt.Errorf("%s: a dict of %d keys, more than any snapshot dict has (%d)", path, len(*d), maxDictKeys)
		}
		var val any
		found := false
		for _, e := range *d {
			if k, ok := e.Key.(string); ok && k == key {
				val, found = e.Value, true
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
	case *types.List:
		return *l, nil
	case *types.Tuple:
		return *l, nil
	case []any:
		return l, nil
	}
	return nil, wrongType(path, "a list", v)
}

func integer(v any, path string) (int64, error) {
	switch n := v.(type) {
	case int:
		return int64(n), nil
	case int64:
		return n, nil
	case *big.Int:
		if n.IsInt64() {
			return n.Int64(), nil
		}
		return 0, fmt.Errorf("%s: %s does not fit in 64 bits", path, n)
	case json.Number:
		var b big.Int
		if _, ok := b.SetString(string(n), 10); ok {
			return integer(&b, path)
		}
	}
	return 0, wrongType(path, "an integer", v)
}

func text(v any, path string) (string, error) {
	switch s := v.(type) {
	case string:
		return s, nil
	case []byte:
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

// topFrame picks the frame a table shows for a stack: the first (innermost)
// frame of a Python file among the first 256, since the C++ frames above
// it are the allocator's own; the first frame when none is Python; none
// for an empty stack (a block allocated before recording began).
func topFrame(v any, path string) (Frame, error) {
	frames, err := list(v, path)
	if err != nil || len(frames) == 0 {
		return Frame{}, err
	}
	pick := -1
	for i, f := range frames[:min(len(frames), maxFramesScanned)] {
		var name string
		if err := field(f, "filename", fmt.Sprintf("%s[%d]", path, i), &name, text); err != nil {
			return Frame{}, err
		}
		if strings.HasSuffix(name, ".py") {
			pick = i
			break
		}
	}
	if pick < 0 {
		pick = 0
	}
	p := fmt.Sprintf("%s[%d]", path, pick)
	var fr Frame
	if err := field(frames[pick], "filename", p, &fr.Filename, text); err != nil {
		return Frame{}, err
	}
	if err := field(frames[pick], "line", p, &fr.Line, integer); err != nil {
		return Frame{}, err
	}
	if err := field(frames[pick], "name", p, &fr.Name, text); err != nil {
		return Frame{}, err
	}
	return fr, nil
}

// walker counts the conversion's work against a budget.
type walker struct{ left int64 }

func (w *walker) spend(path string) error {
	if w.left--; w.left < 0 {
		return fmt.Errorf("%s: the pickle refers to the same objects more times than its size allows (a memo bomb?)", path)
	}
	return nil
}

// convertSnapshot reads the decoded dictionary, converting at most budget
// segments, blocks and entries.
func convertSnapshot(tree any, budget int64) (*Snapshot, error) {
	w := &walker{left: budget}
	const root = "snapshot"
	segs, ok, err := get(tree, "segments", root)
	if err != nil {
		return nil, fmt.Errorf("%v: a memory snapshot is a dict with segments and device_traces", err)
	}
	s := &Snapshot{}
	if !ok {
		return nil, errors.New("snapshot.segments: missing: not a memory snapshot (torch.cuda.memory._snapshot() has segments and device_traces)")
	}
	segList, err := list(segs, "segments")
	if err != nil {
		return nil, err
	}
	for i, sv := range segList {
		seg, err := w.convertSegment(sv, fmt.Sprintf("segments[%d]", i))
		if err != nil {
			return nil, err
		}
		s.Segments = append(s.Segments, seg)
	}
	traces, ok, _ := get(tree, "device_traces", root)
	if !ok || traces == nil {
		return s, nil
	}
	s.History = true
	devs, err := list(traces, "device_traces")
	if err != nil {
		return nil, err
	}
	for d, tv := range devs {
		entries, err := list(tv, fmt.Sprintf("device_traces[%d]", d))
		if err != nil {
			return nil, err
		}
		trace := make([]Event, 0, len(entries))
		for i, ev := range entries {
			e, err := w.convertEvent(ev, fmt.Sprintf("device_traces[%d][%d]", d, i))
			if err != nil {
				return nil, err
			}
			trace = append(trace, e)
			// The decoded entry is garbage once converted: letting go of
			// it here keeps the decoded tree and the trace from both
			// being whole in memory at once.
			entries[i] = nil
		}
		s.Traces = append(s.Traces, trace)
	}
	return s, nil
}

func (w *walker) convertSegment(v any, path string) (Segment, error) {
	var seg Segment
	if err := w.spend(path); err != nil {
		return seg, err
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
		p := fmt.Sprintf("%s.blocks[%d]", path, i)
		if err := w.spend(p); err != nil {
			return seg, err
		}
		b := Block{Address: addr, RequestedSize: -1}
		if err := required(bv, "size", p, &b.Size, integer); err != nil {
			return seg, err
		}
		if err := field(bv, "requested_size", p, &b.RequestedSize, integer); err != nil {
			return seg, err
		}
		if err := field(bv, "address", p, &b.Address, integer); err != nil {
			return seg, err
		}
		if err := required(bv, "state", p, &b.State, text); err != nil {
			return seg, err
		}
		if err := field(bv, "frames", p, &b.Frame, topFrame); err != nil {
			return seg, err
		}
		if b.RequestedSize < 0 { // legacy snapshots: not recorded
			b.RequestedSize = b.Size
		}
		for _, n := range []struct {
			v    int64
			name string
		}{{b.Size, "size"}, {b.RequestedSize, "requested_size"}, {b.Address, "address"}} {
			if err := nonNegative(n.v, p+"."+n.name); err != nil {
				return seg, err
			}
		}
		seg.Blocks = append(seg.Blocks, b)
		addr = b.Address + b.Size
	}
	return seg, nil
}

func (w *walker) convertEvent(v any, path string) (Event, error) {
	var e Event
	if err := w.spend(path); err != nil {
		return e, err
	}
	var action string
	if err := required(v, "action", path, &action, text); err != nil {
		return e, err
	}
	e.Action = parseAction(action)
	switch e.Action {
	case ActionAlloc, ActionFreeRequested, ActionFreeCompleted, ActionSegmentAlloc,
		ActionSegmentFree, ActionSegmentMap, ActionSegmentUnmap:
		if err := required(v, "addr", path, &e.Addr, integer); err != nil {
			return e, err
		}
		if err := required(v, "size", path, &e.Size, integer); err != nil {
			return e, err
		}
	default:
		if err := field(v, "addr", path, &e.Addr, integer); err != nil {
			return e, err
		}
		if err := field(v, "size", path, &e.Size, integer); err != nil {
			return e, err
		}
	}
	if err := nonNegative(e.Addr, path+".addr"); err != nil {
		return e, err
	}
	if err := nonNegative(e.Size, path+".size"); err != nil {
		return e, err
	}
	if err := field(v, "stream", path, &e.Stream, integer); err != nil {
		return e, err
	}
	if err := field(v, "time_us", path, &e.TimeUS, integer); err != nil {
		return e, err
	}
	if err := field(v, "device_free", path, &e.DeviceFree, integer); err != nil {
		return e, err
	}
	if err := field(v, "frames", path, &e.Frame, topFrame); err != nil {
		return e, err
	}
	if e.Action == ActionAnnotate || e.Action == ActionSnapshot {
		e.Note = noteOf(v)
	}
	return e, nil
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

// truncate cuts s to at most n bytes, dropping a rune the cut splits.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}
