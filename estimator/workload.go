package estimator

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"strconv"
	"strings"
)

// The columns (CSV) or keys (JSON Lines) of a workload, docs/model.md §9. The
// first five set the request's shape; count and id do not.
const (
	colRows = iota
	colSequenceRows
	colProjectedRows
	colTargetRows
	colInUseBytes
	colCount
	colID
	numCols
)

// ShapeFields is the number of fields of a Shape.
const ShapeFields = colCount

// workloadColumns are the known columns, by index.
var workloadColumns = [numCols]string{"rows", "sequence_rows", "projected_rows", "target_rows", "in_use_bytes", "count", "id"}

// shapeFields are the registry's fields behind the shape columns: a cell
// is parsed, and its range checked, as the config's own field is.
var shapeFields [ShapeFields]*Field

// countField gives count its limits and message; it is no config field.
var countField = &Field{Path: "count", Key: "count", Kind: IntField, Min: 1, Max: maxRows,
	Doc: "identical requests this line stands for"}

func init() {
	for i := range shapeFields {
		shapeFields[i] = fieldByKey[workloadColumns[i]]
	}
}

// MaxWorkloadLineBytes bounds one physical line of a workload, so that a
// file without line ends cannot exhaust memory.
const MaxWorkloadLineBytes = 1 << 20

// maxIgnored bounds the distinct ignored keys of a JSON Lines workload
// (every line may bring new ones).
const maxIgnored = 1000

// Shape is what a workload line sets: rows, sequence_rows, projected_rows,
// target_rows and in_use_bytes, in that order, -1 where the line leaves
// the config's value (an empty cell, a missing key, or JSON null). Lines
// of the same Shape are priced once.
type Shape [ShapeFields]int64

// WorkloadLine is one request line of a workload.
type WorkloadLine struct {
	Line  int64  // physical line number in the file, from 1 (a CSV header is line 1)
	ID    string // the id column, echoed; "" when absent
	Count int64  // identical requests the line stands for, 1..2^31-1
	Shape Shape
}

// LineError is a problem with one line of a workload: its physical line
// number (from 1), the field (a config path such as request.rows, the
// column count or id, header, or "" for the line as a whole) and what is
// wrong.
type LineError struct {
	Line    int64  `json:"line"`
	Field   string `json:"field"`
	Message string `json:"message"`
}

func (e *LineError) Error() string {
	s := "line " + strconv.FormatInt(e.Line, 10) + ": "
	if e.Field != "" {
		s += e.Field + ": "
	}
	return s + e.Message
}

// WorkloadReader reads a workload line by line (docs/model.md §9), in memory
// bounded by one line: CSV with a header row (RFC 4180, header names
// case-insensitive) or JSON Lines, told apart by the first non-blank
// character ({ is JSON Lines). A UTF-8 byte-order mark and blank lines
// are skipped; CR LF line ends are read as LF. Each line's cells are
// parsed and range-checked as the config's fields are; limits that relate
// a line to the config (projected_rows <= rows, in_use_bytes <= capacity)
// are the replay's.
type WorkloadReader struct {
	jsonl bool
	src   *bufio.Reader
	skip  int64 // line ends skipped before the first non-blank character
	lines int64
	err   error // sticky: the first error, or io.EOF

	// CSV
	csv   *csv.Reader
	cols  []int // per header column, the known column it is, or -1
	hline int64 // the header's line

	// JSON Lines
	sc   *bufio.Scanner
	line int64

	ignored    []string
	ignoredSet map[string]bool
}

// NewWorkloadReader reads up to the first non-blank character of r to
// tell the format, and for CSV the header. An empty workload, or a CSV
// header without a rows column, is an error.
func NewWorkloadReader(r io.Reader) (*WorkloadReader, error) {
	w := &WorkloadReader{ignoredSet: map[string]bool{}, ignored: []string{}}
	limit := &lineLimitReader{r: r}
	w.src = bufio.NewReaderSize(limit, 64<<10)
	if b, err := w.src.Peek(3); err == nil && string(b) == "\uFEFF" {
		w.src.Discard(3)
	}
	for {
		ch, err := w.src.ReadByte()
		if err == io.EOF {
			return nil, &Error{Field: "workload", Message: "is empty: expected CSV with a header row, or JSON Lines"}
		}
		if err != nil {
			return nil, readError(err)
		}
		if ch == '\n' {
			w.skip++
		}
		if ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' {
			continue
		}
		w.src.UnreadByte()
		w.jsonl = ch == '{'
		break
	}
	if w.jsonl {
		// The scanner bounds a line itself: it would hand on a line the
		// limit cut short as if it were whole.
		limit.off = true
		w.sc = bufio.NewScanner(w.src)
		w.sc.Buffer(make([]byte, 0, 64<<10), MaxWorkloadLineBytes+2)
		w.line = w.skip
		return w, nil
	}
	w.csv = csv.NewReader(w.src)
	w.csv.FieldsPerRecord = -1
	w.csv.ReuseRecord = true
	if err := w.readHeader(); err != nil {
		return nil, err
	}
	return w, nil
}

// Format is "csv" or "jsonl".
func (w *WorkloadReader) Format() string {
	if w.jsonl {
		return "jsonl"
	}
	return "csv"
}

// Ignored lists the columns (CSV, in header order) or keys (JSON Lines,
// in order of first appearance) that are not a workload's, as written.
func (w *WorkloadReader) Ignored() []string { return append([]string{}, w.ignored...) }

// Lines is the number of request lines read so far.
func (w *WorkloadReader) Lines() int64 { return w.lines }

func (w *WorkloadReader) ignore(name string) error {
	if w.ignoredSet[name] {
		return nil
	}
	if len(w.ignored) >= maxIgnored {
		return &Error{Field: "workload", Message: "has more than " + Group(maxIgnored) + " distinct ignored columns"}
	}
	w.ignoredSet[name] = true
	w.ignored = append(w.ignored, name)
	return nil
}

// readRecord reads the next CSV record that is not blank, and its
// physical line number in the file (from 1).
func (w *WorkloadReader) readRecord() ([]string, int64, error) {
	rec, err := w.csv.Read()
	for err == nil && isBlankRecord(rec) {
		rec, err = w.csv.Read()
	}
	if err != nil {
		return nil, 0, w.csvError(err)
	}
	line, _ := w.csv.FieldPos(0)
	return rec, int64(line) + w.skip, nil
}

func (w *WorkloadReader) readHeader() error {
	rec, line, err := w.readRecord()
	if err != nil {
		return err
	}
	w.hline = line
	w.cols = make([]int, len(rec))
	var seen [numCols]bool
	for i, name := range rec {
		w.cols[i] = -1
		key := strings.ToLower(strings.TrimSpace(name))
		for c, known := range workloadColumns {
			if key == known {
				w.cols[i] = c
			}
		}
		c := w.cols[i]
		if c < 0 {
			if key == "" {
				continue // a nameless column (a trailing comma): nothing to list
			}
			if err := w.ignore(strings.TrimSpace(name)); err != nil {
				return err
			}
			continue
		}
		if seen[c] {
			return &LineError{Line: w.hline, Field: "header", Message: "the column " + strconv.Quote(workloadColumns[c]) + " appears twice"}
		}
		seen[c] = true
	}
	if !seen[colRows] {
		return &LineError{Line: w.hline, Field: "header", Message: "has no rows column (required; the columns are " +
			strings.Join(workloadColumns[:], ", ") + "), got " + clip(strconv.Quote(strings.Join(rec, ",")))}
	}
	return nil
}

func isBlankRecord(rec []string) bool { return len(rec) == 1 && strings.TrimSpace(rec[0]) == "" }

// Next reads the next request line into l. It returns io.EOF after the
// last one, and an error (a *LineError for a bad line) that every later
// call returns too. A workload with no request line is an error.
func (w *WorkloadReader) Next(l *WorkloadLine) error {
	if w.err != nil {
		return w.err
	}
	var err error
	if w.jsonl {
		err = w.nextJSON(l)
	} else {
		err = w.nextCSV(l)
	}
	if err == io.EOF && w.lines == 0 {
		if w.jsonl {
			err = &Error{Field: "workload", Message: "has no request lines"}
		} else {
			err = &Error{Field: "workload", Message: "has a header (line " + strconv.FormatInt(w.hline, 10) + ") but no request lines"}
		}
	}
	if err != nil {
		w.err = err
		return err
	}
	w.lines++
	return nil
}

func (w *WorkloadReader) nextCSV(l *WorkloadLine) error {
	rec, line, err := w.readRecord()
	if err != nil {
		return err
	}
	l.Line = line
	if len(rec) != len(w.cols) {
		return &LineError{Line: l.Line, Message: "has " + strconv.Itoa(len(rec)) + " fields, the header has " + strconv.Itoa(len(w.cols))}
	}
	var cells [numCols]string
	var has [numCols]bool
	for i, cell := range rec {
		if c := w.cols[i]; c >= 0 {
			cells[c], has[c] = cell, true
		}
	}
	return w.fill(l, &cells, &has, false)
}

func (w *WorkloadReader) csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &LineError{Line: int64(pe.Line) + w.skip, Message: "column " + strconv.Itoa(pe.Column) + ": " + pe.Err.Error()}
	}
	if err == io.EOF {
		return err
	}
	return readError(err)
}

// fill parses the cells of one line into l, in column order, and checks
// each against its field's range. A JSON value is a JSON integer (null
// leaves the config's value); a CSV cell is an integer as ParseInt reads
// it, and an empty one leaves the config's value.
func (w *WorkloadReader) fill(l *WorkloadLine, cells *[numCols]string, has *[numCols]bool, isJSON bool) error {
	for c := 0; c < ShapeFields; c++ {
		v, err := cellValue(shapeFields[c], cells[c], has[c], isJSON)
		if err != nil {
			return &LineError{Line: l.Line, Field: err.Field, Message: err.Message}
		}
		l.Shape[c] = v
	}
	count, err := cellValue(countField, cells[colCount], has[colCount], isJSON)
	if err != nil {
		return &LineError{Line: l.Line, Field: err.Field, Message: err.Message}
	}
	l.Count = max(count, 1) // -1: absent, one request
	l.ID = ""
	if has[colID] {
		id, err := idValue(cells[colID], isJSON)
		if err != nil {
			return &LineError{Line: l.Line, Field: "id", Message: err.Error()}
		}
		l.ID = id
	}
	return nil
}

// cellValue is the value of one cell, or -1 when it leaves the config's.
func cellValue(f *Field, cell string, has, isJSON bool) (int64, *Error) {
	if !has {
		return -1, nil
	}
	var v int64
	if isJSON {
		if cell == "null" {
			return -1, nil
		}
		var err *Error
		if v, err = parseJSONInt(f, cell); err != nil {
			return 0, err
		}
	} else {
		var err error
		if v, err = strconv.ParseInt(cell, 10, 64); err != nil {
			if strings.TrimSpace(cell) == "" {
				return -1, nil
			}
			if v, err = ParseInt(cell); err != nil {
				return 0, &Error{Field: f.Path, Message: err.Error() + "; " + f.Allowed()}
			}
		}
	}
	if err := f.checkValue(v); err != nil {
		return 0, err
	}
	return v, nil
}

func readError(err error) error {
	var le *LineError
	if errors.As(err, &le) {
		return le
	}
	return &Error{Field: "workload", Message: "cannot be read: " + err.Error()}
}

// lineLimitReader fails on a physical line longer than
// MaxWorkloadLineBytes, naming it.
type lineLimitReader struct {
	r    io.Reader
	run  int   // bytes since the last line end
	line int64 // line ends seen
	off  bool
}

func (l *lineLimitReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	if l.off {
		return n, err
	}
	for b := p[:n]; len(b) > 0; {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			l.run += len(b)
			break
		}
		if l.run+i > MaxWorkloadLineBytes {
			l.run += i
			break
		}
		l.run, l.line, b = 0, l.line+1, b[i+1:]
	}
	if l.run > MaxWorkloadLineBytes {
		return 0, &LineError{Line: l.line + 1, Message: "is longer than " + Group(MaxWorkloadLineBytes) + " bytes"}
	}
	return n, err
}
