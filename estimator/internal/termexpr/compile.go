package termexpr

import (
	"strconv"
	"strings"
)

// MaxText is the longest expression, in bytes.
const MaxText = 256

// Allowed ends every message about the form of an expression.
const Allowed = "allowed: decimal integers (_ separators allowed), the variables, + - * /, parentheses, ceil(a, b), min(a, b, ...), max(a, b, ...)"

// Facts is what the compiler knows of an expression.
type Facts struct {
	Constant bool  // no variables: Value is its value
	Value    int64 // when Constant
	Dep      bool  // depends on the piece (a variable below Lang's piece)
	NonNeg   bool  // never negative
	// Safe: nondecreasing in the piece's variables, never negative, and it
	// can fail only where every larger piece fails too (an overflow) or at
	// every piece alike. The admission ladder's shortcuts need it.
	Safe bool
	// Subadd: Safe, and the pieces of a split together need at least what
	// the whole needs (f(x) + f(y) >= f(x + y)). Retained bytes need it.
	Subadd bool
	Depth  int // operands pending at most while it runs
}

// Lang is the language over a list of variables: variable i is vars[i]
// when a program runs, and the first piece of them depend on the piece.
type Lang struct {
	index map[string]int
	known string // the names, for messages
	piece int
	// hints name the variable a name a person may write stands for
	// (a config field's: "hidden_size" is H), for the unknown-variable
	// message.
	hints map[string]string
}

// WithHints returns l whose message for an unknown variable that is a
// key of hints says what to write instead: hints["rows"] = "n (the
// piece's rows; N is the request's)".
func (l *Lang) WithHints(hints map[string]string) *Lang {
	c := *l
	c.hints = hints
	return &c
}

// Hints are the names WithHints set, and the variable each points to.
func (l *Lang) Hints() map[string]string { return l.hints }

// NewLang is the language over the variables names, of which the first
// piece depend on the piece priced.
func NewLang(names []string, piece int) *Lang {
	l := &Lang{index: make(map[string]int, len(names)), known: strings.Join(names, ", "), piece: piece}
	for i, name := range names {
		l.index[name] = i
	}
	return l
}

// Compile parses and compiles src. uses has bit i set when variable i
// appears. msg says what is wrong, naming it, or is "".
func (l *Lang) Compile(src string) (prog []Instr, f Facts, uses uint64, msg string) {
	if len(src) > MaxText {
		return nil, f, 0, "bytes is " + strconv.Itoa(len(src)) + " bytes long; at most " + strconv.Itoa(MaxText) + " are allowed"
	}
	if strings.TrimSpace(src) == "" {
		return nil, f, 0, "bytes is empty; write the tensor's bytes as an expression, for example 2 * D; " + Allowed
	}
	p := parser{lang: l, sc: newScanner(src)}
	p.next()
	f = p.expr()
	if p.err == "" && p.tok.kind == tokEnd {
		p.next()
		if p.tok.kind == tokBad {
			p.fail(p.tok.msg)
		} else if p.tok.kind != tokEOF {
			p.syntax("a line break after an operand ends the expression, and " + p.describe() + " follows it; break a line after an operator instead")
		}
	}
	if p.err == "" && p.tok.kind != tokEOF {
		p.unexpected("an operator or the end")
	}
	switch {
	case p.err != "":
		return nil, f, 0, p.err
	case f.Constant && f.Value < 0:
		return nil, f, 0, Fault{FaultNegative, f.Value}.Message(-1)
	case f.Depth > MaxStack:
		return nil, f, 0, "bytes nests too deeply (more than " + strconv.Itoa(MaxStack) + " pending operands)"
	}
	return p.prog, f, p.uses, ""
}

// parser reads the tokens of one expression and compiles as it goes;
// after the first error it stops reading.
type parser struct {
	lang *Lang
	sc   *scanner
	tok  token
	compiler
}

func (p *parser) next() { p.tok = p.sc.next() }

func (p *parser) isOp(ops string) bool {
	return p.err == "" && p.tok.kind == tokOp && strings.Contains(ops, p.tok.text)
}

// syntax fails with a syntax error at the current token.
func (p *parser) syntax(what string) Facts {
	return p.fail("bytes is not a valid expression: " + position(p.sc.src, p.tok.off) + ": " + what + "; " + Allowed)
}

// unexpected fails at a token that is not the one wanted.
func (p *parser) unexpected(want string) Facts {
	if p.tok.kind == tokBad {
		return p.fail(p.tok.msg)
	}
	return p.syntax("expected " + want + ", found " + p.describe())
}

func (p *parser) describe() string {
	switch p.tok.kind {
	case tokEOF:
		return "the end"
	case tokEnd:
		return "a line break (after an operand it ends the expression: break a line after an operator or a comma)"
	}
	return strconv.Quote(p.tok.text)
}

func (p *parser) expr() Facts {
	a := p.product()
	for p.isOp("+-") {
		op := OpAdd
		if p.tok.text == "-" {
			op = OpSub
		}
		p.next()
		a = p.binary(op, a, p.product())
	}
	return a
}

func (p *parser) product() Facts {
	a := p.unary()
	for p.isOp("*/") {
		op := OpMul
		if p.tok.text == "/" {
			op = OpDiv
		}
		p.next()
		a = p.binary(op, a, p.unary())
	}
	return a
}

func (p *parser) unary() Facts {
	switch {
	case p.isOp("-"):
		p.next()
		return p.negate(p.unary())
	case p.isOp("+"):
		p.next()
		return p.unary()
	}
	return p.operand()
}

func (p *parser) operand() Facts {
	if p.err != "" {
		return Facts{}
	}
	switch t := p.tok; {
	case t.kind == tokNum:
		p.next()
		return p.literal(t)
	case t.kind == tokName:
		p.next()
		if p.isOp("(") {
			return p.call(t.text)
		}
		i, ok := p.lang.index[t.text]
		if !ok {
			if h, ok := p.lang.hints[t.text]; ok {
				return p.fail("unknown variable " + strconv.Quote(t.text) + "; write " + h + " (the variables are " + p.lang.known + ")")
			}
			return p.fail("unknown variable " + strconv.Quote(t.text) + "; known: " + p.lang.known)
		}
		return p.variable(i, i < p.lang.piece)
	case p.isOp("("):
		p.next()
		f := p.expr()
		if !p.isOp(")") {
			return p.unexpected(`")"`)
		}
		p.next()
		return f
	case p.isOp("*"):
		return p.fail(`"**" (a power) and a unary "*" are not allowed; write a power as a product; ` + Allowed)
	}
	return p.unexpected("a number, a variable, a call or \"(\"")
}

// literal compiles a number: a decimal integer within int64.
func (p *parser) literal(t token) Facts {
	s := t.text
	switch {
	case len(s) > 1 && s[0] == '0' && strings.ContainsAny(s[1:2], "xXoObB"):
		return p.fail("the literal " + clip(s) + " is not a decimal integer (hexadecimal, octal, binary and leading zeros are not allowed); " + Allowed)
	case strings.ContainsAny(s, ".eE") || strings.HasSuffix(s, "i"):
		return p.fail("the number " + clip(s) + " is not an integer; " + Allowed)
	}
	for i := range len(s) {
		c := s[i]
		if !isDigit(c) && (c != '_' || i+1 == len(s) || !isDigit(s[i-1]) || !isDigit(s[i+1])) {
			p.tok = t // the message points at the number
			if c == '_' {
				return p.syntax("'_' must separate successive digits, in " + clip(s))
			}
			return p.syntax(strconv.Quote(clip(s)) + " is neither a number nor a name")
		}
	}
	if len(s) > 1 && s[0] == '0' {
		return p.fail("the literal " + s + " is not a decimal integer (hexadecimal, octal, binary and leading zeros are not allowed); " + Allowed)
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 10, 64)
	if err != nil {
		return p.fail("the literal " + clip(s) + " is beyond int64 (at most 9,223,372,036,854,775,807)")
	}
	return p.fold(v, Fault{})
}

// call compiles name(args) after the name, at the "(".
func (p *parser) call(name string) Facts {
	var op Op
	switch name {
	case "ceil":
		op = OpCeil
	case "min":
		op = OpMin
	case "max":
		op = OpMax
	default:
		return p.fail("unknown function " + strconv.Quote(name) + "; the functions are ceil(a, b), min(a, b, ...) and max(a, b, ...)")
	}
	p.next()
	var acc Facts
	n := 0
	for p.err == "" && !p.isOp(")") {
		if op == OpCeil && n == 2 {
			return p.fail("ceil takes two arguments, ceil(a, b) = a / b rounded up; got more")
		}
		f := p.expr()
		if n++; n == 1 {
			acc = f
		} else {
			acc = p.binary(op, acc, f)
		}
		if p.isOp(",") {
			p.next()
		} else if !p.isOp(")") {
			return p.unexpected(`"," or ")" in ` + name + "(...)")
		}
	}
	if p.err != "" {
		return Facts{}
	}
	p.next()
	if op == OpCeil && n != 2 {
		return p.fail("ceil takes two arguments, ceil(a, b) = a / b rounded up; got " + strconv.Itoa(n))
	}
	if n < 2 {
		return p.fail(name + " takes two or more arguments; got " + strconv.Itoa(n))
	}
	return acc
}
