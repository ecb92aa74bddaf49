package estimator

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Observed points as a person pastes them (from a log, a spreadsheet, a
// notebook) and as a box shows them: the text form beside the JSON form
// of observed.go.

// ParseObserved reads measured peaks as a person pastes them, one point a
// line: rows, peak, then an optional label.
//
//   - Rows are read as the rows field takes them (ParseCount:
//     "64902", "64,902", "64k"); a peak as a byte field (ParseBytes:
//     "88240000000", "80 GB", "82 GiB"), except that a peak in GiB may be
//     a rounded decimal, as torch prints it ("88.271 GiB"): it is rounded
//     to the nearest byte, as the in-use field does (ParseGiB).
//   - A line with a tab is split at tabs. Otherwise a line with a comma
//     followed by a space is split at those ("64,902, 88.271 GiB, cold
//     forward": a digit-grouping comma stays in its number), else at
//     commas ("64902,94780217856,cold"), else at runs of spaces ("33706
//     88240000000", "33706 82.182 GiB warm": a unit after the peak
//     belongs to it). Only the first two separators count: the label is
//     the rest of the line, commas included; quotes around it are removed.
//   - A first line "rows,peak_bytes,label" makes the text a CSV (quoted
//     fields as encoding/csv reads them), as ParseObservedCSV.
//   - Blank lines and lines starting with # are skipped.
//
// A line that does not parse is reported with its line number (1 for the
// first line of the text), and no points are returned: the caller keeps
// the text. Ranges are not checked here (CheckObserved, and Resolve,
// check them).
func ParseObserved(text string) ([]ObservedPoint, []int, error) {
	if IsObservedCSV(text) {
		return ParseObservedCSV(text)
	}
	var points []ObservedPoint
	var lines []int
	var errs []string
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p, err := parseObservedLine(line)
		if err != nil {
			errs = append(errs, fmt.Sprintf("line %d (%s): %v", i+1, clipText(line), err))
			continue
		}
		points, lines = append(points, p), append(lines, i+1)
	}
	if len(errs) > 0 {
		return nil, nil, errors.New(strings.Join(errs, "; "))
	}
	return points, lines, nil
}

// lineSplits are the expressions that split a pasted line, compiled at
// the first paste rather than in the package's init: in the browser the
// init runs in the page's first long task, and compiling them there
// compiled the regexp package's code too, on every visit.
var lineSplits = sync.OnceValue(func() (r struct{ spaces, commaSpace, commaSpaces *regexp.Regexp }) {
	r.spaces = regexp.MustCompile(`\s+`)
	r.commaSpace = regexp.MustCompile(`,\s`)
	r.commaSpaces = regexp.MustCompile(`,\s+`)
	return r
})

// parseObservedLine reads one pasted line (see ParseObserved).
func parseObservedLine(line string) (ObservedPoint, error) {
	var fields []string
	re := lineSplits()
	spaces, commaSpace, commaSpaces := re.spaces, re.commaSpace, re.commaSpaces
	switch {
	case strings.Contains(line, "\t"):
		fields = strings.SplitN(line, "\t", 3)
	case commaSpace.MatchString(line):
		fields = commaSpaces.Split(line, 3)
	case strings.Contains(line, ","):
		fields = strings.SplitN(line, ",", 3)
	default:
		fields = spaces.Split(line, 3)
		if len(fields) == 3 {
			// "33706 82.182 GiB warm": the word after the peak is its unit
			// when the peak reads with it.
			rest := spaces.Split(fields[2], 2)
			if isUnitWord(rest[0]) {
				if _, err := parsePeak(fields[1] + " " + rest[0]); err == nil {
					fields[1] += " " + rest[0]
					fields = fields[:2]
					if len(rest) == 2 {
						fields = append(fields, rest[1])
					}
				}
			}
		}
	}
	return pointOf(fields)
}

// isUnitWord is true for a word of letters only, which a byte unit is.
func isUnitWord(w string) bool {
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return w != ""
}

// pointOf reads the fields rows, peak and label of a point.
func pointOf(fields []string) (ObservedPoint, error) {
	var p ObservedPoint
	if len(fields) < 2 || strings.TrimSpace(fields[1]) == "" {
		return p, errors.New("needs rows and a peak, like \"64902, 88.271 GiB, cold forward\"")
	}
	rows, err := ParseCount(strings.TrimSpace(fields[0]))
	if err != nil {
		return p, fmt.Errorf("rows %v", err)
	}
	peak, err := parsePeak(strings.TrimSpace(fields[1]))
	if err != nil {
		return p, fmt.Errorf("peak %v", err)
	}
	p.Rows, p.PeakBytes = rows, peak
	if len(fields) == 3 {
		p.Label = unquoteLabel(strings.TrimSpace(fields[2]))
	}
	return p, nil
}

// parsePeak reads a peak: ParseBytes, or ParseGiB (rounded to the nearest
// byte) for a figure in GiB.
func parsePeak(text string) (int64, error) {
	if strings.HasSuffix(strings.ToLower(text), "gib") {
		return ParseGiB(text)
	}
	return ParseBytes(text)
}

// unquoteLabel removes the double quotes around a label, reading "" inside
// as one quote (CSV's way).
func unquoteLabel(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
	}
	return s
}

// IsObservedCSV is true when the first line that is not blank is the CSV
// header rows,peak_bytes[,label].
func IsObservedCSV(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		line = strings.ToLower(strings.Join(strings.Fields(line), ""))
		if line == "" {
			continue
		}
		return line == "rows,peak_bytes" || line == "rows,peak_bytes,label"
	}
	return false
}

// ParseObservedCSV reads a CSV of points: the header rows,peak_bytes,label
// (label optional), then one point a record, its fields read as
// ParseObserved reads a line's. A record that does not parse is reported
// with its line number; then no points are returned.
func ParseObservedCSV(text string) ([]ObservedPoint, []int, error) {
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	var points []ObservedPoint
	var lines []int
	var errs []string
	header := true
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.Line
			}
			errs = append(errs, fmt.Sprintf("line %d: not CSV: %v", line, err))
			break
		}
		if header {
			header = false
			continue
		}
		if len(rec) > 3 {
			errs = append(errs, fmt.Sprintf("line %d: has %d fields; a point has rows,peak_bytes,label (quote a label with commas)", line, len(rec)))
			continue
		}
		p, err := pointOf(rec)
		if err != nil {
			errs = append(errs, fmt.Sprintf("line %d (%s): %v", line, clipText(strings.Join(rec, ",")), err))
			continue
		}
		points, lines = append(points, p), append(lines, line)
	}
	if len(errs) > 0 {
		return nil, nil, errors.New(strings.Join(errs, "; "))
	}
	if header {
		return nil, nil, errors.New("the CSV is empty; its first line is rows,peak_bytes,label")
	}
	return points, lines, nil
}

// clipText shortens a line for a message.
func clipText(s string) string {
	if len(s) > 48 {
		return strconv.Quote(s[:45] + "...")
	}
	return strconv.Quote(s)
}

// FormatObserved writes points as the panel's text: one line each,
// "rows, peak_bytes, label", which ParseObserved reads back as they are.
func FormatObserved(points []ObservedPoint) string {
	var b strings.Builder
	for _, p := range points {
		b.WriteString(strconv.FormatInt(p.Rows, 10) + ", " + strconv.FormatInt(p.PeakBytes, 10))
		if p.Label != "" {
			l := p.Label
			if l != strings.TrimSpace(l) || strings.HasPrefix(l, `"`) {
				l = `"` + strings.ReplaceAll(l, `"`, `""`) + `"`
			}
			b.WriteString(", " + l)
		}
		b.WriteString("\n")
	}
	return b.String()
}
