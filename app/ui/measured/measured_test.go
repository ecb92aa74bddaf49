package measured

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/app/ui/page"
	"headroom/estimator"
	"headroom/measure"
)

// headConfig is the config the generated snapshots were made for
// (measure/testdata/README.md): the defaults at 4,096 rows.
func headConfig() estimator.Config {
	c := estimator.Default()
	c.Request.Rows, c.Request.SequenceRows = 4096, 4096
	return c
}

// feedSlices reads data through a snapshotRead's feeds in slices of n
// bytes, the reader in its own goroutine as on the page: each pass the
// reader opens is fed from the first byte. cancelAfter >= 0 stops the
// read after that many slices, counted over both passes. It returns the
// passes opened too.
func feedSlices(t *testing.T, name string, data []byte, n int, cancelAfter int) (*snapshotResult, int, error) {
	t.Helper()
	run := &snapshotRead{}
	opened := make(chan *sliceFeed, 2)
	type out struct {
		res *snapshotResult
		err error
	}
	ch := make(chan out, 1)
	passes := 0
	go func() {
		res, err := readSnapshot(name, func(pass int) (io.Reader, error) {
			passes++
			f := run.open()
			opened <- f
			return f, nil
		})
		run.done()
		ch <- out{res, err}
	}()
	k := 0
	for {
		select {
		case o := <-ch:
			return o.res, passes, o.err
		case feed := <-opened:
			for i := 0; i < len(data); i, k = i+n, k+1 {
				if cancelAfter >= 0 && k == cancelAfter {
					run.stop(errCancelled)
					break
				}
				if !feed.push(data[i:min(len(data), i+n)]) {
					break
				}
			}
			feed.close(io.EOF)
		}
	}
}

// readFile reads the snapshot at path as the page does, in two passes.
func readFile(t *testing.T, name, path string) (*snapshotResult, error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return readSnapshot(name, func(int) (io.Reader, error) { return bytes.NewReader(data), nil })
}

// TestSliceFeedSnapshot: a snapshot fed in slices of any size reads as
// it does whole; a cancel, a truncated file and a pickle that calls a
// global end with an error, the reader never stuck.
func TestSliceFeedSnapshot(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../../measure/testdata/snapshots/head.pickle")
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open("../../../measure/testdata/snapshots/head.pickle")
	s, err := measure.ReadSnapshot(f, measure.ReadOptions{})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	want, err := measure.Analyze(s, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 7, 100, len(data)} {
		res, passes, err := feedSlices(t, "head.pickle", data, n, -1)
		if err != nil {
			t.Fatalf("slices of %d: %v", n, err)
		}
		if passes != 2 {
			t.Errorf("slices of %d: %d passes opened, want 2", n, passes)
		}
		if len(res.Devices) != len(want) || res.Devices[0].PeakBytes != want[0].PeakBytes || res.Format != "pickle" {
			t.Errorf("slices of %d: %+v, want the peak %d", n, res.Devices, want[0].PeakBytes)
		}
	}
	perPass := (len(data) + 99) / 100
	for _, after := range []int{3, perPass + 3} { // in the first pass, in the second
		if _, _, err := feedSlices(t, "head.pickle", data, 100, after); !errors.Is(err, errCancelled) {
			t.Errorf("cancelled after %d slices of 100 bytes (%d a pass): %v", after, perPass, err)
		}
	}
	if _, _, err := feedSlices(t, "cut.pickle", data[:len(data)/2], 64, -1); err == nil {
		t.Error("a truncated pickle read")
	}
	evil := []byte("cos\nsystem\n(S'echo hi'\ntR.")
	if _, _, err := feedSlices(t, "evil.pickle", evil, 4, -1); err == nil || !errors.Is(err, measure.ErrGlobal) {
		t.Errorf("a pickle calling a global: %v", err)
	}
}

// TestSnapshotReadStop: a read stopped between two passes ends the next
// pass at its first read, so the reader never waits for slices that will
// not come.
func TestSnapshotReadStop(t *testing.T) {
	t.Parallel()
	run := &snapshotRead{}
	first := run.open()
	run.stop(errCancelled)
	if _, err := first.Read(make([]byte, 8)); !errors.Is(err, errCancelled) {
		t.Errorf("the pass being read when stopped: %v", err)
	}
	second := run.open()
	if _, err := second.Read(make([]byte, 8)); !errors.Is(err, errCancelled) {
		t.Errorf("a pass opened after the stop: %v", err)
	}
	if second.push([]byte("x")) {
		t.Error("a pass opened after the stop takes slices")
	}
	run.done()
}

// TestSnapshotViews: the head snapshot beside the defaults at 4,096 rows:
// the peak, both revisions' predictions, the timeline drawn with them,
// the head's tensors found among the live blocks, the points at the
// candidate's rows, and a learned profile from them.
func TestSnapshotViews(t *testing.T) {
	t.Parallel()
	res, err := readFile(t, "head.pickle", "../../../measure/testdata/snapshots/head.pickle")
	if err != nil {
		t.Fatal(err)
	}
	cfg := headConfig()
	views := snapshotViews(res, cfg, true)
	if len(views) != 1 {
		t.Fatalf("%d devices", len(views))
	}
	v := views[0]
	if v.Match == nil || v.SVG == "" || v.SVGErr != "" {
		t.Fatalf("match %v, svg %d bytes, error %q", v.Match, len(v.SVG), v.SVGErr)
	}
	m, err := measure.Compare(cfg, v.Dev)
	if err != nil {
		t.Fatal(err)
	}
	for k := range m {
		if v.Match[k].PredictedBytes != m[k].PredictedBytes || v.Match[k].Best.Summary != m[k].Best.Summary {
			t.Errorf("revision %d: %+v, want %+v", k, v.Match[k], m[k])
		}
	}
	if !strings.Contains(v.SVG, "candidate predicted peak") || !strings.Contains(v.SVG, "peak ") {
		t.Error("the timeline has no prediction or no peak")
	}
	if len(v.Priced) == 0 {
		t.Error("no live block matched a priced tensor")
	}
	want := measure.ObservedPoints(v.Dev, m[1].Rows)
	if len(v.Points) != len(want) || len(want) == 0 || v.Points[0] != want[0] {
		t.Errorf("points %+v, want %+v", v.Points, want)
	}
	prof := profileOfPoints(v.Points, cfg.Budget.InUseBytes)
	if prof == nil || prof.PackedTokens != m[1].Rows {
		t.Fatalf("profile %+v", prof)
	}
	if _, err := page.WithProfileMemory(cfg, profileJSON(prof), true); err != nil {
		t.Errorf("the learned profile does not apply: %v", err)
	}
	// Without a config the device is shown, not compared.
	if v := snapshotViews(res, cfg, false)[0]; v.Match != nil || v.SVG == "" {
		t.Errorf("not ready: match %v, svg %d bytes", v.Match, len(v.SVG))
	}
}

// TestProfileOfPoints: ART's running maxima, rounded up; a peak below
// the baseline learns 0.
func TestProfileOfPoints(t *testing.T) {
	t.Parallel()
	if profileOfPoints(nil, 0) != nil {
		t.Error("a profile without points")
	}
	p := profileOfPoints([]estimator.ObservedPoint{{Rows: 10, PeakBytes: 1101}, {Rows: 4, PeakBytes: 1200}, {Rows: 20, PeakBytes: 50}}, 100)
	if p.BytesPerToken != 275 || p.PackedTokens != 20 {
		t.Errorf("got %+v, want 275 bytes a token, 20 tokens", p)
	}
	if got := profileJSON(p); got != `{"bytes_per_token":275,"packed_tokens":20}` {
		t.Errorf("JSON %s", got)
	}
}

// TestMeasuredInputs: what is a report, what size a snapshot may have,
// and the generated reports imported together.
func TestMeasuredInputs(t *testing.T) {
	t.Parallel()
	dir := "../../../measure/testdata/reports"
	names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	var raws [][]byte
	var base []string
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if !looksLikeReport(b) {
			t.Errorf("%s does not look like a report", n)
		}
		raws, base = append(raws, b), append(base, filepath.Base(n))
	}
	js, _ := os.ReadFile("../../../measure/testdata/snapshots/head.json")
	pk, _ := os.ReadFile("../../../measure/testdata/snapshots/head.pickle")
	if looksLikeReport(js) || looksLikeReport(pk) {
		t.Error("a snapshot looks like a report")
	}
	imp, err := importReports(base, raws, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Comparisons) == 0 || len(imp.Points) == 0 || imp.Profile == nil {
		t.Errorf("imported %+v", imp)
	}
	bad, _ := os.ReadFile(filepath.Join(dir, "bad", mustFirst(t, filepath.Join(dir, "bad", "*.json"))))
	if _, err := importReports([]string{"bad.json"}, [][]byte{bad}, 0); err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Errorf("a bad report: %v", err)
	}
	for _, size := range []int64{0, maxSnapshotBytes + 1} {
		if checkSnapshotSize(size) == nil {
			t.Errorf("a snapshot of %d bytes is read", size)
		}
	}
	if !strings.Contains(checkSnapshotSize(maxSnapshotBytes+1).Error(), "headroom measure -snapshot") {
		t.Error("a snapshot too big is not pointed to the command line")
	}
}

func mustFirst(t *testing.T, glob string) string {
	t.Helper()
	m, _ := filepath.Glob(glob)
	if len(m) == 0 {
		t.Fatalf("nothing matches %s", glob)
	}
	return filepath.Base(m[0])
}

// TestSnapshotViewsWithoutHistory: a snapshot recorded without history
// (segments only) and one with an empty trace show their note, no chart,
// no comparison and no point.
func TestSnapshotViewsWithoutHistory(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"nohistory.pickle", "emptytrace.pickle"} {
		res, err := readFile(t, name, "../../../measure/testdata/snapshots/"+name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, v := range snapshotViews(res, headConfig(), true) {
			if v.Dev.History && name == "nohistory.pickle" {
				t.Errorf("%s: history", name)
			}
			if v.Match != nil && !v.Dev.History || len(v.Points) != 0 || v.Dev.PeakBytes != 0 && !v.Dev.History {
				t.Errorf("%s: %+v", name, v)
			}
			if !v.Dev.History && v.Dev.Note == "" {
				t.Errorf("%s: no note says why there is no peak", name)
			}
		}
	}
}
