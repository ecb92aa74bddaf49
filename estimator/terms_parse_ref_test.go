package estimator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
)

// This file keeps, for tests only, the way a term's bytes was compiled
// before the package had its own parser (terms_parse.go): go/parser's
// ParseExpr, then a walk over go/ast. terms_parse_test.go checks that the
// two agree on every text.

// goCompileExpr is compileExpr as it was, over go/parser. syntax says
// the refusal was go/parser's.
func goCompileExpr(src string) (prog []termInstr, info exprInfo, uses uint64, msg string, syntax bool) {
	if msg := checkExprText(src); msg != "" {
		return nil, info, 0, msg, false
	}
	expr, err := parser.ParseExpr(src)
	if err != nil {
		return nil, info, 0, "bytes is not a valid expression: " + err.Error(), true
	}
	ac := astCompiler{}
	prog, info, uses, msg = ac.result(ac.compileAST(expr))
	return prog, info, uses, msg, false
}

// astCompiler is the compiler's walk as it was, over go/ast.
type astCompiler struct{ exprCompiler }

// compileAST is compile over go/ast.
func (ec *astCompiler) compileAST(e ast.Expr) exprInfo {
	if ec.err != "" {
		return exprInfo{}
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return ec.compileAST(x.X)
	case *ast.BasicLit:
		return ec.literalAST(x)
	case *ast.Ident:
		i, ok := varIndex[x.Name]
		if !ok {
			return ec.fail("unknown variable " + strconv.Quote(x.Name) + "; known: " + knownVariables)
		}
		ec.uses |= 1 << i
		ec.prog = append(ec.prog, termInstr{opPush, srcVar, int64(i)})
		dep := i < numPieceVars
		return exprInfo{dep: dep, nonneg: true, safe: true, subadd: true, depth: 1}
	case *ast.UnaryExpr:
		switch x.Op {
		case token.SUB:
			a := ec.compileAST(x.X)
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
		case token.ADD:
			return ec.compileAST(x.X)
		}
		return ec.fail("the operator " + strconv.Quote(x.Op.String()) + " is not allowed; " + allowedSyntax)
	case *ast.StarExpr:
		return ec.fail(`"**" (a power) and a unary "*" are not allowed; write a power as a product; ` + allowedSyntax)
	case *ast.BinaryExpr:
		op, ok := astBinaryOps[x.Op]
		if !ok {
			what := "the operator " + strconv.Quote(x.Op.String())
			switch x.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				what = "the comparison " + strconv.Quote(x.Op.String())
			}
			return ec.fail(what + " is not allowed; " + allowedSyntax)
		}
		a := ec.compileAST(x.X)
		b := ec.compileAST(x.Y)
		return ec.binary(op, a, b)
	case *ast.CallExpr:
		return ec.callAST(x)
	}
	return ec.fail("this kind of expression is not allowed; " + allowedSyntax)
}

// astBinaryOps is binaryOps over go/token.
var astBinaryOps = map[token.Token]termOp{token.ADD: opAdd, token.SUB: opSub, token.MUL: opMul, token.QUO: opDiv}

// literalAST is literal over go/ast.
func (ec *astCompiler) literalAST(x *ast.BasicLit) exprInfo {
	switch x.Kind {
	case token.INT:
	case token.FLOAT, token.IMAG:
		return ec.fail("the number " + x.Value + " is not an integer; " + allowedSyntax)
	default:
		return ec.fail("the literal " + clip(x.Value) + " is not a number; strings and characters are not allowed; " + allowedSyntax)
	}
	s := x.Value
	if len(s) > 1 && s[0] == '0' {
		return ec.fail("the literal " + s + " is not a decimal integer (hexadecimal, octal, binary and leading zeros are not allowed); " + allowedSyntax)
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 10, 64)
	if err != nil {
		return ec.fail("the literal " + s + " is beyond int64 (at most 9,223,372,036,854,775,807)")
	}
	return ec.fold(v, termFault{})
}

// callAST is call over go/ast.
func (ec *astCompiler) callAST(x *ast.CallExpr) exprInfo {
	name := ""
	if id, ok := x.Fun.(*ast.Ident); ok {
		name = id.Name
	}
	var op termOp
	switch name {
	case "ceil":
		op = opCeil
		if len(x.Args) != 2 {
			return ec.fail("ceil takes two arguments, ceil(a, b) = a / b rounded up; got " + strconv.Itoa(len(x.Args)))
		}
	case "min":
		op = opMin
	case "max":
		op = opMax
	default:
		return ec.fail("the only calls allowed are ceil(a, b), min(a, b, ...) and max(a, b, ...)")
	}
	if x.Ellipsis.IsValid() {
		return ec.fail(name + "(...) cannot take \"...\"; list the arguments")
	}
	if len(x.Args) < 2 {
		return ec.fail(name + " takes two or more arguments; got " + strconv.Itoa(len(x.Args)))
	}
	acc := ec.compileAST(x.Args[0])
	for _, arg := range x.Args[1:] {
		b := ec.compileAST(arg)
		acc = ec.binary(op, acc, b)
	}
	return acc
}
