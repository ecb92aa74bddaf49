// Package liberationmonoregular stands in for the "LiberationMono Regular" face of
// codeberg.org/go-fonts/liberation: Headroom never draws it, and
// gonum.org/v1/plot registers every Liberation face at init, so linking
// the real one would put its TrueType data in every binary, app.wasm
// included. Its TTF is Liberation Sans Regular.
package liberationmonoregular // import "codeberg.org/go-fonts/liberation/liberationmonoregular"

import "codeberg.org/go-fonts/liberation/liberationsansregular"

// TTF is Liberation Sans Regular, in place of "LiberationMono Regular".
var TTF = liberationsansregular.TTF
