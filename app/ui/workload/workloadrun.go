package workload

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"

	"headroom/app/chart"
	"headroom/app/report"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// The browser's limits on a workload. Past them the page points to the
// command line, which replays any size in constant memory: the page holds
// the file, the CSV of the replay (one row per line) and two int32 per
// line for the histogram.
const (
	MaxWorkloadBytes = 64 << 20
	MaxWorkloadLines = 1_000_000
	// ShownChangedLines is how many changed lines the panel lists, each
	// with a button that loads its shape into the explorer.
	ShownChangedLines = 100
)

// tooBigHint points a workload past the browser's limits to the command
// line.
const tooBigHint = "replay it with the command line instead, which reads any size in constant memory: " +
	"headroom replay -config CONFIG.json -workload FILE -format md (the page's JSON export is a config it reads)"

// workloadRun is one replay of a workload against one config, worked in
// slices (step) so the page stays responsive between them: in WebAssembly
// there is one thread, and a replay of a million lines takes seconds.
type workloadRun struct {
	cfg    estimator.Config
	key    string // the config's query encoding
	total  int64  // the workload's non-blank lines: what the progress counts to
	reader *estimator.WorkloadReader
	rep    *estimator.Replayer
	line   estimator.WorkloadLine

	rows, counts []int32
	csvBuf       bytes.Buffer
	csv          *csv.Writer
	shapes       map[int64]estimator.Shape    // the first ShownChangedLines changed lines' shapes, by line
	empty        [estimator.ShapeFields]int64 // lines that leave each shape column to the config
}

// workloadResult is a finished replay: everything the panel shows and
// exports, computed once.
type workloadResult struct {
	cfg      estimator.Config
	key      string
	format   string // "csv" or "jsonl"
	res      estimator.ReplayResult
	hist     chart.Histogram
	shapes   map[int64]estimator.Shape
	empty    [estimator.ShapeFields]int64 // lines that left each shape column to the config
	csv      []byte                       // report.CSVHeader, then one row per line: what replay -format csv writes
	json     []byte                       // what replay -format json writes
	markdown string                       // what replay -format md writes
}

// newWorkloadRun checks the workload's size, tells its format and reads a
// CSV header: a file too large, an empty one or a header without rows is
// an error before any line is priced.
func newWorkloadRun(cfg estimator.Config, key string, data []byte) (*workloadRun, error) {
	if err := checkWorkloadSize(int64(len(data))); err != nil {
		return nil, err
	}
	n := nonBlankLines(data)
	if n > MaxWorkloadLines+1 { // + a CSV header
		return nil, errors.New("the workload has " + estimator.Group(n) + " lines, more than the " +
			estimator.Group(MaxWorkloadLines) + " the page replays; " + tooBigHint)
	}
	rep, err := estimator.NewReplayer(cfg)
	if err != nil {
		return nil, errors.New("the config cannot be replayed: " + err.Error())
	}
	r := &workloadRun{cfg: cfg, key: key, total: n, rep: rep, shapes: map[int64]estimator.Shape{}}
	if r.reader, err = estimator.NewWorkloadReader(bytes.NewReader(data)); err != nil {
		return nil, err
	}
	// Sized once for the lines counted: growing by doubling copies tens
	// of megabytes in one slice, a frame the page would miss.
	r.rows, r.counts = make([]int32, 0, n), make([]int32, 0, n)
	r.csvBuf.Grow(int(min(n*48, 3*MaxWorkloadBytes)))
	r.csv = csv.NewWriter(&r.csvBuf)
	r.csv.Write(report.CSVHeader)
	return r, nil
}

// checkWorkloadSize refuses a workload past MaxWorkloadBytes, before it is
// read: a 2 GB file is not copied into the page.
func checkWorkloadSize(n int64) error {
	if n > MaxWorkloadBytes {
		return errors.New("the workload has " + estimator.Group(n) + " bytes, more than the " +
			estimator.Group(MaxWorkloadBytes) + " (64 MiB) the page replays; " + tooBigHint)
	}
	return nil
}

// nonBlankLines counts the lines of data that hold more than blanks: at
// least the workload's request lines (plus a CSV header), so a count past
// the limit refuses the file before a line is priced. (A quoted CSV cell
// spanning lines counts each of them.)
func nonBlankLines(data []byte) int64 {
	var n int64
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		line := data
		if i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(bytes.TrimSpace(line)) > 0 {
			n++
		}
	}
	return n
}

// progress is the share of the workload's lines replayed, 0..1 (of its
// non-blank lines, which count a CSV header too: it ends just short of 1).
func (r *workloadRun) progress() float64 {
	return min(1, float64(r.reader.Lines())/float64(max(r.total, 1)))
}

// lines is the number of request lines replayed so far.
func (r *workloadRun) lines() int64 { return r.reader.Lines() }

// step replays up to n more lines. It returns the result once the
// workload is read whole; an error (a *estimator.LineError for a bad
// line) ends the run, and nothing of it is reported.
func (r *workloadRun) step(n int) (*workloadResult, error) {
	for i := 0; i < n; i++ {
		err := r.reader.Next(&r.line)
		if err == io.EOF {
			return r.finish()
		}
		if err != nil {
			return nil, err
		}
		if r.reader.Lines() > MaxWorkloadLines {
			return nil, errors.New("the workload has more than " + estimator.Group(MaxWorkloadLines) +
				" request lines, more than the page replays; " + tooBigHint)
		}
		for i, v := range r.line.Shape {
			if v < 0 {
				r.empty[i]++
			}
		}
		out, err := r.rep.Add(&r.line)
		if err != nil {
			return nil, err
		}
		r.rows = append(r.rows, int32(out.Rows))      // rows <= 2^31-1
		r.counts = append(r.counts, int32(out.Count)) // count <= 2^31-1
		report.WriteCSVRow(r.csv, out)
		if out.Changed() && len(r.shapes) < ShownChangedLines {
			r.shapes[out.Line] = r.line.Shape
		}
	}
	return nil, nil
}

// finish makes the result of a workload read whole.
func (r *workloadRun) finish() (*workloadResult, error) {
	res := r.rep.Result(r.reader.Ignored())
	r.csv.Flush()
	if err := r.csv.Error(); err != nil {
		return nil, err
	}
	var js bytes.Buffer
	enc := json.NewEncoder(&js)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res); err != nil {
		return nil, err
	}
	out := &workloadResult{cfg: r.cfg, key: r.key, format: r.reader.Format(), res: res,
		hist: chart.NewHistogram(r.rows, r.counts), shapes: r.shapes, empty: r.empty,
		csv: r.csvBuf.Bytes(), json: js.Bytes(), markdown: report.Markdown(res, r.cfg)}
	r.rows, r.counts = nil, nil
	return out, nil
}

// workloadState is the Workload panel's state machine: the workload
// loaded, the run in progress, the last result and the last failure.
//
//   - load starts a run of a new workload against the config; the old
//     result goes (it was another workload's).
//   - setConfig notes a new config. When it differs from the one the
//     result (or the run) is for, the run in progress is dropped and a
//     rerun is due once the config settles: settle starts it, if no newer
//     config came since (its generation). The old result stays on show,
//     marked stale, until the new one is whole.
//   - step works a slice of the run; cancel drops it.
//
// A failed run shows its error and no result: nothing partial.
type workloadState struct {
	data   []byte
	source string // "the pasted text", a file's name
	cfg    estimator.Config
	key    string
	hasCfg bool // setConfig was called: key is the page's
	gen    int  // bumped by every setConfig that asks for a rerun

	run       *workloadRun
	shown     *workloadResult
	err       string // why the last run failed
	cancelled bool   // the last run was cancelled
	pending   bool   // a rerun waits for the config to settle

	// pinned is the line loaded into the explorer (0: none). Loading a
	// line sets the request's fields to its shape: the replay stays
	// against the config it ran with while the page's differs from it
	// only there, so inspecting a request does not re-base the workload.
	// page is the page's config meanwhile.
	pinned  int64
	page    estimator.Config
	pageKey string
	// moved says how a rerun for a new config moved the replay: which
	// columns' empty cells took the config's new value, and the verdict
	// before; "" when the verdict did not move.
	moved string
}

// shapeColumns are the workload's shape columns, in Shape's order.
var shapeColumns = [estimator.ShapeFields]string{"rows", "sequence_rows", "projected_rows", "target_rows", estimator.KeyInUseBytes}

// pin notes that line was loaded into the explorer from the result shown.
func (s *workloadState) pin(line int64) {
	if s.shown != nil {
		s.pinned = line
	}
}

// unpin replays against the page's config again (the panel's button).
// It returns the generation to settle with, as setConfig does.
func (s *workloadState) unpin() int {
	s.pinned = 0
	if s.pageKey == "" {
		return 0
	}
	return s.setConfig(s.page, s.pageKey)
}

// onlyShapeDiffers reports whether b differs from a in a workload line's
// shape fields only (what loading a line sets).
func onlyShapeDiffers(a, b estimator.Config) bool {
	b.Request.Rows, b.Request.SequenceRows = a.Request.Rows, a.Request.SequenceRows
	b.Request.ProjectedRows, b.Request.TargetRows = a.Request.ProjectedRows, a.Request.TargetRows
	b.Budget.InUseBytes = a.Budget.InUseBytes
	return page.ConfigQuery(a, nil).Encode() == page.ConfigQuery(b, nil).Encode()
}

// load starts replaying data, from source, against the current config.
func (s *workloadState) load(source string, data []byte) {
	s.data, s.source, s.shown, s.pinned, s.moved = data, source, nil, 0, ""
	s.start()
}

// start begins a run of the loaded workload against the current config.
func (s *workloadState) start() {
	s.run, s.err, s.cancelled, s.pending = nil, "", false, false
	if s.data == nil {
		return
	}
	run, err := newWorkloadRun(s.cfg, s.key, s.data)
	if err != nil {
		s.fail(err)
		return
	}
	s.run = run
}

func (s *workloadState) fail(err error) {
	s.run, s.shown, s.err = nil, nil, err.Error()
}

// setConfig notes the page's config. It returns the generation to settle
// with when a rerun is due, or 0.
func (s *workloadState) setConfig(cfg estimator.Config, key string) int {
	s.page, s.pageKey = cfg, key
	if s.pinned != 0 && s.shown != nil && s.run == nil && !s.pending {
		if key == s.shown.key || onlyShapeDiffers(s.shown.cfg, cfg) {
			return 0 // a loaded line's shape: the replay stays as it is
		}
		s.pinned = 0 // another field changed: the replay follows the page again
	}
	if s.hasCfg && key == s.key {
		return 0
	}
	s.cfg, s.key, s.hasCfg = cfg, key, true
	if s.data == nil {
		return 0
	}
	if s.run == nil && s.shown != nil && s.shown.key == key {
		s.pending = false // back to the config shown
		return 0
	}
	s.run, s.pending = nil, true
	s.gen++
	return s.gen
}

// settle starts the rerun asked for by generation gen, unless a newer
// config came since; it reports whether it started one.
func (s *workloadState) settle(gen int) bool {
	if gen != s.gen || !s.pending {
		return false
	}
	s.start()
	return s.run != nil
}

// step works up to n lines of the run; it reports whether the run goes on.
func (s *workloadState) step(n int) bool {
	if s.run == nil {
		return false
	}
	res, err := s.run.step(n)
	switch {
	case err != nil:
		s.fail(err)
		return false
	case res != nil:
		s.moved = ""
		if prev := s.shown; prev != nil && prev.key != res.key { // a rerun for a new config
			s.moved = movedText(prev, res)
		}
		s.run, s.shown = nil, res
		return false
	}
	return true
}

// cancel drops the run in progress; nothing of it is shown.
func (s *workloadState) cancel() {
	if s.run != nil {
		s.run, s.cancelled, s.pending = nil, true, false
	}
}

// stale reports whether the result on show is for another config than the
// page's.
func (s *workloadState) stale() bool { return s.shown != nil && s.shown.key != s.key }

// status is one sentence on where the panel is.
func (s *workloadState) status() string {
	switch {
	case s.run != nil:
		return "Replaying " + s.source + ": " + estimator.Group(s.run.lines()) + " lines, " +
			strconv.Itoa(int(s.run.progress()*100)) + " %…"
	case s.pending:
		return "The config changed: the replay of " + s.source + " runs again once it settles."
	case s.err != "":
		return "Nothing was replayed from " + s.source + ": " + s.err
	case s.cancelled:
		return "Cancelled: nothing is shown of an unfinished replay. Replay again to start over."
	case s.shown != nil && s.pinned != 0:
		return s.source + ": " + estimator.Group(s.shown.res.Lines) + " lines (" + s.shown.format + "), " +
			estimator.Group(s.shown.res.Requests) + " requests, replayed against the config before line " +
			strconv.FormatInt(s.pinned, 10) + " was loaded: inspecting a request does not re-base the workload."
	case s.shown != nil:
		return s.source + ": " + estimator.Group(s.shown.res.Lines) + " lines (" + s.shown.format + "), " +
			estimator.Group(s.shown.res.Requests) + " requests, replayed against the config shown."
	}
	return ""
}

// movedText says how a rerun for a new config moved the replay: "" when
// the verdict (the sentence) is the same, else which columns' empty
// cells took the config's new value and what the verdict was.
func movedText(prev, res *workloadResult) string {
	before, after := report.Sentence(prev.res), report.Sentence(res.res)
	if before == after {
		return ""
	}
	var cells []string
	for i, col := range shapeColumns {
		was, now := shapeValue(prev.cfg, col), shapeValue(res.cfg, col)
		if res.empty[i] == 0 || was == now {
			continue
		}
		lines := " lines"
		if res.empty[i] == 1 {
			lines = " line"
		}
		cells = append(cells, estimator.Group(res.empty[i])+lines+" with an empty "+col+" cell took the config's "+
			now+" (was "+was+")")
	}
	msg := "The verdict moved with the config's change"
	if len(cells) > 0 {
		msg += ": " + strings.Join(cells, "; ")
	}
	return msg + ". Before it: " + before
}

// shapeValue is the config's value of a shape column as the note writes
// it: the number, or "auto" for a field that follows another.
func shapeValue(cfg estimator.Config, col string) string {
	f, ok := estimator.FieldByKey(col)
	if !ok {
		return ""
	}
	if v, set := f.Int(&cfg); set {
		return estimator.Group(v)
	}
	return "auto"
}
