package estimator

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file splits a term's bytes expression into tokens the way Go's own
// scanner does (the expression is "in Go syntax", docs/model.md §8), without
// importing go/scanner: the package is in the WebAssembly build, where
// go/parser and its companions cost about 83 KB of brotli. It accepts
// exactly the tokens Go accepts, inserts the semicolons Go inserts, and
// reports the first problem with its line and column; the wording of the
// problems is ours.

// tokKind is the kind of a token.
type tokKind uint8

const (
	tokEOF     tokKind = iota
	tokSemi            // ";" or a newline Go turns into a semicolon (lit "\n")
	tokIdent           // an identifier that is not a keyword
	tokKeyword         // lit is the keyword
	tokOp              // an operator or delimiter; lit is its text
	tokInt
	tokFloat
	tokImag
	tokChar
	tokString
)

// termToken is one token: its kind, its text and its byte offset.
type termToken struct {
	kind tokKind
	lit  string
	off  int
}

// goKeywords are Go's keywords, which are never identifiers.
var goKeywords = map[string]bool{
	"break": true, "case": true, "chan": true, "const": true, "continue": true, "default": true,
	"defer": true, "else": true, "fallthrough": true, "for": true, "func": true, "go": true,
	"goto": true, "if": true, "import": true, "interface": true, "map": true, "package": true,
	"range": true, "return": true, "select": true, "struct": true, "switch": true, "type": true, "var": true,
}

// goOperators are Go's operators and delimiters. The scanner takes the
// longest one that matches, as Go does ("--" is one token, "- -" two).
var goOperators = func() map[string]bool {
	m := map[string]bool{}
	for _, op := range strings.Fields("+ - * / % & | ^ << >> &^ += -= *= /= %= &= |= ^= <<= >>= &^= && || <- ++ -- == < > = ! ~ != <= >= := ... ( [ { , . ) ] } ; :") {
		m[op] = true
	}
	return m
}()

// termScanner reads tokens from src.
type termScanner struct {
	src  string
	off  int  // the next byte to read
	semi bool // a newline or the end now ends the expression (Go's insertSemi)
	err  string
	pos  int // the offset err refers to
}

// newTermScanner starts on src. Go skips one byte-order mark at the very
// start; anywhere else a mark, a NUL or invalid UTF-8 is an error, even in
// a comment or a string, so they are found here once for the whole text.
func newTermScanner(src string) *termScanner {
	s := &termScanner{src: src}
	if len(src) >= 3 && src[:3] == "\uFEFF" {
		s.off = 3
	}
	for i := s.off; i < len(src); {
		r, w := utf8.DecodeRuneInString(src[i:])
		switch {
		case r == utf8.RuneError && w == 1:
			s.fail(i, "invalid UTF-8")
		case r == 0:
			s.fail(i, "a NUL character")
		case r == '\uFEFF':
			s.fail(i, "a byte-order mark")
		}
		if s.err != "" {
			break
		}
		i += w
	}
	return s
}

// fail records the first problem.
func (s *termScanner) fail(off int, msg string) {
	if s.err == "" {
		s.err, s.pos = msg, off
	}
}

// peek is the byte at off+i, or 0 past the end.
func (s *termScanner) peek(i int) byte {
	if s.off+i < len(s.src) {
		return s.src[s.off+i]
	}
	return 0
}

// next returns the next token; after a problem it returns tokEOF.
func (s *termScanner) next() termToken {
	if s.err != "" {
		return termToken{kind: tokEOF, off: s.pos}
	}
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			s.off++
			continue
		case c == '\n':
			if s.semi {
				s.semi = false
				s.off++
				return termToken{tokSemi, "\n", s.off - 1}
			}
			s.off++
			continue
		case c == '/' && s.peek(1) == '/':
			// The newline that ends it is read as a newline next.
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.off++
			}
			continue
		case c == '/' && s.peek(1) == '*':
			start := s.off
			end := indexFrom(s.src, s.off+2, "*/")
			if end < 0 {
				s.fail(start, "a comment that is not closed")
				return termToken{kind: tokEOF, off: start}
			}
			s.off = end + 2
			if s.semi && indexFrom(s.src[:end], start, "\n") >= 0 {
				s.semi = false
				return termToken{tokSemi, "\n", start}
			}
			continue
		}
		break
	}
	start := s.off
	if start >= len(s.src) {
		if s.semi {
			s.semi = false
			return termToken{tokSemi, "\n", start}
		}
		return termToken{kind: tokEOF, off: start}
	}
	t := s.scan()
	if s.err != "" {
		return termToken{kind: tokEOF, off: s.pos}
	}
	t.off, t.lit = start, s.src[start:s.off]
	switch t.kind {
	case tokIdent:
		if goKeywords[t.lit] {
			t.kind = tokKeyword
		}
		s.semi = t.kind == tokIdent || t.lit == "break" || t.lit == "continue" || t.lit == "fallthrough" || t.lit == "return"
	case tokOp:
		if t.lit == ";" {
			t.kind = tokSemi
		}
		s.semi = t.lit == ")" || t.lit == "]" || t.lit == "}" || t.lit == "++" || t.lit == "--"
	case tokString:
		s.semi = true
		if t.lit[0] == '`' {
			t.lit = stripCR(t.lit) // as Go gives a raw string's text
		}
	default:
		s.semi = true
	}
	return t
}

// indexFrom is the index of sub in s at or after from, or -1.
func indexFrom(s string, from int, sub string) int {
	for i := from; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// stripCR drops the carriage returns of a raw string.
func stripCR(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '\r' {
			b = append(b, s[i])
		}
	}
	return string(b)
}

// rune is the character at s.off and its width (-1 and 0 at the end).
func (s *termScanner) rune() (rune, int) {
	if s.off >= len(s.src) {
		return -1, 0
	}
	return utf8.DecodeRuneInString(s.src[s.off:])
}

// isGoLetter says whether r may start a Go identifier.
func isGoLetter(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r == '_' || r >= utf8.RuneSelf && unicode.IsLetter(r)
}

// isGoDigit says whether r may follow the first letter of a Go
// identifier as a digit.
func isGoDigit(r rune) bool {
	return '0' <= r && r <= '9' || r >= utf8.RuneSelf && unicode.IsDigit(r)
}

// scan reads one token starting at s.off (not whitespace or a comment)
// and returns its kind; its text is what it read.
func (s *termScanner) scan() termToken {
	r, w := s.rune()
	c := s.src[s.off]
	switch {
	case isGoLetter(r):
		for isGoLetter(r) || isGoDigit(r) {
			s.off += w
			r, w = s.rune()
		}
		return termToken{kind: tokIdent}
	case '0' <= c && c <= '9' || c == '.' && '0' <= s.peek(1) && s.peek(1) <= '9':
		return termToken{kind: s.number()}
	case c == '"':
		s.off++
		s.quoted('"')
		return termToken{kind: tokString}
	case c == '\'':
		s.off++
		if n := s.quoted('\''); n != 1 {
			s.fail(s.off, "a character literal must hold one character")
		}
		return termToken{kind: tokChar}
	case c == '`':
		end := indexFrom(s.src, s.off+1, "`")
		if end < 0 {
			s.fail(s.off, "a raw string that is not closed")
			return termToken{}
		}
		s.off = end + 1
		return termToken{kind: tokString}
	}
	for n := min(3, len(s.src)-s.off); n > 0; n-- {
		if goOperators[s.src[s.off:s.off+n]] {
			s.off += n
			return termToken{kind: tokOp}
		}
	}
	s.fail(s.off, "the character "+strconv.QuoteRune(r)+" is not allowed")
	return termToken{}
}

// quoted reads the rest of a string or character literal after its
// opening quote q, checking its escapes as Go does, and returns the
// number of characters it holds.
func (s *termScanner) quoted(q byte) int {
	n := 0
	for {
		if s.off >= len(s.src) || s.src[s.off] == '\n' {
			s.fail(s.off, "a literal that is not closed")
			return n
		}
		c := s.src[s.off]
		if c == q {
			s.off++
			return n
		}
		n++
		if c != '\\' {
			_, w := s.rune()
			s.off += w
			continue
		}
		s.off++
		if !s.escape(q) {
			return n
		}
	}
}

// escape checks one escape after its backslash.
func (s *termScanner) escape(q byte) bool {
	start := s.off - 1
	digits, base, most := 0, 0, 0
	c := s.peek(0)
	switch {
	case c == q || c == '\\' || c == 'a' || c == 'b' || c == 'f' || c == 'n' || c == 'r' || c == 't' || c == 'v':
		s.off++
		return true
	case '0' <= c && c <= '7':
		digits, base, most = 3, 8, 255
	case c == 'x':
		s.off++
		digits, base, most = 2, 16, 255
	case c == 'u':
		s.off++
		digits, base, most = 4, 16, unicode.MaxRune
	case c == 'U':
		s.off++
		digits, base, most = 8, 16, unicode.MaxRune
	default:
		s.fail(start, "an unknown escape")
		return false
	}
	v := 0
	for ; digits > 0; digits-- {
		d := digitValue(s.peek(0))
		if d >= base {
			s.fail(start, "an escape with a wrong digit")
			return false
		}
		v = v*base + d
		s.off++
	}
	if v > most || 0xD800 <= v && v < 0xE000 {
		s.fail(start, "an escape that is not a valid character")
		return false
	}
	return true
}

// digitValue is the value of the hexadecimal digit c, or 16.
func digitValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return 16
}

// number reads a number literal as Go's scanner does: every form Go has
// (decimal, 0x, 0o, 0b, leading-zero octal, fractions, exponents, the i
// of an imaginary, _ between digits), with Go's rules for each, so that
// the same texts are numbers; which of them a term may use is the
// compiler's concern.
func (s *termScanner) number() tokKind {
	start := s.off
	kind := tokInt
	base, prefix := 10, byte(0) // prefix: 0, '0' (octal), 'x', 'o' or 'b'
	seen := 0                   // bit 0: a digit, bit 1: a '_'
	invalid := -1               // the first digit beyond the base
	if s.peek(0) != '.' {
		if s.peek(0) == '0' {
			s.off++
			switch lowerASCII(s.peek(0)) {
			case 'x':
				s.off++
				base, prefix = 16, 'x'
			case 'o':
				s.off++
				base, prefix = 8, 'o'
			case 'b':
				s.off++
				base, prefix = 2, 'b'
			default:
				base, prefix, seen = 8, '0', 1
			}
		}
		seen |= s.digits(base, &invalid)
	}
	if s.peek(0) == '.' {
		kind = tokFloat
		if prefix == 'o' || prefix == 'b' {
			s.fail(s.off, "a radix point in a binary or octal literal")
		}
		s.off++
		seen |= s.digits(base, &invalid)
	}
	if seen&1 == 0 {
		s.fail(s.off, "a number without digits")
	}
	if e := lowerASCII(s.peek(0)); e == 'e' || e == 'p' {
		if e == 'e' && prefix != 0 && prefix != '0' || e == 'p' && prefix != 'x' {
			s.fail(s.off, "an exponent that does not fit the number's base")
		}
		s.off++
		kind = tokFloat
		if c := s.peek(0); c == '+' || c == '-' {
			s.off++
		}
		exp := s.digits(10, nil)
		seen |= exp
		if exp&1 == 0 {
			s.fail(s.off, "an exponent without digits")
		}
	} else if prefix == 'x' && kind == tokFloat {
		s.fail(s.off, "a hexadecimal fraction without a p exponent")
	}
	if s.peek(0) == 'i' {
		s.off++
		kind = tokImag
	}
	if kind == tokInt && invalid >= 0 {
		s.fail(invalid, "a digit beyond the number's base")
	}
	if seen&2 != 0 {
		if i := badSeparator(s.src[start:s.off]); i >= 0 {
			s.fail(start+i, "'_' must separate successive digits")
		}
	}
	return kind
}

// digits reads digits and underscores; digits of base 10 or less read
// every decimal digit, noting the first one beyond base in *invalid.
// The result has bit 0 set if there was a digit, bit 1 if a '_'.
func (s *termScanner) digits(base int, invalid *int) int {
	seen := 0
	for {
		c := s.peek(0)
		switch {
		case c == '_':
			seen |= 2
		case '0' <= c && c <= '9' || base > 10 && digitValue(c) < 16:
			seen |= 1
			if base <= 10 && int(c-'0') >= base && invalid != nil && *invalid < 0 {
				*invalid = s.off
			}
		default:
			return seen
		}
		s.off++
	}
}

// lowerASCII is c in lower case, for letters.
func lowerASCII(c byte) byte { return c | 0x20 }

// badSeparator is the index of the first '_' in the number literal x that
// does not sit between two digits (a base prefix counts as a digit), or
// -1.
func badSeparator(x string) int {
	hex := false
	prev := byte('.') // '0' a digit, '_', or '.' anything else
	i := 0
	if len(x) >= 2 && x[0] == '0' {
		if p := lowerASCII(x[1]); p == 'x' || p == 'o' || p == 'b' {
			hex, prev, i = p == 'x', '0', 2
		}
	}
	for ; i < len(x); i++ {
		c := x[i]
		switch {
		case c == '_':
			if prev != '0' {
				return i
			}
			prev = '_'
		case '0' <= c && c <= '9' || hex && digitValue(c) < 16:
			prev = '0'
		default:
			if prev == '_' {
				return i - 1
			}
			prev = '.'
		}
	}
	if prev == '_' {
		return len(x) - 1
	}
	return -1
}
