package measure

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"headroom/measure/snapgen"
)

// FuzzReadSnapshot: any input is read, refused with an error, or analyzed;
// never a panic.
func FuzzReadSnapshot(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "snapshots", "*"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("cos\nsystem\n(S'echo hi'\ntR."))
	f.Add([]byte("\x80\x04\x8a\x00."))
	for _, asJSON := range []bool{false, true} {
		var buf bytes.Buffer
		if _, err := snapgen.Write(&buf, snapgen.Options{Seed: 5, Allocs: 12, Depth: 3, CallSites: 4, AnnotateEvery: 5, OOMAt: 7, JSON: asJSON}); err == nil {
			f.Add(buf.Bytes())
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadSnapshot(bytes.NewReader(data), ReadOptions{MaxBytes: 1 << 20})
		if err != nil {
			return
		}
		devs, err := Analyze(s, 16)
		if err != nil {
			return
		}
		for i := range devs {
			if devs[i].History && devs[i].PeakBytes < devs[i].InitialBytes {
				t.Fatalf("peak %d below the initial %d", devs[i].PeakBytes, devs[i].InitialBytes)
			}
		}
	})
}

// FuzzParseReport: a report is accepted or refused with its file name.
func FuzzParseReport(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "reports", "*.json"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseReport("f.json", data)
		if err == nil && r.ID == "" {
			t.Fatal("accepted a report without an id")
		}
	})
}
