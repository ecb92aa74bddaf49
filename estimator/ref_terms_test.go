package estimator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"math/big"
	"regexp"
	"strings"
)

// The reference's reading of docs/model.md §8 (terms), written from the
// text of docs/model.md like the rest of ref_test.go: it walks the
// expression's tree at every piece with arbitrary-precision integers and
// checks that each intermediate fits in int64, rather than compiling it.

// refTerm is one term as the reference keeps it.
type refTerm struct {
	name, place string
	holders     []string // the variants that hold it
	expr        ast.Expr
}

var refTermName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)

// refTerms checks the terms' shape (count, names, places, revisions,
// length, syntax); bad is true when the config must be refused.
func refTerms(terms []Term) (out []refTerm, bad bool) {
	if len(terms) > 16 {
		return nil, true
	}
	seen := map[string]bool{}
	for _, t := range terms {
		if !refTermName.MatchString(t.Name) || seen[t.Name] || len(t.Bytes) > 256 {
			return nil, true
		}
		seen[t.Name] = true
		switch t.Place {
		case "retained", "activations", "head", "fc2", "gdn":
		case "stage":
			switch t.Name {
			case "activations", "head", "fc2", "gdn", "retained":
				return nil, true
			}
		default:
			return nil, true
		}
		var holders []string
		switch t.Revision {
		case "", "candidate":
			holders = []string{"candidate"}
		case "baseline":
			holders = []string{"baseline"}
		case "both":
			holders = []string{"baseline", "candidate", "lower"}
		default:
			return nil, true
		}
		e, err := parser.ParseExpr(t.Bytes)
		if err != nil || !refWellFormed(e) {
			return nil, true
		}
		out = append(out, refTerm{t.Name, t.Place, holders, e})
	}
	return out, false
}

// refWellFormed is the grammar of docs/model.md §8: decimal literals, the
// variables, + - * / (binary, and unary - and +), parentheses, ceil with
// two arguments, min and max with two or more.
func refWellFormed(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BasicLit:
		return x.Kind == token.INT && (x.Value == "0" || x.Value[0] >= '1' && x.Value[0] <= '9')
	case *ast.Ident:
		_, ok := refVarNames[x.Name]
		return ok
	case *ast.ParenExpr:
		return refWellFormed(x.X)
	case *ast.UnaryExpr:
		return (x.Op == token.SUB || x.Op == token.ADD) && refWellFormed(x.X)
	case *ast.BinaryExpr:
		switch x.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO:
			return refWellFormed(x.X) && refWellFormed(x.Y)
		}
		return false
	case *ast.CallExpr:
		id, ok := x.Fun.(*ast.Ident)
		if !ok || x.Ellipsis.IsValid() {
			return false
		}
		switch {
		case id.Name == "ceil" && len(x.Args) == 2:
		case (id.Name == "min" || id.Name == "max") && len(x.Args) >= 2:
		default:
			return false
		}
		for _, a := range x.Args {
			if !refWellFormed(a) {
				return false
			}
		}
		return true
	}
	return false
}

// refVarNames are the variables the reference knows: those refVars
// gives a value, so a variable is named in one place here.
var refVarNames = func() map[string]bool {
	names := map[string]bool{}
	for v := range (&refModel{}).refVars(1, 1, 1) {
		names[v] = true
	}
	return names
}()

// refVars are the variables of docs/model.md §8 for a piece of n rows with p
// projected and t target rows.
func (m *refModel) refVars(n, p, t int64) map[string]int64 {
	perTok := m.K
	if m.EP > 1 {
		perTok = m.K + (m.K+1)/2
	}
	g := int64(0)
	if m.Grad {
		g = 1
	}
	return map[string]int64{
		"n": n, "p": p, "t": t, "r": n * perTok,
		"D": min(p, m.C) * m.V * 2, "Dt": min(t, m.C) * m.V * 2,
		"N": m.N, "P": m.P, "T": m.T, "s": m.S, "V": m.V, "H": m.H, "L": m.L, "K": m.K,
		"M": m.M, "I": m.I, "O": m.O, "b": m.B, "E": m.EP, "C": m.C,
		"k": m.TopK, "g": g, "Hk": m.Hk, "Dk": m.Dk, "Hv": m.Hv, "Dv": m.Dv, "X": m.X,
	}
}

var (
	refMinInt = big.NewInt(math.MinInt64)
	refMaxInt = big.NewInt(math.MaxInt64)
)

// refEval evaluates e exactly; ok is false when an intermediate leaves
// int64, a division or ceil has a < 0 or b <= 0.
func refEval(e ast.Expr, vars map[string]int64) (v *big.Int, ok bool) {
	fits := func(x *big.Int) (*big.Int, bool) {
		return x, x.Cmp(refMinInt) >= 0 && x.Cmp(refMaxInt) <= 0
	}
	switch x := e.(type) {
	case *ast.BasicLit:
		v, good := new(big.Int).SetString(strings.ReplaceAll(x.Value, "_", ""), 10)
		if !good {
			return nil, false
		}
		return fits(v)
	case *ast.Ident:
		return big.NewInt(vars[x.Name]), true
	case *ast.ParenExpr:
		return refEval(x.X, vars)
	case *ast.UnaryExpr:
		a, ok := refEval(x.X, vars)
		if !ok {
			return nil, false
		}
		if x.Op == token.SUB {
			return fits(new(big.Int).Neg(a))
		}
		return a, true
	case *ast.BinaryExpr:
		a, ok1 := refEval(x.X, vars)
		b, ok2 := refEval(x.Y, vars)
		if !ok1 || !ok2 {
			return nil, false
		}
		switch x.Op {
		case token.ADD:
			return fits(new(big.Int).Add(a, b))
		case token.SUB:
			return fits(new(big.Int).Sub(a, b))
		case token.MUL:
			return fits(new(big.Int).Mul(a, b))
		}
		if a.Sign() < 0 || b.Sign() <= 0 {
			return nil, false
		}
		return new(big.Int).Quo(a, b), true
	case *ast.CallExpr:
		var args []*big.Int
		for _, arg := range x.Args {
			a, ok := refEval(arg, vars)
			if !ok {
				return nil, false
			}
			args = append(args, a)
		}
		name := x.Fun.(*ast.Ident).Name
		if name == "ceil" {
			a, b := args[0], args[1]
			if a.Sign() < 0 || b.Sign() <= 0 {
				return nil, false
			}
			q := new(big.Int).Add(a, b)
			q.Sub(q, big.NewInt(1))
			return q.Quo(q, b), true
		}
		out := args[0]
		for _, a := range args[1:] {
			if (name == "min") == (a.Cmp(out) < 0) {
				out = a
			}
		}
		return out, true
	}
	return nil, false
}

// addTerms prices the terms v holds for the piece pc: each one tensor,
// rounded like any other, among the retained tensors, in a stage, or as a
// stage of its own. A term that fails marks the arithmetic broken.
func (m *refModel) addTerms(a *refArith, pc *refPiece, v refVariant, keep func(string, int64), put func(Stage, string, int64)) {
	for _, t := range m.Terms {
		held := false
		for _, h := range t.holders {
			held = held || h == v.who
		}
		if !held {
			continue
		}
		val, ok := refEval(t.expr, m.refVars(pc.n, pc.p, pc.t))
		var b int64
		if !ok || val.Sign() < 0 {
			a.overflow = true
			b = math.MaxInt64
		} else {
			b = m.tensor(a, val.Int64())
		}
		switch t.place {
		case "retained":
			keep(t.name, b)
		case "activations":
			put(StageActivations, t.name, b)
		case "head":
			put(StageHead, t.name, b)
		case "fc2":
			put(StageFC2, t.name, b)
		case "gdn":
			put(StageGDN, t.name, b)
		case "stage":
			pc.own = append(pc.own, refTensor{t.name, b})
		}
	}
}
