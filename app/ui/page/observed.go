package page

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"headroom/estimator"
)

// KeyObserved is the observed-peaks panel's control key: its text in
// State.Texts (what was pasted, kept while it is in error, and then
// in the URL under this key so a reload shows it), its message in errs.
const KeyObserved = "observed"

// ParseObserved reads measured peaks as a person pastes them, one point a
// line: rows, peak, then an optional label.
//
//   - Rows are read as the rows field takes them (estimator.ParseCount:
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
// the text. Ranges are not checked here (see checkObservedPoints).
func ParseObserved(text string) ([]estimator.ObservedPoint, []int, error) {
	if IsObservedCSV(text) {
		return ParseObservedCSV(text)
	}
	var points []estimator.ObservedPoint
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
// compiled the regexp package's code too (issue 29).
var lineSplits = sync.OnceValue(func() (r struct{ spaces, commaSpace, commaSpaces *regexp.Regexp }) {
	r.spaces = regexp.MustCompile(`\s+`)
	r.commaSpace = regexp.MustCompile(`,\s`)
	r.commaSpaces = regexp.MustCompile(`,\s+`)
	return r
})

// parseObservedLine reads one pasted line (see ParseObserved).
func parseObservedLine(line string) (estimator.ObservedPoint, error) {
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
func pointOf(fields []string) (estimator.ObservedPoint, error) {
	var p estimator.ObservedPoint
	if len(fields) < 2 || strings.TrimSpace(fields[1]) == "" {
		return p, errors.New("needs rows and a peak, like \"64902, 88.271 GiB, cold forward\"")
	}
	rows, err := estimator.ParseCount(strings.TrimSpace(fields[0]))
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
		return estimator.ParseGiB(text)
	}
	return estimator.ParseBytes(text)
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
func ParseObservedCSV(text string) ([]estimator.ObservedPoint, []int, error) {
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	var points []estimator.ObservedPoint
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
func FormatObserved(points []estimator.ObservedPoint) string {
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

// checkObservedPoints validates points in cfg as the estimator does
// (ranges, at most 64 points, labels of at most 64 bytes, and every
// prediction priced without overflow), naming each bad point by its line.
// Errors of other fields are not the panel's: they are left out.
func checkObservedPoints(cfg estimator.Config, points []estimator.ObservedPoint, lines []int) error {
	cfg.Observed = points
	_, err := estimator.Estimate(cfg)
	var msgs []string
	for _, e := range estimator.FieldErrors(err) {
		if !strings.HasPrefix(e.Field, "observed") {
			continue
		}
		name := e.Field
		if i, key, ok := pointIndex(e.Field); ok && i < len(lines) {
			name = fmt.Sprintf("line %d (point %d)", lines[i], i+1)
			if key != "" {
				name += " " + key
			}
		}
		msgs = append(msgs, name+" "+e.Message)
	}
	if len(msgs) > 0 {
		return errors.New(strings.Join(msgs, "; "))
	}
	return nil
}

// pointIndex reads "observed[3].peak_bytes" as 3 and "peak_bytes".
func pointIndex(field string) (int, string, bool) {
	rest, ok := strings.CutPrefix(field, "observed[")
	if !ok {
		return 0, "", false
	}
	num, key, ok := strings.Cut(rest, "]")
	if !ok {
		return 0, "", false
	}
	i, err := strconv.Atoi(num)
	return i, strings.TrimPrefix(key, "."), err == nil
}

// SetObserved applies the panel's text: its points replace the config's
// when every line parses and every point is valid; otherwise the text is
// kept as typed with the message, and the config keeps its points. An
// empty text removes the points.
func (s *State) SetObserved(text string) {
	s.Texts[KeyObserved] = text
	delete(s.InputErr, KeyObserved)
	points, lines, err := ParseObserved(text)
	if err == nil {
		err = checkObservedPoints(s.Cfg, points, lines)
	}
	if err != nil {
		s.InputErr[KeyObserved] = err.Error()
		return
	}
	s.Cfg.Observed = points
	delete(s.Texts, KeyObserved) // the box shows the points as the page reads them
}

// ObservedText is what the panel's box shows: the text in error, else the
// config's points.
func (s *State) ObservedText() string {
	if t, ok := s.Texts[KeyObserved]; ok {
		return t
	}
	return FormatObserved(s.Cfg.Observed)
}

// linkPointShown is how many of a link's bad observed points the panel's
// message names; the rest are counted.
const linkPointShown = 3

// linkPointErrors puts the errors of a link's observed points (bad obs
// values, which DecodeQuery left out) beside the panel, in one message:
// the first linkPointShown errors, then how many more and how many bad
// points in all. A crafted link may carry thousands; the message, like
// the work, stays in proportion to the link (issue 28: it was rebuilt
// whole for each point, quadratic in their number).
func linkPointErrors(s *State, errs []*estimator.Error) {
	if len(errs) == 0 {
		return
	}
	var b strings.Builder
	points := map[int]bool{}
	for i, e := range errs {
		if p, _, ok := pointIndex(e.Field); ok {
			points[p] = true
		}
		if i < linkPointShown {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString("the link's point " + e.Field + " " + e.Message)
		}
	}
	if more := len(errs) - linkPointShown; more > 0 {
		b.WriteString("; and " + estimator.Group(int64(more)) + " more errors")
	}
	switch n := len(points); {
	case n == 1:
		b.WriteString("; it was left out")
	case n > 1:
		b.WriteString("; " + estimator.Group(int64(n)) + " of the link's points were left out")
	}
	s.InputErr[KeyObserved] = b.String()
}
