package termexpr

import (
	"go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The differential test: a term's bytes is "an expression in Go syntax"
// (docs/model.md §8), so this package must accept a text exactly when
// go/parser parses it and the walk below, the compiler as it was before
// the package had a parser of its own, compiles go/parser's tree; and
// then to the same program, facts and variables. The messages may
// differ: this package's name what is wrong in the language's own terms.

// testNames are the estimator's variables, the first six the piece's.
var testNames = strings.Fields("n p t r D Dt N P T s V H L K M I O b E C k g Hk Dk Hv Dv")

var testLang = NewLang(testNames, 6)

// goCompile compiles src the old way: go/parser, then a walk of its tree.
func goCompile(src string) (prog []Instr, f Facts, uses uint64, ok bool) {
	if len(src) > MaxText || strings.TrimSpace(src) == "" {
		return nil, f, 0, false
	}
	e, err := goparser.ParseExpr(src)
	if err != nil {
		return nil, f, 0, false
	}
	w := astWalk{}
	f = w.walk(e)
	if w.err != "" || f.Constant && f.Value < 0 || f.Depth > MaxStack {
		return nil, f, 0, false
	}
	return w.prog, f, w.uses, true
}

type astWalk struct{ compiler }

func (w *astWalk) walk(e ast.Expr) Facts {
	if w.err != "" {
		return Facts{}
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return w.walk(x.X)
	case *ast.BasicLit:
		s := x.Value
		if x.Kind != gotoken.INT || len(s) > 1 && s[0] == '0' {
			return w.fail("not a decimal integer")
		}
		v, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 10, 64)
		if err != nil {
			return w.fail("beyond int64")
		}
		return w.fold(v, Fault{})
	case *ast.Ident:
		i := slices.Index(testNames, x.Name)
		if i < 0 {
			return w.fail("unknown variable")
		}
		return w.variable(i, i < 6)
	case *ast.UnaryExpr:
		switch x.Op {
		case gotoken.SUB:
			return w.negate(w.walk(x.X))
		case gotoken.ADD:
			return w.walk(x.X)
		}
	case *ast.BinaryExpr:
		op, ok := map[gotoken.Token]Op{gotoken.ADD: OpAdd, gotoken.SUB: OpSub, gotoken.MUL: OpMul, gotoken.QUO: OpDiv}[x.Op]
		if ok {
			a := w.walk(x.X)
			return w.binary(op, a, w.walk(x.Y))
		}
	case *ast.CallExpr:
		id, _ := x.Fun.(*ast.Ident)
		if id == nil || x.Ellipsis.IsValid() || len(x.Args) < 2 {
			break
		}
		op, ok := map[string]Op{"ceil": OpCeil, "min": OpMin, "max": OpMax}[id.Name]
		if !ok || op == OpCeil && len(x.Args) != 2 {
			break
		}
		acc := w.walk(x.Args[0])
		for _, arg := range x.Args[1:] {
			acc = w.binary(op, acc, w.walk(arg))
		}
		return acc
	}
	return w.fail("not allowed")
}

// checkAgainstGo fails t unless src compiles here exactly when it
// compiles the old way, to the same program; a refusal must be one
// line, and a syntax error must end with the help.
func checkAgainstGo(t *testing.T, src string) {
	t.Helper()
	prog, f, uses, msg := testLang.Compile(src)
	goProg, goF, goUses, goOK := goCompile(src)
	switch {
	case goOK != (msg == ""):
		t.Fatalf("%q: go/parser's way accepts it: %v; here: %q", src, goOK, msg)
	case goOK && (!slices.Equal(prog, goProg) || f != goF || uses != goUses):
		t.Fatalf("%q: program %v, %+v, uses %b; go/parser's way %v, %+v, uses %b", src, prog, f, uses, goProg, goF, goUses)
	case strings.Contains(msg, "\n"):
		t.Fatalf("%q: a message on more than one line: %q", src, msg)
	case strings.HasPrefix(msg, syntaxPrefix) && !strings.HasSuffix(msg, Allowed):
		t.Fatalf("%q: a syntax error without the help: %q", src, msg)
	}
}

const syntaxPrefix = "bytes is not a valid expression: "

// TestGoParserAgrees: the named cases, and the texts of every message
// test, read as go/parser reads them.
func TestGoParserAgrees(t *testing.T) {
	t.Parallel()
	accepted := 0
	for _, src := range append(slices.Clone(goCases), messageSources()...) {
		checkAgainstGo(t, src)
		if _, _, _, msg := testLang.Compile(src); msg == "" {
			accepted++
		}
	}
	// Guard: the cases hold texts of both kinds.
	if accepted < 15 || accepted > len(goCases)/2 {
		t.Errorf("%d of the cases are accepted: the table lost its balance", accepted)
	}
}

// FuzzTermParse: any text reads as go/parser and the old walk read it.
func FuzzTermParse(f *testing.F) {
	for _, src := range append(slices.Clone(goCases), messageSources()...) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) { checkAgainstGo(t, src) })
}

// vocabulary is what TestTokenStrings strings together: the language's
// tokens, Go's that are near them, spaces, line breaks and comments,
// which byte-wise mutation rarely reaches.
var vocabulary = strings.Fields(`n p C Dt min max ceil Q _ x int 0 1 2 07 1_0 0x1 1.5 2i 'a' "s" ` + "`r`" + `
	+ - * / % & | ^ << >> && == < <= = := += ++ -- ! ~ <- ... . , ; : ( ) [ ] { } func chan`)

// xorshift returns a random source with a fixed sequence.
func xorshift(seed uint64) func(int) int {
	return func(n int) int {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return int(seed % uint64(n))
	}
}

// TestTokenStrings: random strings of tokens read as go/parser reads
// them. testing.Short runs fewer.
func TestTokenStrings(t *testing.T) {
	t.Parallel()
	runs := 100_000
	if testing.Short() {
		runs = 10_000
	}
	seps := []string{" ", "", "\n", "/**/", "/*\n*/", "//c\n", "\t", "\r\n"}
	rand := xorshift(1)
	var b strings.Builder
	accepted := 0
	for range runs {
		b.Reset()
		for k := 1 + rand(10); k > 0; k-- {
			b.WriteString(vocabulary[rand(len(vocabulary))])
			if rand(3) == 0 {
				b.WriteString(seps[rand(len(seps))])
			} else {
				b.WriteString(" ")
			}
		}
		checkAgainstGo(t, b.String())
		if _, _, _, msg := testLang.Compile(b.String()); msg == "" {
			accepted++
		}
	}
	if accepted < runs/1000 {
		t.Errorf("only %d of %d strings were accepted: the comparison is mostly of refusals", accepted, runs)
	}
}

// genExpr writes a random expression of the language, with now and then
// a form it does not have, nested at most depth deep.
func genExpr(b *strings.Builder, rand func(int) int, depth int) {
	leaf := []string{"n", "p", "Dt", "C", "0", "1", "2_0", "512", "9223372036854775807", "Q", "01", "1.5"}
	if depth <= 0 || rand(3) == 0 {
		b.WriteString(leaf[rand(len(leaf))])
		return
	}
	sub := func() { genExpr(b, rand, depth-1) }
	switch rand(8) {
	case 0, 1, 2:
		sub()
		b.WriteString([]string{" + ", " - ", " * ", " / ", "+", "-\n", " *\n", " % "}[rand(8)])
		sub()
	case 3:
		b.WriteString([]string{"-", "+", "- ", "!"}[rand(4)])
		sub()
	case 4:
		b.WriteString("(")
		sub()
		b.WriteString([]string{")", ")", "\n)", " /* c */)"}[rand(4)])
	case 5, 6:
		b.WriteString([]string{"min", "max", "ceil", "pow", "min ", "(min)"}[rand(6)] + "(")
		for k := rand(3); k > 0; k-- {
			sub()
			b.WriteString([]string{", ", ",\n", ","}[rand(3)])
		}
		sub()
		b.WriteString([]string{")", ",)", ",\n)", "...)"}[rand(4)])
	default:
		sub()
	}
}

// TestGenerated: random expressions of the language, and each with one
// byte or token changed, read as go/parser reads them.
func TestGenerated(t *testing.T) {
	t.Parallel()
	runs := 50_000
	if testing.Short() {
		runs = 5_000
	}
	rand := xorshift(7)
	var b strings.Builder
	accepted := 0
	for range runs {
		b.Reset()
		genExpr(&b, rand, 4)
		src := b.String()
		checkAgainstGo(t, src)
		if _, _, _, msg := testLang.Compile(src); msg == "" {
			accepted++
		}
		if len(src) > 0 {
			i := rand(len(src))
			switch rand(3) {
			case 0:
				src = src[:i] + src[i+1:]
			case 1:
				src = src[:i] + vocabulary[rand(len(vocabulary))] + src[i:]
			default:
				src = src[:i] + "\n" + src[i:]
			}
			checkAgainstGo(t, src)
		}
	}
	if accepted < runs/4 {
		t.Errorf("only %d of %d generated expressions were accepted", accepted, runs)
	}
}

// benchExpr is a term's bytes of a typical size.
const benchExpr = "ceil(max(n, p) * H * b, 512) + min(r, C) * I * b + 2 * D // scratch"

// BenchmarkCompile compiles a term's bytes.
func BenchmarkCompile(b *testing.B) {
	for b.Loop() {
		if _, _, _, msg := testLang.Compile(benchExpr); msg != "" {
			b.Fatal(msg)
		}
	}
}

// BenchmarkCompileGoParser is BenchmarkCompile over go/parser, as terms
// were compiled before the package had its own parser.
func BenchmarkCompileGoParser(b *testing.B) {
	for b.Loop() {
		if _, _, _, ok := goCompile(benchExpr); !ok {
			b.Fatal("refused")
		}
	}
}
