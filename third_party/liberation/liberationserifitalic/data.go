// Package liberationserifitalic stands in for the "LiberationSerif Italic" face of
// codeberg.org/go-fonts/liberation: Headroom never draws it, and
// gonum.org/v1/plot registers every Liberation face at init, so linking
// the real one would put its TrueType data in every binary, app.wasm
// included. Its TTF is Liberation Sans Regular.
package liberationserifitalic // import "codeberg.org/go-fonts/liberation/liberationserifitalic"

import "codeberg.org/go-fonts/liberation/liberationsansregular"

// TTF is Liberation Sans Regular, in place of "LiberationSerif Italic".
var TTF = liberationsansregular.TTF
