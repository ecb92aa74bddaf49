package estimator

import (
	"go/ast"
	"go/parser"
	"slices"
	"strings"
	"testing"
)

// The package's own parser (terms_parse.go) against go/parser and the
// compiler as it was (terms_parse_ref_test.go): the same texts accepted,
// the same programs, the same refusals.

const syntaxPrefix = "bytes is not a valid expression: "

// checkSameAsGo fails t unless src compiles the same both ways: both
// accept it with the same program, facts and variables; or both refuse
// it, with the same message unless go/parser found a syntax error, in
// which case the new message is a syntax error too.
func checkSameAsGo(t *testing.T, src string) {
	t.Helper()
	prog, info, uses, msg := compileExpr(src)
	goProg, goInfo, goUses, goMsg, goSyntax := goCompileExpr(src)
	switch {
	case goMsg == "" && msg == "":
		if !slices.Equal(prog, goProg) || info != goInfo || uses != goUses {
			t.Fatalf("%q: program %v, %+v, uses %b; go/parser's %v, %+v, uses %b", src, prog, info, uses, goProg, goInfo, goUses)
		}
	case goSyntax:
		if !strings.HasPrefix(msg, syntaxPrefix) {
			t.Fatalf("%q: go/parser refuses it (%s); we say %q", src, goMsg, msg)
		}
	case goMsg != msg && !unsupportedByDesign(src, msg):
		t.Fatalf("%q:\n got %q\nwant %q", src, msg, goMsg)
	}
	if strings.HasPrefix(msg, syntaxPrefix) && (strings.Contains(msg, "\n") || !strings.HasSuffix(msg, allowedSyntax)) {
		t.Fatalf("%q: a syntax error on more than one line, or without the help: %q", src, msg)
	}
}

// unsupportedByDesign says whether src is the one documented difference:
// go/parser reads it, it holds a function literal with statements, and we
// refuse it as termUnsupported (which go/parser's path refuses too, as
// "this kind of expression" or for whatever comes first).
func unsupportedByDesign(src, msg string) bool {
	if !strings.Contains(msg, termUnsupported) {
		return false
	}
	e, err := parser.ParseExpr(src)
	if err != nil {
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if x, ok := n.(*ast.FuncLit); ok {
			found = found || len(x.Body.List) > 0
		}
		return true
	})
	return found
}

// termParseCases name the Go details the parser reproduces.
var termParseCases = []struct{ name, src string }{
	{"precedence", "1 + 2 * 3 - n / 4"},
	{"left to right", "n - 1 - 2"},
	{"first bad operator in tree order", "n % 2 + 1 << 3"},
	{"level 5 before 4", "n | 2 * 3 % 4"},
	{"comparison under or", "n < 1 || n & 1"},
	{"and or", "n && p || t"},
	{"and not", "n &^ 1"},
	{"unary minus twice", "- -n"},
	{"decrement token", "--n"},
	{"increment token", "n++"},
	{"plus assign", "n += 1"},
	{"assign", "n = 1"},
	{"define", "n := 1"},
	{"receive", "<-n"},
	{"receive channel type", "<-chan n"},
	{"receive send channel", "<-chan<- n"},
	{"receive send of chan", "<-chan<- chan n"},
	{"receive receive", "<-<-chan n"},
	{"channel type", "chan<- n"},
	{"tilde", "~n"},
	{"address", "&n"},
	{"not", "!n"},
	{"xor", "^n"},
	{"star type", "*[]n"},
	{"line comment", "n//2"},
	{"block comment", "n/*x*/+1"},
	{"block comment with newline", "n/*\n*/+1"},
	{"block comment with newline at the end", "n /*\n*/"},
	{"block comment with newline after an operator", "n + /*\n*/ 1"},
	{"newline ends", "n\n+1"},
	{"newline in a call", "min(n\n, p)"},
	{"newline after an operator", "n +\n1"},
	{"trailing newline", "n\n"},
	{"two trailing newlines", "n\n\n"},
	{"trailing comment", "n // bytes"},
	{"semicolon", "n;"},
	{"newline then semicolon", "n\n;"},
	{"leading byte-order mark", "\uFEFFn + 1"},
	{"inner byte-order mark", "n + \uFEFF1"},
	{"two byte-order marks", "\uFEFF\uFEFFn"},
	{"NUL", "n\x00"},
	{"NUL in a comment", "n /* \x00 */"},
	{"invalid UTF-8", "n + \xff"},
	{"invalid UTF-8 in a comment", "n // \xff"},
	{"unclosed comment", "n /* x"},
	{"trailing comma", "min(a, b,)"},
	{"trailing comma of variables", "min(n, p,)"},
	{"two commas", "min(n,, p)"},
	{"call with a space", "min (n, p)"},
	{"parenthesized callee", "(min)(n, p)"},
	{"spread with comma", "min(n, p...,)"},
	{"spread not last", "min(n..., p)"},
	{"spread alone", "max(n...)"},
	{"double underscore", "1__0"},
	{"trailing underscore", "1_"},
	{"leading underscore", "_1"},
	{"underscore after prefix", "0x_1"},
	{"underscore after zero", "0_1"},
	{"hex", "0x10"},
	{"hex float", "0x1p3"},
	{"hex fraction without exponent", "0x1.0"},
	{"hex without digits", "0x"},
	{"binary", "0b101"},
	{"binary digit", "0b102"},
	{"octal digit", "09"},
	{"octal-looking float", "09.5"},
	{"octal-looking imaginary", "09i"},
	{"octal radix point", "0o1.5"},
	{"exponent without digits", "1e"},
	{"exponent sign", "1e+3"},
	{"p exponent of a decimal", "1p3"},
	{"e exponent of hex", "0x1e3"},
	{"fraction", ".5"},
	{"trailing dot", "1."},
	{"imaginary", "1.5i"},
	{"dot dot", "1..2"},
	{"string", `"a\n"`},
	{"bad escape", `"\q"`},
	{"unicode escape", `"\u00e9"`},
	{"surrogate escape", `"\ud800"`},
	{"raw string", "`a`"},
	{"raw string with CR", "`a\rb`"},
	{"long raw string", "`" + strings.Repeat("x", 60) + "`"},
	{"unclosed raw string", "`a"},
	{"raw string with a newline", "`\n`"},
	{"raw string with a newline after a name", "n `a\nb`"},
	{"character", "'a'"},
	{"empty character", "''"},
	{"two characters", "'ab'"},
	{"escaped quote", `'\''`},
	{"unicode letter", "é + 1"},
	{"unicode digit in a name", "n٣"},
	{"unicode digit alone", "٣"},
	{"keyword", "func"},
	{"keyword in a sum", "n + range"},
	{"selector", "n.x"},
	{"selector of a keyword", "n.type"},
	{"type assertion", "n.(int)"},
	{"type switch guard", "n.(type)"},
	{"index", "n[1]"},
	{"empty index", "n[]"},
	{"slice", "n[1:2]"},
	{"full slice", "n[1:2:3]"},
	{"full slice without max", "n[1:2:]"},
	{"instance", "n[a, b]"},
	{"instance of a number", "n[a, 2]"},
	{"instance trailing comma", "n[1,]"},
	{"composite literal", "n{1, 2}"},
	{"keyed literal", "n{a: 1, {2}}"},
	{"literal of a literal", "1{}"},
	{"parenthesized literal type", "(n){}"},
	{"slice literal", "[]n{1}"},
	{"array literal", "[...]n{1}"},
	{"array type", "[4]n"},
	{"map literal", "map[n]p{}"},
	{"struct literal", "struct{}{}"},
	{"struct with a field", "struct{ a n }{}"},
	{"interface", "interface{}"},
	{"interface with a method", "interface{ m() }"},
	{"function type", "func() n"},
	{"function literal", "func() {}"},
	{"function literal with a statement", "func() { return }()"},
	{"function with parameters", "func(a n) {}"},
	{"type parameters", "func[T any]()"},
	{"struct with two names", "struct{a, b n; c p}{}"},
	{"struct embedded", "struct{ n }{}"},
	{"struct embedded pointer", "struct{ *n }{}"},
	{"struct parenthesized pointer", "struct{ *(n) }{}"},
	{"struct parenthesized embedded", "struct{ (n) }{}"},
	{"struct qualified with tag", "struct{ a.b `tag` }{}"},
	{"struct array field", "struct{ a [2]n }{}"},
	{"struct array field comma", "struct{ a [2,]n }{}"},
	{"struct generic embedded", "struct{ T[a, b] }{}"},
	{"struct generic one", "struct{ T[a] }{}"},
	{"struct slice field", "struct{ a []n }"},
	{"struct field comma", "struct{ a n, }"},
	{"struct fields on lines", "struct{a n\n b p}"},
	{"struct field tag", "struct{ a n \"t\" }"},
	{"struct qualified generic", "struct{ a.b[c] }"},
	{"struct name comma", "struct{a,}"},
	{"struct pointer qualified", "struct{ *a.b[c] }"},
	{"interface method with parameters", "interface{ m(a n) p }"},
	{"interface method type parameters", "interface{ m[T any]() }"},
	{"interface generic", "interface{ T[a] }"},
	{"interface generic two", "interface{ T[a, b] }"},
	{"interface generic of expression", "interface{ T[a + 1] }"},
	{"interface union", "interface{ ~n | p }"},
	{"interface elements", "interface{ n | ~p; q }"},
	{"interface slice", "interface{ []n }"},
	{"interface qualified", "interface{ a.b }"},
	{"interface method comma", "interface{ m() n, }"},
	{"interface tilde alone", "interface{ ~ }"},
	{"interface generic comma", "interface{ T[a,] }"},
	{"parameter named", "func(a n)"},
	{"parameters grouped", "func(a, b n)"},
	{"parameter missing type", "func(a n, b)"},
	{"parameters unnamed", "func(n, p)"},
	{"parameter missing name", "func(a n, p.q)"},
	{"dots", "func(...n)"},
	{"named dots", "func(a ...n)"},
	{"grouped dots", "func(a, b ...n)"},
	{"dots not last", "func(a ...n, b p)"},
	{"named result", "func() (a n)"},
	{"dots result", "func() (...n)"},
	{"grouped results", "func() (a, b n)"},
	{"array parameter", "func(a [2]n)"},
	{"array parameter comma", "func(a [2,]n)"},
	{"generic parameter", "func(T[a, b])"},
	{"qualified parameter", "func(a.b)"},
	{"qualified named parameter", "func(a.b c)"},
	{"parameter trailing comma", "func(a, )"},
	{"parameter tilde", "func(a ~n)"},
	{"parameter union", "func(a | b)"},
	{"parameter channel", "func(a chan n)"},
	{"parameter comma alone", "func(,)"},
	{"three words", "func(a b c)"},
	{"method value", "interface{ m() }.m"},
	{"result type of result", "func() func() n"},
	{"conversion of a type", "[]n(p)"},
	{"unknown variable after an exotic form", "Q + n[1]"},
	{"exotic form after an unknown variable", "n[1] + Q"},
	{"exotic argument", "min(n, []p{})"},
	{"power", "2 ** 3"},
	{"deep", strings.Repeat("(", 100) + "n" + strings.Repeat(")", 100)},
	{"illegal character", "n $ 1"},
	{"question mark", "n ? 1 : 2"},
	{"form feed", "n\f+ 1"},
	{"carriage return", "n\r\n"},
	{"tab", "n\t+\t1"},
}

// TestTermParseMatchesGo: each named case is read as go/parser reads it.
func TestTermParseMatchesGo(t *testing.T) {
	for _, tc := range termParseCases {
		t.Run(tc.name, func(t *testing.T) { checkSameAsGo(t, tc.src) })
	}
	for _, tc := range termErrors {
		t.Run("errors/"+tc.name, func(t *testing.T) { checkSameAsGo(t, tc.expr) })
	}
}

// TestTermParseSyntaxError: a syntax error says where, as before.
func TestTermParseSyntaxError(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"end", "n +", "1:4: expected operand, found 'EOF'"},
		{"second line", "n +\n)", "2:1: expected operand, found ')'"},
		{"newline", "min(n\n, p)", "1:6: "},
		{"double underscore", "1__0", "1:3: '_' must separate successive digits"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, msg := parseTermExpr(tc.src)
			if !strings.HasPrefix(msg, tc.want) {
				t.Errorf("%q: %q, want %q...", tc.src, msg, tc.want)
			}
		})
	}
}

// FuzzTermParse: any text reads as go/parser and the old compiler read
// it (checkSameAsGo).
func FuzzTermParse(f *testing.F) {
	for _, tc := range termParseCases {
		f.Add(tc.src)
	}
	for _, tc := range termErrors {
		f.Add(tc.expr)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > MaxTermBytesText {
			return
		}
		checkSameAsGo(t, src)
	})
}

// termParseVocabulary is what TestTermParseTokens strings together: Go's
// tokens, keywords, spaces, newlines and comments, which byte-wise
// mutation rarely reaches.
var termParseVocabulary = strings.Fields(`n p C min max ceil Q _ x int T any 0 1 2 07 0x1 1.5 2i 'a' "s" ` + "`r`" + `
	+ - * / % & | ^ << >> &^ && || == != < <= > >= = := += ++ -- ! ~ <- ... . , ; : ( ) [ ] { }
	func struct interface map chan type return case default range var`)

// TestTermParseTokens: random strings of Go tokens read as go/parser
// reads them. testing.Short runs fewer.
func TestTermParseTokens(t *testing.T) {
	runs := 200_000
	if testing.Short() {
		runs = 20_000
	}
	seps := []string{" ", "", "\n", "/**/", "/*\n*/", "//c\n"}
	rng := uint64(1)
	rand := func(n int) int { // xorshift, for a fixed sequence
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return int(rng % uint64(n))
	}
	var b strings.Builder
	for range runs {
		b.Reset()
		for k := 1 + rand(12); k > 0; k-- {
			b.WriteString(termParseVocabulary[rand(len(termParseVocabulary))])
			if rand(3) == 0 {
				b.WriteString(seps[rand(len(seps))])
			} else {
				b.WriteString(" ")
			}
		}
		checkSameAsGo(t, b.String())
	}
}

// genGoExpr writes a random Go expression, with the forms a term cannot
// use among those it can, nested at most depth deep.
func genGoExpr(b *strings.Builder, rand func(int) int, depth int) {
	leaf := []string{"n", "p", "C", "Q", "1", "2_0", "0x1", "1.5", "'a'", "`r`", "int"}
	if depth <= 0 || rand(3) == 0 {
		b.WriteString(leaf[rand(len(leaf))])
		return
	}
	sub := func() { genGoExpr(b, rand, depth-1) }
	typ := []string{"int", "[]int", "[2]n", "[...]n", "map[n]p", "chan n", "<-chan n", "chan<- n", "*n", "struct{}", "interface{}", "func()", "func() n", "n.T", "T[n]", "(n)",
		"struct{ a n }", "struct{ a, b n; *c }", "interface{ m(a n) p }", "interface{ ~n | p }", "func(a, b n) (c p)",
		"func(...n)", "func(a n, b)", "struct{ T[a] }", "interface{ T[a, b] }", "func(a [2]n)", "struct{ a [n]p `t` }"}
	switch rand(16) {
	case 0, 1, 2:
		sub()
		b.WriteString([]string{" + ", " - ", " * ", " / ", " % ", " << ", " < ", " && ", " | ", "&^"}[rand(10)])
		sub()
	case 3:
		b.WriteString([]string{"-", "+", "!", "^", "*", "&", "<-", "~"}[rand(8)])
		sub()
	case 4:
		b.WriteString("(")
		sub()
		b.WriteString(")")
	case 5, 6:
		b.WriteString([]string{"min", "max", "ceil", "f", "(min)", "n.m", "[]int", "func(){}"}[rand(8)] + "(")
		for k := rand(4); k > 0; k-- {
			sub()
			b.WriteString(", ")
		}
		sub()
		b.WriteString([]string{")", ",)", "...)", "..., )"}[rand(4)])
	case 7:
		sub()
		b.WriteString([]string{".x", ".(int)", ".(type)", "[1]", "[1:]", "[:2:3]", "[a, b]", "{}", "{1, k: v}"}[rand(9)])
	case 8:
		b.WriteString(typ[rand(len(typ))])
	case 9:
		b.WriteString(typ[rand(len(typ))] + "{")
		sub()
		b.WriteString("}")
	case 10:
		b.WriteString(typ[rand(len(typ))] + "(")
		sub()
		b.WriteString(")")
	case 11:
		b.WriteString("func() " + typ[rand(len(typ))] + " {}")
	default:
		sub()
	}
}

// TestTermParseGenerated: random Go expressions, and each with one byte
// or token changed, read as go/parser reads them.
func TestTermParseGenerated(t *testing.T) {
	runs := 100_000
	if testing.Short() {
		runs = 10_000
	}
	rng := uint64(7)
	rand := func(n int) int {
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return int(rng % uint64(n))
	}
	var b strings.Builder
	for range runs {
		b.Reset()
		genGoExpr(&b, rand, 4)
		src := b.String()
		checkSameAsGo(t, src)
		if len(src) > 0 {
			i := rand(len(src))
			switch rand(3) {
			case 0: // drop a byte
				src = src[:i] + src[i+1:]
			case 1: // insert a token
				src = src[:i] + termParseVocabulary[rand(len(termParseVocabulary))] + src[i:]
			default: // a newline
				src = src[:i] + "\n" + src[i:]
			}
			checkSameAsGo(t, src)
		}
	}
}

// benchTermExpr is a term's bytes of a typical size.
const benchTermExpr = "ceil(max(n, p) * H * b, 512) + min(r, C) * I * b + 2 * D // scratch"

// BenchmarkTermCompile compiles a term's bytes with the package's parser.
func BenchmarkTermCompile(b *testing.B) {
	for b.Loop() {
		if _, _, _, msg := compileExpr(benchTermExpr); msg != "" {
			b.Fatal(msg)
		}
	}
}

// BenchmarkTermCompileGoParser is BenchmarkTermCompile over go/parser,
// as terms were compiled before.
func BenchmarkTermCompileGoParser(b *testing.B) {
	for b.Loop() {
		if _, _, _, msg, _ := goCompileExpr(benchTermExpr); msg != "" {
			b.Fatal(msg)
		}
	}
}
