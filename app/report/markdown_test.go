package report

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile is text made to break out of a Markdown table or to drive a
// terminal: every piece alone, and all of them in one string.
func hostile() []string {
	pieces := []string{
		"|", "a|b", "`", "``x``", "\n## heading\n", "\r\n", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))",
		"\x1b]0;title\x07", "\x1b[2J", "\x07", "\x9b31m", "\u009d8;;http://x\u009c", "\u202egnp.exe", "\xff\xfe", "&amp;", "\\|", "]",
	}
	return append(pieces, strings.Join(pieces, "z"))
}

// unescapedPipes counts the pipes a table reads as cell borders: those
// not preceded by a backslash.
func unescapedPipes(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '|' && (i == 0 || s[i-1] != '\\') {
			n++
		}
	}
	return n
}

// clean reports what in s could reach a terminal as a control, or is not
// UTF-8.
func clean(s string) string {
	if !utf8.ValidString(s) {
		return "not UTF-8"
	}
	for _, r := range s {
		if isControl(r) {
			return "a control character"
		}
	}
	return ""
}

// TestMarkdownCell: no hostile text ends its cell, its row or its table,
// opens HTML, a link or a code span, or carries a control character; and
// ordinary text is unchanged.
func TestMarkdownCell(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "req-00007", "req-00007"},
		{"pipe", "a|b", `a\|b`},
		{"line end", "two\nlines", "two lines"},
		{"html", "<b>&", "&lt;b>&amp;"},
		{"backtick", "`x`", "\\`x\\`"},
		{"link", "[x](javascript:y)", `\[x\](javascript:y)`},
		{"escape sequence", "\x1b]0;t\x07", ` \]0;t `},
		{"C1", "a\u009bb", "a b"},
		{"not UTF-8", "a\xffb", "a\uFFFDb"},
	} {
		if got := MarkdownCell(tc.in); got != tc.want {
			t.Errorf("%s: MarkdownCell(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
	for _, in := range hostile() {
		got := MarkdownCell(in)
		row := "| " + got + " | " + MarkdownCode(in) + " |"
		if n := unescapedPipes(row); n != 3 || strings.ContainsAny(row, "\n\r") {
			t.Errorf("%q: the row %q has %d borders, or a line end", in, row, n)
		}
		if strings.Contains(got, "<") || strings.Contains(strings.ReplaceAll(got, `\](`, ""), "](") {
			t.Errorf("%q: the cell %q opens HTML or a link", in, got)
		}
		if why := clean(row); why != "" {
			t.Errorf("%q: the row %q holds %s", in, row, why)
		}
	}
}

// TestMarkdownCode: a code span's delimiters outnumber any backtick run
// inside it, so it ends where it should.
func TestMarkdownCode(t *testing.T) {
	for in, want := range map[string]string{
		"train.py:12":  "`train.py:12`",
		"a`b":          "`` a`b ``",
		"x``y|":        "``` x``y\\| ```",
		"ok\n## title": "`ok ## title`",
	} {
		if got := MarkdownCode(in); got != want {
			t.Errorf("MarkdownCode(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCSVCell: a cell a spreadsheet would run as a formula starts with an
// apostrophe; numbers and plain text are unchanged; no control reaches
// the file.
func TestCSVCell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"req-1", "req-1"},
		{"-5", "-5"},
		{"-2.5", "-2.5"},
		{"", ""},
		{`=HYPERLINK("http://x","y")`, `'=HYPERLINK("http://x","y")`},
		{"+SUM(1)", "'+SUM(1)"},
		{"@x", "'@x"},
		{"-x", "'-x"},
		{"\t=1", "' =1"},
		{"\r+1", "' +1"},
		{"a\x1b]0;t\x07", "a ]0;t "},
	} {
		if got := CSVCell(tc.in); got != tc.want {
			t.Errorf("CSVCell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, in := range hostile() {
		if why := clean(CSVCell(in)); why != "" {
			t.Errorf("CSVCell(%q) holds %s", in, why)
		}
	}
}

// TestTerminalTextAllocates: text with nothing to replace comes back as
// it is, without a copy.
func TestTerminalTextAllocates(t *testing.T) {
	s := strings.Repeat("forward_and_caller ", 1000)
	if n := testing.AllocsPerRun(20, func() { _ = TerminalText(s) }); n != 0 {
		t.Errorf("%v allocations for clean text", n)
	}
}

// TestJSONText: C1 controls and bidirectional overrides in a JSON string
// become \u escapes that decode to the same string; other text is as it
// was.
func TestJSONText(t *testing.T) {
	for _, in := range hostile() {
		b, err := json.Marshal(map[string]string{"label": in})
		if err != nil {
			t.Fatal(err)
		}
		got := JSONText(b)
		if why := clean(string(got)); why != "" && utf8.Valid(b) {
			t.Errorf("%q: %q holds %s", in, got, why)
		}
		var back, want map[string]string
		json.Unmarshal(b, &want)
		if err := json.Unmarshal(got, &back); err != nil || back["label"] != want["label"] {
			t.Errorf("%q: %q decodes to %q, %v", in, got, back["label"], err)
		}
	}
}
