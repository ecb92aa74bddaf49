// Package liberationsansregular holds Liberation Sans Regular, unmodified,
// as shipped in codeberg.org/go-fonts/liberation v0.5.0 (Liberation fonts
// 2.1.5, SIL Open Font License 1.1: ../LICENSE-SIL).
package liberationsansregular // import "codeberg.org/go-fonts/liberation/liberationsansregular"

import _ "embed"

// TTF is the "Liberation Sans Regular" TrueType font.
//
//go:embed LiberationSans-Regular.ttf
var TTF []byte
