package termexpr

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// tokKind is the kind of a token of an expression.
type tokKind uint8

const (
	tokEOF  tokKind = iota
	tokEnd          // a line break after an operand: the expression ends there
	tokNum          // a number as written; literal checks it
	tokName         // a variable's or a function's name
	tokOp           // one of + - * / ( ) ,
	tokBad          // anything else; msg says what it is
)

type token struct {
	kind tokKind
	text string
	off  int    // byte offset in the source
	msg  string // tokBad: the message
}

// scanner splits an expression into tokens. Space, tab and carriage
// return separate tokens; so do comments, // to the end of the line and
// /* ... */, as in Go. A line break is a space, except after an operand
// (a number, a name or a closing parenthesis), where it ends the
// expression, as Go's automatic semicolon does; a block comment holding
// a line break counts as one. Text after that end is an error.
type scanner struct {
	src          string
	off          int
	afterOperand bool // the last token ends an operand
}

func newScanner(src string) *scanner {
	s := &scanner{src: src}
	if strings.HasPrefix(src, "\uFEFF") { // a byte-order mark, as Go skips it
		s.off = len("\uFEFF")
	}
	return s
}

// badOps are the operators of Go a term cannot use, longest first where
// one is the start of another, each with how a message names it.
var badOps = []struct{ op, what string }{
	{"...", `"..." is not allowed; list the arguments`},
	{"&^", "operator"}, {"&&", "operator"}, {"||", "operator"}, {"<<", "operator"}, {">>", "operator"},
	{"<-", "operator"}, {"++", "operator"}, {"--", "operator"}, {"+=", "operator"}, {"-=", "operator"},
	{"*=", "operator"}, {"/=", "operator"}, {":=", "operator"},
	{"==", "comparison"}, {"!=", "comparison"}, {"<=", "comparison"}, {">=", "comparison"},
	{"<", "comparison"}, {">", "comparison"},
	{"%", "operator"}, {"&", "operator"}, {"|", "operator"}, {"^", "operator"}, {"!", "operator"},
	{"~", "operator"}, {"=", "operator"},
}

func (s *scanner) next() token {
	for s.off < len(s.src) {
		c, rest := s.src[s.off], s.src[s.off:]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			s.off++
			continue
		case c == '\n':
			if s.afterOperand {
				s.afterOperand = false
				s.off++
				return token{kind: tokEnd, off: s.off - 1}
			}
			s.off++
			continue
		case strings.HasPrefix(rest, "//"), strings.HasPrefix(rest, "/*"):
			start := s.off
			end := strings.IndexByte(rest, '\n') // a line comment stops before it
			if rest[1] == '*' {
				if end = strings.Index(rest[2:], "*/"); end < 0 {
					return s.bad(start, "bytes is not a valid expression: "+position(s.src, start)+": the comment /* is not closed by */; "+Allowed)
				}
				end += 4
			} else if end < 0 {
				end = len(rest)
			}
			text := rest[:end]
			if !utf8.ValidString(text) || strings.ContainsAny(text, "\x00\uFEFF") {
				return s.bad(start, "bytes is not a valid expression: "+position(s.src, start)+": a comment holds a NUL, a byte-order mark or a byte that is not UTF-8; "+Allowed)
			}
			s.off += end
			if rest[1] == '*' && strings.Contains(text, "\n") && s.afterOperand {
				s.afterOperand = false
				return token{kind: tokEnd, off: start}
			}
			continue
		}
		return s.token()
	}
	return token{kind: tokEOF, off: s.off}
}

// token scans the token at s.off, which is not a space or a comment.
func (s *scanner) token() token {
	start, rest := s.off, s.src[s.off:]
	c := rest[0]
	word := func(more func(byte) bool) string {
		n := 1
		for n < len(rest) && more(rest[n]) {
			n++
		}
		s.off += n
		return rest[:n]
	}
	switch {
	case isDigit(c) || c == '.' && len(rest) > 1 && isDigit(rest[1]):
		s.afterOperand = true
		return token{kind: tokNum, text: word(func(b byte) bool { return isLetter(b) || isDigit(b) || b == '.' }), off: start}
	case isLetter(c):
		s.afterOperand = true
		return token{kind: tokName, text: word(func(b byte) bool { return isLetter(b) || isDigit(b) }), off: start}
	case c == '"' || c == '\'' || c == '`':
		end := strings.IndexByte(rest[1:], c) + 2
		if end < 2 {
			end = len(rest)
		}
		lit := rest[:end]
		if i := strings.IndexAny(lit, "\r\n"); i >= 0 { // one line
			lit = lit[:i] + "..."
		}
		return s.bad(start, "the literal "+clip(lit)+" is not a number; strings and characters are not allowed; "+Allowed)
	}
	for _, b := range badOps {
		if strings.HasPrefix(rest, b.op) {
			if b.what != "operator" && b.what != "comparison" {
				return s.bad(start, b.what+"; "+Allowed)
			}
			return s.bad(start, "the "+b.what+" "+strconv.Quote(b.op)+" is not allowed; "+Allowed)
		}
	}
	if strings.IndexByte("()+-*/,", c) >= 0 {
		s.off++
		s.afterOperand = c == ')'
		return token{kind: tokOp, text: rest[:1], off: start}
	}
	r, size := utf8.DecodeRuneInString(rest)
	if r == utf8.RuneError && size <= 1 {
		return s.bad(start, "bytes is not a valid expression: "+position(s.src, start)+": the byte 0x"+strconv.FormatUint(uint64(c), 16)+" is not UTF-8; "+Allowed)
	}
	return s.bad(start, "the character "+strconv.Quote(string(r))+" is not allowed; "+Allowed)
}

// bad is a token the language does not have; scanning stops there.
func (s *scanner) bad(off int, msg string) token {
	s.off = len(s.src)
	return token{kind: tokBad, off: off, msg: msg}
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }

// position is line:column of the byte at off, both from 1, the column in
// bytes (as Go's parser counts).
func position(src string, off int) string {
	line := 1 + strings.Count(src[:off], "\n")
	col := off + 1
	if i := strings.LastIndexByte(src[:off], '\n'); i >= 0 {
		col = off - i
	}
	return strconv.Itoa(line) + ":" + strconv.Itoa(col)
}

// clip shortens a text quoted in a message to at most 40 bytes.
func clip(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return s
}
