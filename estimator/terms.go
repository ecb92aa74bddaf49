package estimator

import (
	"strconv"
	"strings"
)

// This file compiles the "bytes" expression of a term (docs/model.md §8) once per
// config into a small postfix program over a fixed array of variables, so
// that pricing a piece evaluates it without map lookups or allocations.

// The variables a term's bytes may use, in the order error messages list
// them. The first six are the piece's own; the others come from the
// resolved config the piece belongs to.
const (
	varN    = iota // n: the piece's rows
	varP           // p: its projected rows
	varT           // t: its target rows
	varR           // r: its FC2 routed rows
	varD           // D: min(p, C) x V x 2
	varDt          // Dt: min(t, C) x V x 2
	varReqN        // N
	varReqP        // P
	varReqT        // T
	varS           // s
	varV
	varH
	varL
	varK
	varM
	varI
	varO
	varB
	varE
	varC
	varTopK
	varG
	varHk
	varDk
	varHv
	varDv
	numVars
	numPieceVars = varReqN
)

var varNames = [numVars]string{"n", "p", "t", "r", "D", "Dt", "N", "P", "T", "s", "V", "H", "L", "K", "M", "I", "O", "b", "E", "C", "k", "g", "Hk", "Dk", "Hv", "Dv"}

// termVars is the value of every variable for one piece.
type termVars [numVars]int64

// setConfig fills the variables that come from r.
func (v *termVars) setConfig(r *Resolved) {
	g := int64(0)
	if r.Grad {
		g = 1
	}
	copy(v[numPieceVars:], []int64{r.N, r.P, r.T, r.S, r.V, r.H, r.L, r.K, r.MoEWidth,
		r.I, r.O, r.B, r.EP, r.C, r.Outputs.TopK, g, r.Hk, r.Dk, r.Hv, r.Dv})
}

// termOp is the operation of an instruction of a compiled expression.
// Each instruction takes one operand b from its source (the constant arg,
// the variable vars[arg], or popped off the stack); a binary operation
// replaces the top of the stack, a, by a op b. So n * 2 is two
// instructions: push n, multiply by the constant 2.
type termOp uint8

const (
	opPush termOp = iota // push b
	opNeg                // push -b
	opAdd
	opSub
	opMul
	opDiv
	opCeil
	opMin
	opMax
)

// The sources of an instruction's operand.
const (
	srcStack uint8 = iota
	srcConst
	srcVar
)

type termInstr struct {
	op  termOp
	src uint8
	arg int64
}

// maxTermStack bounds the operands pending while a program runs. An
// expression of at most 256 bytes cannot need more: each pending operand
// takes at least an operand and an operator character.
const maxTermStack = 130

// exprInfo is what the compiler knows of a subexpression.
type exprInfo struct {
	constant bool  // no variables: val is its value
	val      int64 // when constant
	dep      bool  // depends on the piece (n, p, t, r, D, Dt)
	nonneg   bool  // never negative
	// safe: nondecreasing in the piece's variables, never negative, and it
	// can fail only where every larger piece fails too (an overflow) or
	// at every piece alike. The admission ladder's shortcuts need it.
	safe bool
	// subadd: safe, and the pieces of a split together need at least what
	// the whole needs (f(x) + f(y) >= f(x + y)). Retained bytes need it.
	subadd bool
	depth  int // operands pending at most while it runs
}

// exprCompiler turns the tree of one expression into a program.
type exprCompiler struct {
	prog []termInstr
	uses uint64 // bit i: variable i is used
	err  string
}

const allowedSyntax = "allowed: decimal integers (_ separators allowed), the variables, + - * /, parentheses, ceil(a, b), min(a, b, ...), max(a, b, ...)"

func (ec *exprCompiler) fail(msg string) exprInfo {
	if ec.err == "" {
		ec.err = msg
	}
	return exprInfo{}
}

var varIndex = func() map[string]int {
	m := make(map[string]int, numVars)
	for i, name := range varNames {
		m[name] = i
	}
	return m
}()

// knownVariables lists the variable names for error messages.
var knownVariables = strings.Join(varNames[:], ", ")

// compile emits the program of e and says what it knows of it. It walks
// the tree depth first, left to right, checking a node before its
// operands, so the first problem it meets is the one reported.
func (ec *exprCompiler) compile(e *exprNode) exprInfo {
	if ec.err != "" {
		return exprInfo{}
	}
	switch e.kind {
	case nodeParen:
		return ec.compile(e.x)
	case nodeLit:
		return ec.literal(e)
	case nodeIdent:
		i, ok := varIndex[e.text]
		if !ok {
			return ec.fail("unknown variable " + strconv.Quote(e.text) + "; known: " + knownVariables)
		}
		ec.uses |= 1 << i
		ec.prog = append(ec.prog, termInstr{opPush, srcVar, int64(i)})
		dep := i < numPieceVars
		return exprInfo{dep: dep, nonneg: true, safe: true, subadd: true, depth: 1}
	case nodeUnary:
		switch e.text {
		case "-":
			a := ec.compile(e.x)
			if ec.err != "" {
				return a
			}
			if a.constant {
				ec.prog = ec.prog[:len(ec.prog)-1] // replaced by the folded value
				v, f := negate(a.val)
				return ec.fold(v, f)
			}
			ec.prog = append(ec.prog, termInstr{op: opNeg, src: srcStack})
			return exprInfo{dep: a.dep, safe: !a.dep, depth: a.depth}
		case "+":
			return ec.compile(e.x)
		}
		return ec.fail("the operator " + strconv.Quote(e.text) + " is not allowed; " + allowedSyntax)
	case nodeStar:
		return ec.fail(`"**" (a power) and a unary "*" are not allowed; write a power as a product; ` + allowedSyntax)
	case nodeBinary:
		op, ok := binaryOps[e.text]
		if !ok {
			what := "the operator " + strconv.Quote(e.text)
			if binaryPrec[e.text] == 3 {
				what = "the comparison " + strconv.Quote(e.text)
			}
			return ec.fail(what + " is not allowed; " + allowedSyntax)
		}
		a := ec.compile(e.x)
		b := ec.compile(e.y)
		return ec.binary(op, a, b)
	case nodeCall:
		return ec.call(e)
	}
	return ec.fail("this kind of expression is not allowed; " + allowedSyntax)
}

// binaryOps are the binary operators a term may use.
var binaryOps = map[string]termOp{"+": opAdd, "-": opSub, "*": opMul, "/": opDiv}

// literal compiles a literal: only a decimal integer within int64.
func (ec *exprCompiler) literal(x *exprNode) exprInfo {
	switch x.tok {
	case tokInt:
	case tokFloat, tokImag:
		return ec.fail("the number " + x.text + " is not an integer; " + allowedSyntax)
	default:
		return ec.fail("the literal " + clip(x.text) + " is not a number; strings and characters are not allowed; " + allowedSyntax)
	}
	s := x.text
	if len(s) > 1 && s[0] == '0' {
		return ec.fail("the literal " + s + " is not a decimal integer (hexadecimal, octal, binary and leading zeros are not allowed); " + allowedSyntax)
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 10, 64)
	if err != nil {
		return ec.fail("the literal " + s + " is beyond int64 (at most 9,223,372,036,854,775,807)")
	}
	return ec.fold(v, termFault{})
}

// fold replaces the program of a constant subexpression (already emitted)
// by its value.
func (ec *exprCompiler) fold(v int64, f termFault) exprInfo {
	if f.kind != faultNone {
		return ec.fail(f.message(-1))
	}
	ec.prog = append(ec.prog, termInstr{opPush, srcConst, v})
	return exprInfo{constant: true, val: v, nonneg: v >= 0, safe: true, subadd: v >= 0, depth: 1}
}

// binary emits op over a and b, whose programs were just emitted, b's
// last.
func (ec *exprCompiler) binary(op termOp, a, b exprInfo) exprInfo {
	if ec.err != "" {
		return exprInfo{}
	}
	if a.constant && b.constant {
		ec.prog = ec.prog[:len(ec.prog)-2]
		v, f := apply(op, a.val, b.val)
		return ec.fold(v, f)
	}
	// A constant operand that makes a division fail at every piece is an
	// error now, not when the config is priced.
	if op == opDiv || op == opCeil {
		if b.constant && b.val <= 0 {
			return ec.fail(termFault{faultDivZero, b.val}.message(-1))
		}
		if a.constant && a.val < 0 {
			return ec.fail(termFault{faultDivNegative, a.val}.message(-1))
		}
	}
	// An operand that is a constant or a variable is taken from the
	// instruction rather than pushed and popped.
	if last := &ec.prog[len(ec.prog)-1]; last.op == opPush {
		last.op = op
	} else {
		ec.prog = append(ec.prog, termInstr{op: op, src: srcStack})
	}
	in := exprInfo{dep: a.dep || b.dep, depth: max(a.depth, b.depth+1)}
	// A subexpression that does not depend on the piece is the same for
	// every piece: it is safe whatever its value. A piece-dependent one
	// is safe when its operands are, as each rule below shows.
	switch op {
	case opAdd:
		in.nonneg = a.nonneg && b.nonneg
		in.safe = a.safe && b.safe && in.nonneg
		in.subadd = a.subadd && b.subadd
	case opSub:
		in.safe = !in.dep
	case opMul:
		in.nonneg = a.nonneg && b.nonneg
		in.safe = a.safe && b.safe && in.nonneg
		// c x f(x) + c x f(y) >= c x f(x + y) when c does not depend
		// on the piece; the product of two piece quantities does not.
		in.subadd = a.subadd && b.subadd && (!a.dep || !b.dep)
	case opDiv, opCeil:
		in.nonneg = true
		in.safe = a.safe && a.nonneg && !b.dep
		// ceil is subadditive, floor is not: floor(1/2) + floor(1/2) <
		// floor(2/2).
		in.subadd = a.subadd && !b.dep && (op == opCeil || !a.dep)
	case opMin:
		in.nonneg = a.nonneg && b.nonneg
		in.safe = a.safe && b.safe && in.nonneg
		in.subadd = a.subadd && b.subadd && (!a.dep || !b.dep)
	case opMax:
		in.nonneg = a.nonneg || b.nonneg
		in.safe = a.safe && b.safe && a.nonneg && b.nonneg
		in.subadd = a.subadd && b.subadd
	}
	if !in.dep {
		in.safe, in.subadd = true, in.nonneg
	}
	in.subadd = in.subadd && in.safe
	return in
}

// call compiles a call: ceil, min or max by name, not parenthesized.
func (ec *exprCompiler) call(x *exprNode) exprInfo {
	name := ""
	if x.x.kind == nodeIdent {
		name = x.x.text
	}
	var op termOp
	switch name {
	case "ceil":
		op = opCeil
		if len(x.args) != 2 {
			return ec.fail("ceil takes two arguments, ceil(a, b) = a / b rounded up; got " + strconv.Itoa(len(x.args)))
		}
	case "min":
		op = opMin
	case "max":
		op = opMax
	default:
		return ec.fail("the only calls allowed are ceil(a, b), min(a, b, ...) and max(a, b, ...)")
	}
	if x.ellipsis {
		return ec.fail(name + "(...) cannot take \"...\"; list the arguments")
	}
	if len(x.args) < 2 {
		return ec.fail(name + " takes two or more arguments; got " + strconv.Itoa(len(x.args)))
	}
	acc := ec.compile(x.args[0])
	for _, arg := range x.args[1:] {
		b := ec.compile(arg)
		acc = ec.binary(op, acc, b)
	}
	return acc
}
