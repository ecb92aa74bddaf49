package measured

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"

	"headroom/app/chart"
	"headroom/app/report"
	"headroom/estimator"
	"headroom/measure"
)

// The measured truth on the page: a PyTorch memory snapshot or ART's
// planner-miss reports dropped on (or picked in) the Observed peaks
// panel. This file is the panel's model, plain Go: the slices a snapshot
// is fed to its reader in, what the reader makes of them, and what the
// panel shows of it. panel.go is the component.

// The page's limits. A snapshot is read twice, front to back, by
// measure.AnalyzeStream, which holds no trace: the page keeps the
// segments, the blocks live at once and the result, not the 56 bytes an
// entry the trace would be (840 MB at 1 GiB, more than the page's one
// WebAssembly heap takes comfortably). Past maxSnapshotBytes it points to
// the command line, which takes 2 GiB.
const (
	maxSnapshotBytes = 1 << 30
	sliceBytes       = 256 << 10 // a snapshot is read, and decoded, a slice at a time
	maxReportFiles   = 256
	timelineW        = 720
	timelineH        = 300
)

// snapshotHint points a snapshot past the page's limit to the command line.
const snapshotHint = "read it with the command line instead: headroom measure -snapshot FILE -config CONFIG.json -format md " +
	"(the page's JSON export is a config it reads)"

// errCancelled is a read the user cancelled.
var errCancelled = errors.New("cancelled")

// sliceFeed is an io.Reader over slices pushed from the UI goroutine as
// the browser reads them, for a reader running in its own goroutine. In
// WebAssembly there is one thread: the reader decodes the slices it has,
// then waits for the next, and while it waits the browser paints and
// takes input (a click on Cancel among them). A slice is never copied.
type sliceFeed struct {
	ch       chan []byte
	quit     chan struct{} // closed when the reader is done: pushes stop waiting
	cur      []byte
	consumed atomic.Int64

	mu     sync.Mutex
	closed bool
	end    error // what Read returns after the last slice: io.EOF, errCancelled, a read error
	once   sync.Once
}

func newSliceFeed() *sliceFeed {
	return &sliceFeed{ch: make(chan []byte, 1), quit: make(chan struct{})}
}

// Read implements io.Reader for the reader's goroutine.
func (f *sliceFeed) Read(p []byte) (int, error) {
	for len(f.cur) == 0 {
		b, ok := <-f.ch
		if !ok {
			f.mu.Lock()
			defer f.mu.Unlock()
			return 0, f.end
		}
		f.cur = b
	}
	n := copy(p, f.cur)
	f.cur = f.cur[n:]
	f.consumed.Add(int64(n))
	return n, nil
}

// push hands the reader a slice; false when the feed is closed or the
// reader has stopped (it waits at most for the reader to take the
// slice before).
func (f *sliceFeed) push(b []byte) bool {
	f.mu.Lock()
	closed := f.closed
	f.mu.Unlock()
	if closed {
		return false
	}
	select {
	case f.ch <- b:
		return true
	case <-f.quit:
		return false
	}
}

// close ends the feed: the reader gets end once it has read every slice
// pushed (io.EOF), or at its next read (an error: the rest is dropped).
func (f *sliceFeed) close(end error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return
	}
	if end == nil {
		end = io.EOF
	}
	f.closed, f.end = true, end
	close(f.ch)
}

// done is the reader's: it has stopped reading.
func (f *sliceFeed) done() { f.once.Do(func() { close(f.quit) }) }

// snapshotRead is one snapshot read's feeds, one a pass, shared by the
// UI goroutine (stop) and the reader's (open, done): stop closes the feed
// of the pass being read, and a pass opened after it starts closed, so
// the reader never waits for slices that will not come, whether or not
// the UI goroutine still runs the panel's callbacks.
type snapshotRead struct {
	mu      sync.Mutex
	feed    *sliceFeed
	stopped error
}

// open is the next pass's feed; the pass before is over, so its pushes
// stop waiting.
func (r *snapshotRead) open() *sliceFeed {
	f := newSliceFeed()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.feed != nil {
		r.feed.done()
	}
	if r.stopped != nil {
		f.close(r.stopped)
	}
	r.feed = f
	return f
}

// stop ends the read: the reader gets end at its next read.
func (r *snapshotRead) stop(end error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped == nil {
		r.stopped = end
	}
	if r.feed != nil {
		r.feed.close(end)
	}
}

// done is the reader's: it has stopped reading.
func (r *snapshotRead) done() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.feed != nil {
		r.feed.done()
	}
}

// snapshotResult is a snapshot as read: its devices as
// measure.AnalyzeStream replays them.
type snapshotResult struct {
	File    string
	Format  string
	Devices []measure.DeviceReport
}

// readSnapshot reads and analyses a snapshot in two passes
// (measure.AnalyzeStream): open(1) and then open(2) each give the whole
// input from its first byte (the feeds, or any reader in a test). A panic
// becomes an error.
func readSnapshot(name string, open func(pass int) (io.Reader, error)) (res *snapshotResult, err error) {
	defer func() {
		if v := recover(); v != nil {
			res, err = nil, fmt.Errorf("reading the snapshot failed: %v", v)
		}
	}()
	a, err := measure.AnalyzeStream(open, measure.ReadOptions{MaxBytes: maxSnapshotBytes}, 0)
	if err != nil {
		return nil, err
	}
	return &snapshotResult{File: name, Format: a.Format, Devices: a.Devices}, nil
}

// looksLikeReport is true for the start of an ART planner-miss report:
// canonical JSON whose kind is art-planner-miss (its keys are sorted, so
// kind comes before the replay payload).
func looksLikeReport(head []byte) bool {
	t := bytes.TrimSpace(head)
	return len(t) > 0 && t[0] == '{' && bytes.Contains(t, []byte(`"kind":"art-planner-miss"`))
}

// checkSnapshotSize refuses a snapshot the page does not read.
func checkSnapshotSize(size int64) error {
	switch {
	case size <= 0:
		return errors.New("the file is empty; a snapshot is what torch.cuda.memory._dump_snapshot writes")
	case size > maxSnapshotBytes:
		return errors.New("the file has " + estimator.Group(size) + " bytes, more than the " + estimator.Group(maxSnapshotBytes) +
			" the page reads; " + snapshotHint)
	}
	return nil
}

// importReports validates reports read whole (measure.ImportReports):
// the first that breaks a rule refuses them all.
func importReports(names []string, raws [][]byte, inUse int64) (*measure.PlannerImport, error) {
	if len(raws) > maxReportFiles {
		return nil, fmt.Errorf("%d files: the page imports at most %d reports at a time", len(raws), maxReportFiles)
	}
	return measure.ImportReports(names, raws, inUse)
}

// deviceView is what the panel shows of one device, for one config.
type deviceView struct {
	Dev     *measure.DeviceReport
	Match   *[2]measure.RevisionMatch // nil: no history, or the config does not price
	MatchEr string
	SVG     string
	SVGErr  string
	// Priced names, by a live block's address, the tensor of the
	// candidate's best stage it was matched to.
	Priced map[int64]string
	Points []estimator.ObservedPoint
}

// snapshotViews compares each device of res with cfg (measure.Compare)
// and draws its timeline with both revisions' predicted peaks.
func snapshotViews(res *snapshotResult, cfg estimator.Config, ok bool) []deviceView {
	out := make([]deviceView, len(res.Devices))
	for i := range res.Devices {
		d := &res.Devices[i]
		v := deviceView{Dev: d, Priced: map[int64]string{}}
		tl := timelineOf(d)
		if d.History && ok {
			m, err := measure.Compare(cfg, d)
			if err != nil {
				v.MatchEr = err.Error()
			} else {
				v.Match = &m
				tl.Predicted = [2]int64{m[0].PredictedBytes, m[1].PredictedBytes}
				for _, t := range m[1].Best.Tensors {
					if t.Found {
						v.Priced[t.Addr] = t.Name + " (" + m[1].Best.Stage + ")"
					}
				}
				v.Points = measure.ObservedPoints(d, m[1].Rows)
				report.WindowRows(cfg, v.Points)
			}
		}
		if d.History && len(tl.Points) > 0 {
			// Named by its figure's caption, as the chart is.
			svg, err := chart.TimelineSVG(tl, timelineW, timelineH, chart.LabelledBy("measured-caption-"+strconv.Itoa(i)))
			v.SVG = string(svg)
			if err != nil {
				v.SVGErr = err.Error()
			}
		}
		out[i] = v
	}
	return out
}

// timelineOf is the chart's input for a device.
func timelineOf(d *measure.DeviceReport) chart.Timeline {
	t := chart.Timeline{Peak: chart.TimelinePoint{Event: d.PeakEvent, TimeUS: d.PeakTimeUS, Bytes: d.PeakBytes}}
	for _, p := range d.Timeline {
		t.Points = append(t.Points, chart.TimelinePoint{Event: p.Event, TimeUS: p.TimeUS, Bytes: p.Bytes})
	}
	for _, w := range d.Windows {
		t.Windows = append(t.Windows, chart.TimelinePoint{Event: w.PeakEvent, TimeUS: w.PeakTimeUS, Bytes: w.PeakBytes, Label: w.Label})
	}
	return t
}

// profileOfPoints is the learned profile ART would hold after measuring
// points (docs/model.md §13.7): its running maxima of (peak - baseline -
// outputs) / packed tokens, rounded up as measure.ImportReports rounds
// it, and of packed tokens. Modelled as: the baseline is the config's
// in_use_bytes, the outputs are 0 (a snapshot does not say which blocks
// are the outputs), and a point's rows are its packed tokens. Nil
// without points.
func profileOfPoints(points []estimator.ObservedPoint, inUse int64) *measure.LearnedProfile {
	if len(points) == 0 {
		return nil
	}
	var p measure.LearnedProfile
	for _, pt := range points {
		p.Add(pt.PeakBytes-inUse, pt.Rows)
	}
	return &p
}

// profileJSON is a learned profile as profile_memory's JSON, the
// EditProfile's text.
func profileJSON(p *measure.LearnedProfile) string {
	if p == nil {
		return ""
	}
	data, err := p.ProfileMemory()
	if err != nil { // two integers and a pointer to one: it cannot fail
		return ""
	}
	return string(data)
}
