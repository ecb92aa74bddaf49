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
	"headroom/estimator"
	"headroom/measure"
)

// The measured truth on the page: a PyTorch memory snapshot or ART's
// planner-miss reports dropped on (or picked in) the Observed peaks
// panel. This file is the panel's model, plain Go: the slices a snapshot
// is fed to its reader in, what the reader makes of them, and what the
// panel shows of it. panel.go is the component.

// The page's limits. A snapshot is read as a stream into a result of
// about half its size (measure's doc.go), and the page has one
// WebAssembly heap: past maxSnapshotBytes it points to the command line,
// which takes 2 GiB. At 256 MiB the result and the reader's working set
// are a few hundred MB of that heap; 1 GiB (a result of about 840 MB)
// has not been tried in a browser.
const (
	maxSnapshotBytes = 256 << 20
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

// snapshotResult is a snapshot as read: its devices as measure.Analyze
// replays them.
type snapshotResult struct {
	File    string
	Format  string
	Devices []measure.DeviceReport
}

// readSnapshot reads and analyses a snapshot from r (the feed, or any
// reader in a test), turning a panic into an error.
func readSnapshot(name string, r io.Reader) (res *snapshotResult, err error) {
	defer func() {
		if v := recover(); v != nil {
			res, err = nil, fmt.Errorf("reading the snapshot failed: %v", v)
		}
	}()
	s, err := measure.ReadSnapshot(r, measure.ReadOptions{MaxBytes: maxSnapshotBytes})
	if err != nil {
		return nil, err
	}
	devs, err := measure.Analyze(s, 0)
	if err != nil {
		return nil, err
	}
	return &snapshotResult{File: name, Format: s.Format, Devices: devs}, nil
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
