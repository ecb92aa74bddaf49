package measure

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBadSnapshots(t *testing.T) {
	t.Parallel()
	head, err := os.ReadFile(filepath.Join("testdata", "snapshots", "head.pickle"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		data  string
		limit int64
		want  string // a part of the error
		is    error
	}{
		{name: "empty file", data: "", want: "empty file"},
		{name: "truncated pickle", data: string(head[:len(head)/2]), want: "truncated"},
		{name: "truncated in an argument", data: "\x80\x04\x8c\x10abc", want: "truncated in SHORT_BINUNICODE"},
		{name: "GLOBAL and REDUCE (os.system)", data: "cos\nsystem\n(S'echo hi'\ntR.", want: "byte 0: opcode GLOBAL", is: ErrGlobal},
		{name: "STACK_GLOBAL (OrderedDict)", data: "\x80\x04\x8c\x0bcollections\x94\x8c\x0bOrderedDict\x94\x93\x94)R\x94.", want: "opcode STACK_GLOBAL", is: ErrGlobal},
		{name: "a set", data: "\x80\x04\x8f.", want: "opcode EMPTY_SET", is: ErrGlobal},
		{name: "persistent id", data: "\x80\x04K\x01Q.", want: "opcode BINPERSID", is: ErrGlobal},
		{name: "unknown opcode", data: "\x80\x04\xff.", want: "unknown opcode 0xff"},
		{name: "declared exabyte string", data: "\x80\x04\x8d\x00\x00\x00\x00\x00\x00\x00\x01", want: "BINUNICODE8 of 72057594037927936 bytes"},
		{name: "over the byte limit", data: string(head), limit: 100, want: "more than 100 bytes", is: ErrTooLarge},
		{name: "json over the byte limit", data: `{"segments": [], "device_traces": [[]]}`, limit: 10, is: ErrTooLarge},
		{name: "a list, not a dict", data: "\x80\x04]\x94.", want: "snapshot: want a dict, got a list"},
		{name: "no segments", data: `{"device_traces": []}`, want: "snapshot.segments: missing"},
		{name: "segments not a list", data: `{"segments": "none"}`, want: "segments: want a list, got a string"},
		{name: "address as a string", data: `{"segments": [], "device_traces": [[{"action": "alloc", "addr": "0x10", "size": 5}]]}`, want: "device_traces[0][0].addr: want an integer, got a string"},
		{name: "size as a float", data: `{"segments": [], "device_traces": [[{"action": "alloc", "addr": 16, "size": 5.0}]]}`, want: "device_traces[0][0].size: want an integer, got a float"},
		{name: "negative size", data: `{"segments": [{"address": 0, "total_size": 10, "blocks": [{"size": -1, "state": "inactive"}]}]}`, want: "segments[0].blocks[0].size: must be >= 0"},
		{name: "address past 64 bits", data: `{"segments": [], "device_traces": [[{"action": "alloc", "addr": 18446744073709551616, "size": 5}]]}`, want: "does not fit in 64 bits"},
		{name: "frames not a list", data: `{"segments": [], "device_traces": [[{"action": "alloc", "addr": 1, "size": 5, "frames": 3}]]}`, want: "device_traces[0][0].frames: want a list"},
		{name: "alloc without addr", data: `{"segments": [], "device_traces": [[{"action": "alloc", "size": 5}]]}`, want: "device_traces[0][0].addr: missing"},
		{name: "nothing to measure", data: `{"segments": [], "device_traces": [[], []]}`, want: "empty snapshot"},
		{name: "not json", data: `{"segments": [}`, want: "json:"},
		{name: "overlapping segments", data: `{"segments": [{"address": 0, "total_size": 4096, "blocks": []}, {"address": 2048, "total_size": 4096, "blocks": []}]}`, want: "segments: device 0: the segment at 0x0 (4096 bytes) overlaps the one at 0x800"},
		{name: "a free completed before it is requested", data: `{"segments": [], "device_traces": [[{"action": "alloc", "addr": 512, "size": 5}, {"action": "free_completed", "addr": 512, "size": 5}, {"action": "free_requested", "addr": 512, "size": 5}]]}`, want: "device_traces[0][1]: free_completed of the block at 0x200 allocated at entry 0, before its free_requested"},
	}
	for _, c := range cases {
		s, err := ReadSnapshot(strings.NewReader(c.data), ReadOptions{MaxBytes: c.limit})
		if err == nil {
			_, err = Analyze(s, 0)
		}
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q, want it to contain %q", c.name, err, c.want)
		}
		if c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%s: error %q is not %v", c.name, err, c.is)
		}
	}
}

// TestLongOfNoBytes: LONG1 with no bytes is 0 (the decoder would index its
// last byte; the filter gives it BININT1 0).
func TestLongOfNoBytes(t *testing.T) {
	t.Parallel()
	data := "\x80\x02}(X\x08\x00\x00\x00segmentsX\x00\x00\x00\x00X\x0d\x00\x00\x00device_traces]]}(X\x06\x00\x00\x00actionX\x05\x00\x00\x00allocX\x04\x00\x00\x00addr\x8a\x00X\x04\x00\x00\x00sizeK\x07uaau."
	// segments is "" here: a type error, reached only if LONG1 decoded.
	_, err := ReadSnapshot(strings.NewReader(data), ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "segments: want a list, got a string") {
		t.Fatalf("err %v", err)
	}
	ok := strings.Replace(data, "X\x00\x00\x00\x00", "]", 1)
	s, err := ReadSnapshot(strings.NewReader(ok), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if e := s.Trace(0)[0]; e.Addr != 0 || e.Size != 7 || e.Action != ActionAlloc {
		t.Errorf("event %+v", e)
	}
}

// TestGzipAndFormats: the same snapshot read as pickle, JSON and gzip'd
// pickle analyzes the same.
func TestGzipAndFormats(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("testdata", "snapshots", "head.pickle"))
	if err != nil {
		t.Fatal(err)
	}
	var zbuf bytes.Buffer
	zw := gzipWriter(&zbuf)
	zw.Write(raw)
	zw.Close()
	s, err := ReadSnapshot(&zbuf, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := Analyze(s, 0)
	b := analyze(t, "head.json")
	if a[0].PeakBytes != b.PeakBytes || len(a[0].LiveAtPeak) != len(b.LiveAtPeak) || s.Format != "pickle" {
		t.Errorf("gzip'd pickle peak %d, json %d", a[0].PeakBytes, b.PeakBytes)
	}
}
