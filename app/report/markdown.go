package report

import (
	"strings"
	"unicode/utf8"
)

// Untrusted text (a workload's ids, a snapshot's frames and labels, a
// report's phase and file names) reaches Markdown tables and terminals.
// These are the one escaper of each kind that every writer uses: a cell
// cannot end its row or its table, start a heading, a link, a code span
// or HTML; and no control byte (ESC, BEL, the OSC and CSI sequences a
// terminal obeys, the C1 controls) reaches the output.

// TerminalText is s with every control character (C0 and C1, DEL, the
// bidirectional overrides that reorder a line on screen) as a space and
// each byte that is not UTF-8 as U+FFFD: text a terminal shows as it is.
// Line ends become spaces too, so s stays on its line.
func TerminalText(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || isControl(r) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteRune(utf8.RuneError)
		case isControl(r):
			b.WriteByte(' ')
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// isControl: C0, DEL, C1, and the bidirectional embeddings, overrides
// and isolates (U+202A-U+202E, U+2066-U+2069).
func isControl(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// cellEscapes escape what Markdown (GitHub's) reads in a table cell:
// the pipe that ends a cell, the backtick of a code span, the bracket of
// a link, and HTML's < and &.
var cellEscapes = strings.NewReplacer("|", `\|`, "&", "&amp;", "<", "&lt;", "`", "\\`", "[", `\[`, "]", `\]`)

// MarkdownCell is s as the text of a Markdown table cell (or a line of
// a list): TerminalText, then the pipe, backtick and brackets escaped
// and HTML's < and & as entities. It shows as s, and nothing in s ends
// the cell, the row or the table.
func MarkdownCell(s string) string {
	return cellEscapes.Replace(TerminalText(s))
}

// MarkdownCode is s as a code span in a table cell: its delimiters a
// run of backticks longer than any in s (inside a code span a backslash
// escapes nothing), TerminalText, and the pipe escaped (a table splits
// its cells before it reads code spans).
func MarkdownCode(s string) string {
	s = TerminalText(s)
	run, longest := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 || strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") {
		s = " " + s + " " // a space inside each delimiter, which Markdown strips
	}
	return fence + strings.ReplaceAll(s, "|", `\|`) + fence
}

// CSVCell is s for a CSV cell a spreadsheet opens: TerminalText, and a
// leading =, +, -, @ (or a tab or carriage return, which TerminalText
// has made a space) quoted by an apostrophe, as OWASP advises, so that a
// spreadsheet shows it as text instead of running it as a formula. A
// number ("-5") keeps its sign.
func CSVCell(s string) string {
	s = TerminalText(s)
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '@', '-':
		if s[0] == '-' && isNumber(s[1:]) {
			return s
		}
		return "'" + s
	}
	if s[0] == ' ' && strings.TrimLeft(s, " ") != "" && strings.ContainsRune("=+-@", rune(strings.TrimLeft(s, " ")[0])) {
		return "'" + s
	}
	return s
}

// isNumber: digits with at most one '.', at least one digit.
func isNumber(s string) bool {
	digits, dots := 0, 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] >= '0' && s[i] <= '9':
			digits++
		case s[i] == '.':
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}

// JSONText is JSON text b (encoding/json's output) with every C1 control
// and bidirectional override written as a \u escape, as encoding/json
// writes the C0 ones: the same JSON, and no such rune reaches a terminal
// the JSON is printed on. Outside a string JSON holds none of them, so
// only strings change.
func JSONText(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r >= 0x80 && isControl(r) {
			if out == nil {
				out = append(make([]byte, 0, len(b)+16), b[:i]...)
			}
			out = append(out, `\u`...)
			out = append(out, "0123456789abcdef"[r>>12&0xf], "0123456789abcdef"[r>>8&0xf], "0123456789abcdef"[r>>4&0xf], "0123456789abcdef"[r&0xf])
		} else if out != nil {
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	if out == nil {
		return b
	}
	return out
}
