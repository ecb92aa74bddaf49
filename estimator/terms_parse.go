package estimator

import (
	"strconv"
	"strings"
)

// This file parses a term's bytes expression, "in Go syntax" (docs/model.md §8),
// into a small tree the compiler (terms.go) walks. It accepts exactly the
// texts Go's parser.ParseExpr accepts, with the same tree shape where the
// compiler looks (precedence, associativity, calls, literals), so that a
// term means what it would mean in Go and is refused with the same message
// as before; its own syntax errors are worded its own way. The Go forms a
// term can never use (selectors, indexes, slices, type assertions,
// composite literals, types, function literals) are parsed only as far
// as Go's grammar needs, and become nodeOther. One limit, on purpose: the
// statements of a function literal are refused as a syntax error
// (termUnsupported), where Go would parse them and the compiler then
// refuse the expression; terms_parse_test.go checks that this is the
// only difference.

// nodeKind is the kind of a node of an expression's tree.
type nodeKind uint8

const (
	nodeOther    nodeKind = iota // any form a term cannot use
	nodeIdent                    // text is the name
	nodeLit                      // text is the literal as written, tok its kind
	nodeParen                    // (x)
	nodeUnary                    // text x, text one of + - ! ^ & ~ <-
	nodeStar                     // *x, a pointer type or an indirection
	nodeBinary                   // x text y
	nodeCall                     // x(args), ellipsis for a final "..."
	nodeSelector                 // x.name
	nodeIndex                    // x[i] or x[a, b, ...]: an index or instantiation
	nodeArray                    // [n]x or []x
	nodeStruct                   // struct{}
	nodeMap                      // map[k]x
	nodeChan                     // chan x, chan<- x, <-chan x (dir)
)

// The directions of a channel type.
const (
	chanSend = 1
	chanRecv = 2
)

// termUnsupported is the syntax error for the part of Go's grammar the
// parser leaves out, statements (see the file's comment).
const termUnsupported = "statements in a function literal are not supported"

// exprNode is a node of an expression's tree.
type exprNode struct {
	kind     nodeKind
	text     string
	tok      tokKind
	x, y     *exprNode
	args     []*exprNode
	ellipsis bool
	dir      uint8
}

// binaryPrec is Go's precedence of each binary operator; "=" is read as
// "==" and then refused, as Go's parser does in an expression.
var binaryPrec = map[string]int{
	"||": 1, "&&": 2,
	"==": 3, "!=": 3, "<": 3, "<=": 3, ">": 3, ">=": 3, "=": 3,
	"+": 4, "-": 4, "|": 4, "^": 4,
	"*": 5, "/": 5, "%": 5, "<<": 5, ">>": 5, "&": 5, "&^": 5,
}

// termParser is a recursive-descent parser over a termScanner. After the
// first error every token is the end, so that the descent unwinds.
type termParser struct {
	s      *termScanner
	tok    termToken
	err    string
	errOff int
}

// parseTermExpr parses src. msg is "" or the syntax error, "line:column:
// what".
func parseTermExpr(src string) (x *exprNode, msg string) {
	p := termParser{s: newTermScanner(src)}
	p.next()
	x = p.expr()
	// One newline (or a comment holding one, or the end) may follow.
	if p.tok.kind == tokSemi && p.tok.lit == "\n" {
		p.next()
	}
	if p.tok.kind != tokEOF {
		p.fail("expected the end of the expression")
	}
	if p.err == "" {
		return x, ""
	}
	line, col := 1, 1
	for i := 0; i < p.errOff && i < len(src); i++ {
		col++
		if src[i] == '\n' {
			line, col = line+1, 1
		}
	}
	return nil, strconv.Itoa(line) + ":" + strconv.Itoa(col) + ": " + p.err
}

// next moves to the next token.
func (p *termParser) next() {
	if p.err != "" {
		return
	}
	p.tok = p.s.next()
	if p.s.err != "" {
		p.err, p.errOff = p.s.err, p.s.pos
	}
}

// fail records the first error, naming what was found, and ends the
// tokens.
func (p *termParser) fail(msg string) {
	if p.err != "" {
		return
	}
	// Worded as Go's parser words it.
	found := "'" + p.tok.lit + "'"
	switch p.tok.kind {
	case tokEOF:
		found = "'EOF'"
	case tokSemi:
		if p.tok.lit == "\n" {
			found = "newline"
		}
	case tokIdent, tokInt, tokFloat, tokImag, tokChar, tokString:
		found = p.tok.lit
	}
	if i := strings.IndexByte(found, '\n'); i >= 0 {
		found = found[:i] + "..." // a raw string: the message is one line
	}
	p.err, p.errOff = msg+", found "+found, p.tok.off
	p.tok = termToken{kind: tokEOF, off: p.tok.off}
}

// is says whether the token is the operator or delimiter op.
func (p *termParser) is(op string) bool { return p.tok.kind == tokOp && p.tok.lit == op }

// isKeyword says whether the token is the keyword kw.
func (p *termParser) isKeyword(kw string) bool { return p.tok.kind == tokKeyword && p.tok.lit == kw }

// expect moves past op, or fails.
func (p *termParser) expect(op string) {
	if !p.is(op) {
		p.fail("expected '" + op + "'")
	}
	p.next()
}

// other is a node of a form a term cannot use.
func other() *exprNode { return &exprNode{kind: nodeOther} }

// expr parses an expression.
func (p *termParser) expr() *exprNode { return p.binary(1) }

// binary parses operands joined by operators of precedence prec1 or
// more, left to right.
func (p *termParser) binary(prec1 int) *exprNode {
	x := p.unary()
	for {
		prec := 0
		if p.tok.kind == tokOp {
			prec = binaryPrec[p.tok.lit]
		}
		if prec < prec1 {
			return x
		}
		op := p.tok.lit
		if op == "=" {
			p.fail("expected '=='")
			return x
		}
		p.next()
		y := p.binary(prec + 1)
		x = &exprNode{kind: nodeBinary, text: op, x: x, y: y}
	}
}

// unary parses a unary expression.
func (p *termParser) unary() *exprNode {
	if p.tok.kind != tokOp {
		return p.primary()
	}
	switch op := p.tok.lit; op {
	case "+", "-", "!", "^", "&", "~":
		p.next()
		return &exprNode{kind: nodeUnary, text: op, x: p.unary()}
	case "*":
		p.next()
		return &exprNode{kind: nodeStar, x: p.unary()}
	case "<-":
		p.next()
		x := p.unary()
		if x.kind == nodeChan {
			p.receiveChan(x)
			return x
		}
		return &exprNode{kind: nodeUnary, text: op, x: x}
	}
	return p.primary()
}

// receiveChan makes the channel type x, read after a "<-", a receiving
// channel, as Go does: <-chan T, and <-chan<- chan T is <-chan (<-chan T).
func (p *termParser) receiveChan(x *exprNode) {
	dir := uint8(chanSend)
	for typ := x; typ != nil && dir == chanSend; {
		if typ.dir == chanRecv {
			p.fail("expected 'chan'")
		}
		dir, typ.dir = typ.dir, chanRecv
		if typ.x != nil && typ.x.kind == nodeChan {
			typ = typ.x
		} else {
			typ = nil
		}
	}
	if dir == chanSend {
		p.fail("expected a channel type")
	}
}

// primary parses an operand and what follows it: selectors, type
// assertions, indexes, slices, calls, composite literals.
func (p *termParser) primary() *exprNode {
	x := p.operand()
	for p.tok.kind == tokOp {
		switch p.tok.lit {
		case ".":
			p.next()
			switch {
			case p.tok.kind == tokIdent:
				p.next()
				x = &exprNode{kind: nodeSelector, x: x}
			case p.is("("):
				p.next()
				if p.isKeyword("type") {
					p.next()
				} else {
					p.typ()
				}
				p.expect(")")
				x = other()
			default:
				p.fail("expected a selector or a type assertion")
				return x
			}
		case "[":
			x = p.index(x)
		case "(":
			x = p.call(x)
		case "{":
			t := x
			for t.kind == nodeParen {
				t = t.x
			}
			switch t.kind {
			case nodeIdent, nodeSelector, nodeIndex, nodeArray, nodeStruct, nodeMap:
			default:
				return x
			}
			if t != x {
				p.fail("cannot parenthesize the type of a composite literal")
			}
			p.literalValue()
			x = other()
		default:
			return x
		}
	}
	return x
}

// operand parses an identifier, a literal, a parenthesized expression, a
// function type or literal, or a type.
func (p *termParser) operand() *exprNode {
	switch t := p.tok; t.kind {
	case tokIdent:
		p.next()
		return &exprNode{kind: nodeIdent, text: t.lit}
	case tokInt, tokFloat, tokImag, tokChar, tokString:
		p.next()
		return &exprNode{kind: nodeLit, text: t.lit, tok: t.kind}
	}
	if p.is("(") {
		p.next()
		x := p.expr()
		p.expect(")")
		return &exprNode{kind: nodeParen, x: x}
	}
	if p.isKeyword("func") {
		p.funcType()
		if p.is("{") {
			p.next()
			if !p.is("}") && p.tok.kind != tokEOF && !p.isKeyword("case") && !p.isKeyword("default") {
				p.fail(termUnsupported)
			}
			p.expect("}")
		}
		return other()
	}
	if x := p.tryType(); x != nil {
		return x
	}
	p.fail("expected operand")
	return other()
}

// index parses what follows x: "[" and an index, a slice or type
// arguments.
func (p *termParser) index(x *exprNode) *exprNode {
	p.next()
	if p.is("]") {
		p.fail("expected operand")
	}
	colons := 0
	var given [3]bool
	if !p.is(":") {
		p.expr()
		given[0] = true
	}
	switch {
	case p.is(":"):
		for p.is(":") && colons < 2 {
			colons++
			p.next()
			if !p.is(":") && !p.is("]") && p.tok.kind != tokEOF {
				p.expr()
				given[colons] = true
			}
		}
	case p.is(","):
		for p.is(",") {
			p.next()
			if !p.is("]") && p.tok.kind != tokEOF {
				p.typ()
			}
		}
	}
	p.expect("]")
	if colons == 2 && (!given[1] || !given[2]) {
		p.fail("a 3-index slice needs its middle and final index")
	}
	if colons > 0 {
		return other()
	}
	return &exprNode{kind: nodeIndex, x: x}
}

// call parses the arguments of a call of fun, after which a final "..."
// and a trailing comma may come.
func (p *termParser) call(fun *exprNode) *exprNode {
	p.next()
	c := &exprNode{kind: nodeCall, x: fun}
	for !p.is(")") && p.tok.kind != tokEOF && !c.ellipsis {
		c.args = append(c.args, p.expr())
		if p.is("...") {
			c.ellipsis = true
			p.next()
		}
		if !p.is(",") {
			break
		}
		p.next()
	}
	p.expect(")")
	return c
}

// literalValue parses the braces of a composite literal: elements, each
// an expression or braces, optionally a key and a colon first.
func (p *termParser) literalValue() {
	p.expect("{")
	for !p.is("}") && p.tok.kind != tokEOF {
		for part := 0; part < 2; part++ {
			if p.is("{") {
				p.literalValue()
			} else {
				p.expr()
			}
			if part == 1 || !p.is(":") {
				break
			}
			p.next()
		}
		if !p.is(",") {
			break
		}
		p.next()
	}
	p.expect("}")
}
