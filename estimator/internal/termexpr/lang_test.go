package termexpr

import (
	"strings"
	"testing"
)

// goCases are texts whose reading depends on a detail of Go's syntax: the
// language's forms, Go's forms it leaves out, and how spaces, line breaks,
// comments and odd bytes fall. TestGoParserAgrees reads each both ways.
var goCases = []string{
	"1 + 2 * 3 - n / 4",                 // precedence
	"n - 1 - 2",                         // left to right
	"n % 2 + 1 << 3",                    // first bad operator in tree order
	"n | 2 * 3 % 4",                     // level 5 before 4
	"n < 1 || n & 1",                    // comparison under or
	"n && p || t",                       // and or
	"n &^ 1",                            // and not
	"- -n",                              // unary minus twice
	"--n",                               // decrement token
	"n++",                               // increment token
	"n += 1",                            // plus assign
	"n = 1",                             // assign
	"n := 1",                            // define
	"<-n",                               // receive
	"<-chan n",                          // receive channel type
	"<-chan<- n",                        // receive send channel
	"<-chan<- chan n",                   // receive send of chan
	"<-<-chan n",                        // receive receive
	"chan<- n",                          // channel type
	"~n",                                // tilde
	"&n",                                // address
	"!n",                                // not
	"^n",                                // xor
	"*[]n",                              // star type
	"n//2",                              // line comment
	"n/*x*/+1",                          // block comment
	"n/*\n*/+1",                         // block comment with newline
	"n /*\n*/",                          // block comment with newline at the end
	"n + /*\n*/ 1",                      // block comment with newline after an operator
	"n\n+1",                             // newline ends
	"min(n\n, p)",                       // newline in a call
	"n +\n1",                            // newline after an operator
	"n\n",                               // trailing newline
	"n\n\n",                             // two trailing newlines
	"n // bytes",                        // trailing comment
	"n;",                                // semicolon
	"n\n;",                              // newline then semicolon
	"\uFEFFn + 1",                       // leading byte-order mark
	"n + \uFEFF1",                       // inner byte-order mark
	"\uFEFF\uFEFFn",                     // two byte-order marks
	"n\x00",                             // NUL
	"n /* \x00 */",                      // NUL in a comment
	"n + \xff",                          // invalid UTF-8
	"n // \xff",                         // invalid UTF-8 in a comment
	"n /* x",                            // unclosed comment
	"min(a, b,)",                        // trailing comma
	"min(n, p,)",                        // trailing comma of variables
	"min(n,, p)",                        // two commas
	"min (n, p)",                        // call with a space
	"(min)(n, p)",                       // parenthesized callee
	"min(n, p...,)",                     // spread with comma
	"min(n..., p)",                      // spread not last
	"max(n...)",                         // spread alone
	"1__0",                              // double underscore
	"1_",                                // trailing underscore
	"_1",                                // leading underscore
	"0x_1",                              // underscore after prefix
	"0_1",                               // underscore after zero
	"0x10",                              // hex
	"0x1p3",                             // hex float
	"0x1.0",                             // hex fraction without exponent
	"0x",                                // hex without digits
	"0b101",                             // binary
	"0b102",                             // binary digit
	"09",                                // octal digit
	"09.5",                              // octal-looking float
	"09i",                               // octal-looking imaginary
	"0o1.5",                             // octal radix point
	"1e",                                // exponent without digits
	"1e+3",                              // exponent sign
	"1p3",                               // p exponent of a decimal
	"0x1e3",                             // e exponent of hex
	".5",                                // fraction
	"1.",                                // trailing dot
	"1.5i",                              // imaginary
	"1..2",                              // dot dot
	`"a\n"`,                             // string
	`"\q"`,                              // bad escape
	`"\u00e9"`,                          // unicode escape
	`"\ud800"`,                          // surrogate escape
	"`a`",                               // raw string
	"`a\rb`",                            // raw string with CR
	"`" + strings.Repeat("x", 60) + "`", // long raw string
	"`a",                                // unclosed raw string
	"`\n`",                              // raw string with a newline
	"n `a\nb`",                          // raw string with a newline after a name
	"'a'",                               // character
	"''",                                // empty character
	"'ab'",                              // two characters
	`'\''`,                              // escaped quote
	"é + 1",                             // unicode letter
	"n٣",                                // unicode digit in a name
	"٣",                                 // unicode digit alone
	"func",                              // keyword
	"n + range",                         // keyword in a sum
	"n.x",                               // selector
	"n.type",                            // selector of a keyword
	"n.(int)",                           // type assertion
	"n.(type)",                          // type switch guard
	"n[1]",                              // index
	"n[]",                               // empty index
	"n[1:2]",                            // slice
	"n[1:2:3]",                          // full slice
	"n[1:2:]",                           // full slice without max
	"n[a, b]",                           // instance
	"n[a, 2]",                           // instance of a number
	"n[1,]",                             // instance trailing comma
	"n{1, 2}",                           // composite literal
	"n{a: 1, {2}}",                      // keyed literal
	"1{}",                               // literal of a literal
	"(n){}",                             // parenthesized literal type
	"[]n{1}",                            // slice literal
	"[...]n{1}",                         // array literal
	"[4]n",                              // array type
	"map[n]p{}",                         // map literal
	"struct{}{}",                        // struct literal
	"struct{ a n }{}",                   // struct with a field
	"interface{}",                       // interface
	"interface{ m() }",                  // interface with a method
	"func() n",                          // function type
	"func() {}",                         // function literal
	"func() { return }()",               // function literal with a statement
	"func(a n) {}",                      // function with parameters
	"func[T any]()",                     // type parameters
	"struct{a, b n; c p}{}",             // struct with two names
	"struct{ n }{}",                     // struct embedded
	"struct{ *n }{}",                    // struct embedded pointer
	"struct{ *(n) }{}",                  // struct parenthesized pointer
	"struct{ (n) }{}",                   // struct parenthesized embedded
	"struct{ a.b `tag` }{}",             // struct qualified with tag
	"struct{ a [2]n }{}",                // struct array field
	"struct{ a [2,]n }{}",               // struct array field comma
	"struct{ T[a, b] }{}",               // struct generic embedded
	"struct{ T[a] }{}",                  // struct generic one
	"struct{ a []n }",                   // struct slice field
	"struct{ a n, }",                    // struct field comma
	"struct{a n\n b p}",                 // struct fields on lines
	"struct{ a n \"t\" }",               // struct field tag
	"struct{ a.b[c] }",                  // struct qualified generic
	"struct{a,}",                        // struct name comma
	"struct{ *a.b[c] }",                 // struct pointer qualified
	"interface{ m(a n) p }",             // interface method with parameters
	"interface{ m[T any]() }",           // interface method type parameters
	"interface{ T[a] }",                 // interface generic
	"interface{ T[a, b] }",              // interface generic two
	"interface{ T[a + 1] }",             // interface generic of expression
	"interface{ ~n | p }",               // interface union
	"interface{ n | ~p; q }",            // interface elements
	"interface{ []n }",                  // interface slice
	"interface{ a.b }",                  // interface qualified
	"interface{ m() n, }",               // interface method comma
	"interface{ ~ }",                    // interface tilde alone
	"interface{ T[a,] }",                // interface generic comma
	"func(a n)",                         // parameter named
	"func(a, b n)",                      // parameters grouped
	"func(a n, b)",                      // parameter missing type
	"func(n, p)",                        // parameters unnamed
	"func(a n, p.q)",                    // parameter missing name
	"func(...n)",                        // dots
	"func(a ...n)",                      // named dots
	"func(a, b ...n)",                   // grouped dots
	"func(a ...n, b p)",                 // dots not last
	"func() (a n)",                      // named result
	"func() (...n)",                     // dots result
	"func() (a, b n)",                   // grouped results
	"func(a [2]n)",                      // array parameter
	"func(a [2,]n)",                     // array parameter comma
	"func(T[a, b])",                     // generic parameter
	"func(a.b)",                         // qualified parameter
	"func(a.b c)",                       // qualified named parameter
	"func(a, )",                         // parameter trailing comma
	"func(a ~n)",                        // parameter tilde
	"func(a | b)",                       // parameter union
	"func(a chan n)",                    // parameter channel
	"func(,)",                           // parameter comma alone
	"func(a b c)",                       // three words
	"interface{ m() }.m",                // method value
	"func() func() n",                   // result type of result
	"[]n(p)",                            // conversion of a type
	"Q + n[1]",                          // unknown variable after an exotic form
	"n[1] + Q",                          // exotic form after an unknown variable
	"min(n, []p{})",                     // exotic argument
	"2 ** 3",                            // power
	strings.Repeat("(", 100) + "n" + strings.Repeat(")", 100), // deep
	"n $ 1",     // illegal character
	"n ? 1 : 2", // question mark
	"n\f+ 1",    // form feed
	"n\r\n",     // carriage return
	"n\t+\t1",   // tab
	// The expressions of the estimator's table of term errors.
	"Q",                                     // unknown variable
	"d",                                     // case-sensitive
	"true",                                  // a constant name
	"min + 1",                               // a function as a value
	"2 ** 3",                                // power
	"*n",                                    // unary star
	"7 % 2",                                 // remainder
	"1 << 3",                                // shift left
	"8 >> 1",                                // shift right
	"n & 1",                                 // bitwise and
	"n | 1",                                 // bitwise or
	"n ^ 1",                                 // xor
	"n && 1",                                // logical and
	"!n",                                    // not
	"n < 1",                                 // comparison less
	"n == 1",                                // comparison equal
	"n >= 1",                                // comparison greater or equal
	"sqrt(4)",                               // other call
	"int64(n)",                              // conversion
	"math.Max(1, 2)",                        // method call
	"ceil(4)",                               // ceil of one
	"ceil(4, 2, 1)",                         // ceil of three
	"min(4)",                                // min of one
	"max()",                                 // max of none
	"min(n, C...)",                          // spread
	"1.5",                                   // float
	"1e3",                                   // exponent
	"2i",                                    // imaginary
	`"abc"`,                                 // string
	"'a'",                                   // character
	"0x10",                                  // hexadecimal
	"0o17",                                  // octal
	"010",                                   // leading zero
	"9223372036854775808",                   // beyond int64
	"n.x",                                   // selector
	"n[1]",                                  // index
	"1 / 0",                                 // division by zero
	"ceil(1, 0)",                            // ceil by zero
	"n / (0 - 2)",                           // division by a negative
	"(0 - 4) / 2",                           // division of a negative
	"ceil(0 - 4, 2)",                        // ceil of a negative
	"0 - 1",                                 // negative result
	"n - 100_000",                           // negative for the piece
	"n / k",                                 // division by a variable that is 0
	"9223372036854775807 + 1",               // overflow
	"0 - 9223372036854775807 - 2",           // overflow below
	"-(0 - 9223372036854775807 - 1)",        // overflow of a negation
	"n * 1_000_000_000_000_000",             // overflow of a product
	"9_223_372_036_854_775_300 + n / 64902", // overflow when rounded
	"",                                      // empty
	"   ",                                   // blank
	"n +",                                   // syntax
	"1__0",                                  // bad separator
	"1_000_",                                // trailing separator
	"n = 1",                                 // statement
	strings.Repeat("1+", 128) + "1",         // too long
}

// messages: what a person is told, for a text refused, and where.
var messages = []struct{ src, want string }{
	{"pow(n, 2)", `unknown function "pow"; the functions are ceil(a, b), min(a, b, ...) and max(a, b, ...)`},
	{"sqrt(4)", `unknown function "sqrt"`},
	{"Q * 4", `unknown variable "Q"; known: n, p, t, r, D, Dt, N, P, T, s, V, H, L, K, M, I, O, b, E, C, k, g, Hk, Dk, Hv, Dv`},
	{"min + 1", `unknown variable "min"`},
	{"n ** 2", `"**" (a power) and a unary "*" are not allowed; write a power as a product; ` + Allowed},
	{"*n", `"**" (a power) and a unary "*" are not allowed`},
	{"n % 7", `the operator "%" is not allowed; ` + Allowed},
	{"n << 2", `the operator "<<" is not allowed; ` + Allowed},
	{"n <= 2", `the comparison "<=" is not allowed; ` + Allowed},
	{"n == 2", `the comparison "==" is not allowed`},
	{"--n", `the operator "--" is not allowed`},
	{"n += 1", `the operator "+=" is not allowed`},
	{"n * 1.5", "the number 1.5 is not an integer; " + Allowed},
	{"1e3", "the number 1e3 is not an integer"},
	{"2i", "the number 2i is not an integer"},
	{"0x10", "the literal 0x10 is not a decimal integer (hexadecimal, octal, binary and leading zeros are not allowed)"},
	{"010", "the literal 010 is not a decimal integer"},
	{"9223372036854775808", "the literal 9223372036854775808 is beyond int64 (at most 9,223,372,036,854,775,807)"},
	{`"n"`, `the literal "n" is not a number; strings and characters are not allowed; ` + Allowed},
	{"'a'", `the literal 'a' is not a number`},
	{"n.x", `the character "." is not allowed`},
	{"n[1]", `the character "[" is not allowed`},
	{"é + 1", `the character "é" is not allowed`},
	{"min(n, C...)", `"..." is not allowed; list the arguments`},
	{"ceil(4)", "ceil takes two arguments, ceil(a, b) = a / b rounded up; got 1"},
	{"ceil(4, 2, 1)", "ceil takes two arguments"},
	{"min(4)", "min takes two or more arguments; got 1"},
	{"max()", "max takes two or more arguments; got 0"},
	{"1 / 0", "bytes divides by 0; the divisor of / and of ceil(a, b) must be > 0"},
	{"(0 - 4) / 2", "bytes divides a negative number (-4); / and ceil(a, b) need a >= 0"},
	{"0 - 1", "bytes is negative (-1); a tensor's bytes must be >= 0"},
	{"9223372036854775807 + 1", "bytes overflows int64 (an intermediate value is beyond ±9,223,372,036,854,775,807)"},
	{"", "bytes is empty; write the tensor's bytes as an expression, for example 2 * D; " + Allowed},
	{strings.Repeat("1+", 128) + "1", "bytes is 257 bytes long; at most 256 are allowed"},
	// Syntax errors say where, line:column.
	{"n +", syntaxPrefix + `1:4: expected a number, a variable, a call or "(", found the end; ` + Allowed},
	{"n +\n)", syntaxPrefix + `2:1: expected a number, a variable, a call or "(", found ")"`},
	{"(n", syntaxPrefix + `1:3: expected ")", found the end`},
	{"min(n p)", syntaxPrefix + `1:7: expected "," or ")" in min(...), found "p"`},
	{"n p", syntaxPrefix + `1:3: expected an operator or the end, found "p"`},
	{"min(n\n, p)", syntaxPrefix + `1:6: expected "," or ")" in min(...), found a line break (after an operand it ends the expression: break a line after an operator or a comma)`},
	{"n\n+ 1", syntaxPrefix + `2:1: a line break after an operand ends the expression, and "+" follows it; break a line after an operator instead`},
	{"n\n% 2", `the operator "%" is not allowed`},
	{"1__0", syntaxPrefix + "1:1: '_' must separate successive digits, in 1__0"},
	{"2 + 12ab", syntaxPrefix + `1:5: "12ab" is neither a number nor a name`},
	{"n /* x", syntaxPrefix + "1:3: the comment /* is not closed by */"},
	{"n // \xff", syntaxPrefix + "1:3: a comment holds a NUL, a byte-order mark or a byte that is not UTF-8"},
	{"n + \xff", syntaxPrefix + "1:5: the byte 0xff is not UTF-8"},
}

func messageSources() []string {
	out := make([]string, len(messages))
	for i, m := range messages {
		out[i] = m.src
	}
	return out
}

// TestMessages: each refusal says what is wrong, in one line.
func TestMessages(t *testing.T) {
	t.Parallel()
	for _, tc := range messages {
		_, _, _, msg := testLang.Compile(tc.src)
		if !strings.HasPrefix(msg, tc.want) {
			t.Errorf("%q:\n got %q\nwant %q...", tc.src, msg, tc.want)
		}
	}
}

// TestValues: the language's arithmetic, through Compile and Run.
func TestValues(t *testing.T) {
	t.Parallel()
	vars := make([]int64, len(testNames))
	for i := range vars {
		vars[i] = int64(i + 1) // n = 1, p = 2, ..., Dv = 26
	}
	for _, tc := range []struct {
		src  string
		want int64
	}{
		{"1 + 2 * 3", 7}, {"(1 + 2) * 3", 9}, {"10 - 4 - 3", 3}, {"100 / 10 / 5", 2},
		{"7 / 2", 3}, {"ceil(7, 2)", 4}, {"ceil(8, 2)", 4}, {"min(3, 1, 2)", 1}, {"max(3, 1, 2,)", 3},
		{"-5 + 10", 5}, {"- -n", 1}, {"+p", 2}, {"1_000_000", 1_000_000}, {"Dv * Hk", 26 * 23},
		{"n +\n p", 3}, {"min(n,\n p)", 1}, {"n // a comment", 1}, {"n /* one\n two */", 1},
		{"\uFEFFn + 1", 2}, {"max(0, n - 100)", 0}, {"9_223_372_036_854_775_807", 1<<63 - 1},
		{"ceil(p * 3, n + 1) + min(t, C) * b / r", 3 + min(int64(3), 20)*18/4},
	} {
		prog, _, _, msg := testLang.Compile(tc.src)
		if msg != "" {
			t.Errorf("%q: %s", tc.src, msg)
			continue
		}
		var st [MaxStack]int64
		got, f := Run(prog, vars, &st)
		fast, ok := RunFast(prog, vars, &st)
		if f.Kind != FaultNone || got != tc.want || !ok || fast != tc.want {
			t.Errorf("%q = %d (%+v), fast %d (%v); want %d", tc.src, got, f, fast, ok, tc.want)
		}
	}
}

// TestRunFaults: the faults of a run, and RunFast failing on the same.
func TestRunFaults(t *testing.T) {
	t.Parallel()
	vars := make([]int64, len(testNames)) // every variable 0
	vars[0] = 1 << 62
	for _, tc := range []struct {
		src  string
		want Fault
	}{
		{"n * 4", Fault{Kind: FaultOverflow}},
		{"n + n", Fault{Kind: FaultOverflow}},
		{"0 - n - n - n", Fault{Kind: FaultOverflow}},
		{"n / p", Fault{FaultDivZero, 0}},
		{"ceil(n, p - 3)", Fault{FaultDivZero, -3}},
		{"(p - n) / 2", Fault{FaultDivNegative, -(1 << 62)}},
		{"p - 5", Fault{FaultNegative, -5}},
		{"-n", Fault{FaultNegative, -(1 << 62)}},
	} {
		prog, _, _, msg := testLang.Compile(tc.src)
		if msg != "" {
			t.Fatalf("%q: %s", tc.src, msg)
		}
		var st [MaxStack]int64
		if _, f := Run(prog, vars, &st); f != tc.want {
			t.Errorf("%q: fault %+v, want %+v", tc.src, f, tc.want)
		}
		if _, ok := RunFast(prog, vars, &st); ok {
			t.Errorf("%q: RunFast does not fail", tc.src)
		}
	}
}

// TestGroup: the messages' numbers are written as estimator.Group writes
// them.
func TestGroup(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", -64902: "-64,902",
		1<<63 - 1: "9,223,372,036,854,775,807", -1 << 63: "-9,223,372,036,854,775,808"} {
		if got := group(n); got != want {
			t.Errorf("group(%d) = %q, want %q", n, got, want)
		}
	}
}
