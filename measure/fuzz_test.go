package measure

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"headroom/measure/snapgen"
)

// FuzzReadSnapshot: any input is read, refused with an error, or analyzed;
// never a panic. Read twice without its trace (AnalyzeStream), it gives
// the same reports or the same error.
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
	f.Add([]byte(`{"segments":` + strings.Repeat("[", 10_001)))
	f.Fuzz(func(t *testing.T, data []byte) {
		opt := ReadOptions{MaxBytes: 1 << 20}
		streamed, serr := AnalyzeStream(func(int) (io.Reader, error) { return bytes.NewReader(data), nil }, opt, 16)
		s, err := ReadSnapshot(bytes.NewReader(data), opt)
		var devs []DeviceReport
		if err == nil {
			devs, err = Analyze(s, 16)
		}
		if fmt.Sprint(err) != fmt.Sprint(serr) {
			t.Fatalf("read whole: %v; streamed: %v", err, serr)
		}
		if err != nil {
			return
		}
		if !reflect.DeepEqual(devs, streamed.Devices) {
			t.Fatalf("the streamed reports differ from the whole read's")
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
	// Each key of the formats left out in turn, and the bounds of nesting
	// and digits at and one past them: a plain go test runs them.
	if good, err := os.ReadFile(filepath.Join("testdata", "reports", "miss-forward-a.json")); err == nil {
		for _, k := range append(append([]string(nil), reportKeys...), formatTwoKeys...) {
			f.Add(bytes.Replace(good, []byte(`"`+k+`":`), []byte(`"`+k+`_":`), 1))
		}
		for _, n := range []int{MaxIntDigits, MaxIntDigits + 1} {
			f.Add(bytes.Replace(good, []byte(`"rank":0`), []byte(`"rank":1`+strings.Repeat("0", n-1)), 1))
		}
		for _, d := range []int{MaxJSONDepth - 2, MaxJSONDepth - 1} { // inside the report and its replay: 1,000 and 1,001 deep
			f.Add(bytes.Replace(good, []byte(`"rank":0`), []byte(`"rank":`+strings.Repeat("[", d)+strings.Repeat("]", d)), 1))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseReport("f.json", data)
		if err == nil && r.ID == "" {
			t.Fatal("accepted a report without an id")
		}
	})
}
