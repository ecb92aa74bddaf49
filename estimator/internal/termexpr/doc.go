// Package termexpr is the language of a term's bytes (docs/model.md §8):
// integers, named variables, + - * /, parentheses, and the functions
// ceil(a, b), min(a, b, ...) and max(a, b, ...). It scans and parses an
// expression, compiles it into a postfix program with constants folded,
// runs the program over int64 with every step checked, and says what the
// admission ladder may assume of it (Facts). The estimator names the
// variables and gives them values; this package knows nothing of the
// model.
//
// It imports only the standard library (deps_test.go at the repository's
// root checks it).
//
// The grammar, which is Go's for these forms, so a term means what it
// would mean in Go:
//
//	expr    = product { ("+" | "-") product }
//	product = unary { ("*" | "/") unary }
//	unary   = ("+" | "-") unary | operand
//	operand = number | name | name "(" expr { "," expr } [","] ")" | "(" expr ")"
//
// number is decimal digits with single _ between digits and no leading
// zero. Spaces and comments are Go's; a line break after an operand ends
// the expression, as Go's automatic semicolon does (see scanner). The
// differential test (goparser_test.go) checks that a text compiles here
// exactly when go/parser and the compiler of go/parser's tree accept it,
// to the same program.
package termexpr
