package measure

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"headroom/measure/snapgen"
)

// randomSnapshot is a snapshot with the cases a replay can get wrong: a
// few addresses reused (double frees, allocations over live blocks, frees
// of blocks from before the trace), traces with and without
// free_requested (and free_completed before the first of them), segment
// entries, markers with and without text, ooms, segments at the end with
// allocated blocks the trace did and did not allocate.
func randomSnapshot(rng *rand.Rand) *Snapshot {
	s := &Snapshot{Frames: []Frame{{}, {Filename: "a.py", Line: 1, Name: "f"}, {Filename: "b.py", Line: 2, Name: "g"}}, Notes: []string{"", "step 1", "child 0"}, History: rng.Intn(8) > 0}
	devices := 1 + rng.Intn(3)
	addrs := 4 + rng.Intn(40)
	const base = 1 << 30
	for d := 0; d < devices; d++ {
		n := rng.Intn(400)
		if rng.Intn(6) == 0 {
			n = 0
		}
		withFR := rng.Intn(3) > 0
		frFrom := 0
		if withFR && rng.Intn(3) == 0 {
			frFrom = rng.Intn(n + 1)
		}
		var tr []Event
		for i := 0; i < n; i++ {
			e := Event{Addr: base + int64(d)<<24 + int64(rng.Intn(addrs))*4096, Size: int64(rng.Intn(5000)), TimeUS: int64(i * 10), Frame: int32(rng.Intn(3))}
			switch k := rng.Intn(20); {
			case k < 8:
				e.Action = ActionAlloc
			case k < 12:
				e.Action = ActionFreeRequested
				if !withFR || i < frFrom {
					e.Action = ActionFreeCompleted
				}
			case k < 15:
				e.Action = ActionFreeCompleted
			case k < 16:
				e.Action = []Action{ActionSegmentAlloc, ActionSegmentFree, ActionSegmentMap, ActionSegmentUnmap}[rng.Intn(4)]
				e.Addr = base + int64(d)<<24 + int64(rng.Intn(4))<<20
				e.Size = 1 << 20
			case k < 18:
				e.Action = []Action{ActionSnapshot, ActionAnnotate}[rng.Intn(2)]
				e.Note = int32(rng.Intn(3))
			case k < 19:
				e.Action = ActionOOM
				e.DeviceFree = int64(rng.Intn(1 << 20))
			default:
				e.Action = ActionOther
			}
			tr = append(tr, e)
		}
		s.Traces = append(s.Traces, tr)
		if rng.Intn(4) == 0 {
			continue
		}
		for g := 0; g < 1+rng.Intn(3); g++ {
			seg := Segment{Device: int64(d), Address: base + int64(d)<<24 + int64(g)<<20, TotalSize: 1 << 20}
			at := seg.Address
			for at < seg.Address+seg.TotalSize {
				size := int64(512 * (1 + rng.Intn(64)))
				size = min(size, seg.Address+seg.TotalSize-at)
				b := Block{Address: at, Size: size, RequestedSize: size - int64(rng.Intn(2)*100), State: []string{"active_allocated", "inactive", "active_awaiting_free"}[rng.Intn(3)], Frame: s.Frames[rng.Intn(3)]}
				if b.RequestedSize < 0 {
					b.RequestedSize = 0
				}
				seg.Blocks = append(seg.Blocks, b)
				at += size
			}
			s.Segments = append(s.Segments, seg)
		}
	}
	return s
}

// TestReplayMatchesOracle: the two-pass replay gives, for random traces,
// exactly what the replay over a trace held whole gives (the oracle),
// errors included; with the peak's log kept short, so that the live set
// at the peak is also made from a copy.
func TestReplayMatchesOracle(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(7))
	copies := 0
	for k := 0; k < 3000; k++ {
		s := randomSnapshot(rng)
		want, werr := oracleAnalyze(s, 64)
		for _, logMin := range []int{1 << 16, 1} {
			a := newAnalysis(64)
			a.logMin = logMin
			got, gerr := a.run(s)
			if fmt.Sprint(gerr) != fmt.Sprint(werr) {
				t.Fatalf("snapshot %d, log %d: error %v, the oracle's %v", k, logMin, gerr, werr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("snapshot %d, log %d: reports differ\n got %+v\nwant %+v", k, logMin, got, want)
			}
			for _, dv := range a.devs {
				if dv.rp != nil && dv.rp.atPeak != nil {
					copies++
				}
			}
		}
	}
	if copies == 0 {
		t.Fatal("no replay kept a copy of the peak's live set: the short log was not exercised")
	}
}

// readers opens the same bytes for each pass, counting the passes.
func readers(data []byte, passes *[]int) func(int) (io.Reader, error) {
	return func(pass int) (io.Reader, error) {
		*passes = append(*passes, pass)
		return bytes.NewReader(data), nil
	}
}

// TestAnalyzeStreamMatchesAnalyze: reading a generated snapshot twice
// without its trace gives what reading it whole gives, in both forms and
// gzipped, device for device.
func TestAnalyzeStreamMatchesAnalyze(t *testing.T) {
	t.Parallel()
	cases := []snapgen.Options{
		{Seed: 3, Devices: 2, Allocs: 3000, AnnotateEvery: 700, OOMAt: 1200},
		{Seed: 4, Devices: 1, Allocs: 5000, AnnotateEvery: 300, JSON: true},
		{Seed: 5, Devices: 3, Allocs: 800, OOMAt: 10},
	}
	for i, o := range cases {
		var buf bytes.Buffer
		if _, err := snapgen.Write(&buf, o); err != nil {
			t.Fatal(err)
		}
		for _, zipped := range []bool{false, true} {
			data := buf.Bytes()
			if zipped {
				var z bytes.Buffer
				zw := gzip.NewWriter(&z)
				zw.Write(data)
				zw.Close()
				data = z.Bytes()
			}
			s, err := ReadSnapshot(bytes.NewReader(data), ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want, err := Analyze(s, 0)
			if err != nil {
				t.Fatal(err)
			}
			oracle, err := oracleAnalyze(s, 0)
			if err != nil || !reflect.DeepEqual(want, oracle) {
				t.Fatalf("case %d: Analyze differs from the oracle (%v)", i, err)
			}
			var passes []int
			got, err := AnalyzeStream(readers(data, &passes), ReadOptions{}, 0)
			if err != nil {
				t.Fatalf("case %d gzip %v: %v", i, zipped, err)
			}
			if !reflect.DeepEqual(passes, []int{1, 2}) {
				t.Errorf("case %d: passes %v, want [1 2]", i, passes)
			}
			if got.Format != s.Format || got.History != s.History || !reflect.DeepEqual(got.Devices, want) {
				t.Fatalf("case %d gzip %v: the streamed analysis differs from Analyze", i, zipped)
			}
		}
	}
}

// TestAnalyzeStreamRefusesAsReadSnapshot: a file ReadSnapshot refuses,
// AnalyzeStream refuses with the same message, in its first pass.
func TestAnalyzeStreamRefusesAsReadSnapshot(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if _, err := snapgen.Write(&buf, snapgen.Options{Seed: 1, Allocs: 500}); err != nil {
		t.Fatal(err)
	}
	full := buf.Bytes()
	for _, data := range [][]byte{full[:len(full)/2], append([]byte("\x80\x04c"), full[3:]...), []byte("{\"segments\": 3}")} {
		_, want := ReadSnapshot(bytes.NewReader(data), ReadOptions{})
		var passes []int
		_, got := AnalyzeStream(readers(data, &passes), ReadOptions{}, 0)
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Errorf("ReadSnapshot: %v; AnalyzeStream: %v", want, got)
		}
		if len(passes) != 1 {
			t.Errorf("passes %v: a refused file is read once", passes)
		}
	}
}

// TestAnalyzeStreamFileChanged: a second read that differs from the
// first is refused, not replayed against the first's plan.
func TestAnalyzeStreamFileChanged(t *testing.T) {
	t.Parallel()
	var a, b bytes.Buffer
	snapgen.Write(&a, snapgen.Options{Seed: 1, Allocs: 500})
	snapgen.Write(&b, snapgen.Options{Seed: 1, Allocs: 400})
	open := func(pass int) (io.Reader, error) {
		if pass == 1 {
			return bytes.NewReader(a.Bytes()), nil
		}
		return bytes.NewReader(b.Bytes()), nil
	}
	_, err := AnalyzeStream(open, ReadOptions{}, 0)
	if err == nil || !strings.Contains(err.Error(), "changed") {
		t.Fatalf("err %v, want the file changed", err)
	}
	stop := errors.New("cancelled")
	_, err = AnalyzeStream(func(pass int) (io.Reader, error) {
		if pass == 2 {
			return nil, stop
		}
		return bytes.NewReader(a.Bytes()), nil
	}, ReadOptions{}, 0)
	if !errors.Is(err, stop) {
		t.Fatalf("err %v, want the second open's error", err)
	}
}

// TestTrackedBlocksBound: a trace that keeps more blocks live than the
// bound is refused, the same way held whole or streamed; one just under
// it is read.
func TestTrackedBlocksBound(t *testing.T) {
	t.Parallel()
	s := &Snapshot{Frames: []Frame{{}}, Notes: []string{""}, History: true}
	var tr []Event
	for i := 0; i < 100; i++ {
		tr = append(tr, Event{Action: ActionAlloc, Addr: int64(i) * 512, Size: 512})
	}
	tr = append(tr, Event{Action: ActionFreeRequested, Addr: 0, Size: 512})
	s.Traces = [][]Event{tr}
	for _, limit := range []int{99, 100} {
		a := newAnalysis(0)
		a.one.t.limit, a.one.pre.limit, a.two.limit = limit, limit, limit
		_, err := a.run(s)
		if (err != nil) != (limit < 100) {
			t.Errorf("limit %d: err %v", limit, err)
		}
	}
	// Without a free_requested before the bound, the free_requested
	// reading is given up, and refused only when one comes.
	a := newAnalysis(0)
	a.one.pre.limit = 50
	if _, err := a.run(s); err == nil || !strings.Contains(err.Error(), "first free_requested") {
		t.Errorf("err %v, want the late free_requested refused", err)
	}
	s.Traces[0][100].Action = ActionFreeCompleted
	a = newAnalysis(0)
	a.one.pre.limit = 50
	devs, err := a.run(s)
	if err != nil || devs[0].PeakBytes != 100*512 {
		t.Errorf("a trace without free_requested: %v, %+v", err, devs)
	}
}

// TestSharedTablesBound: past MaxTopFrames distinct top frames an entry
// is kept without its frame, and past MaxNoteBytes of marker texts a
// marker without its text; the entries themselves are all kept.
func TestSharedTablesBound(t *testing.T) {
	t.Parallel()
	s := newSnapshot()
	for i := 0; i < MaxTopFrames+10; i++ {
		f := Frame{Filename: "f.py", Line: int64(i + 1)}
		if id := frameID(s, f, nil, map[Frame]int32{}, nil); (id == 0) != (i >= MaxTopFrames) {
			t.Fatalf("frame %d: id %d", i, id)
		}
	}
	note := strings.Repeat("x", 64)
	kept := 0
	for i := 0; i < MaxNoteBytes/64+10; i++ {
		e := Event{Action: ActionAnnotate}
		if noteID(s, &e, map[string]any{"user_metadata": note}) != 0 {
			kept++
		}
	}
	if kept != MaxNoteBytes/64 {
		t.Fatalf("%d notes kept, want %d", kept, MaxNoteBytes/64)
	}
}
