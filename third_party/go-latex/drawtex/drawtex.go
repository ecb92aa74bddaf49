// Package drawtex stands in for codeberg.org/go-latex/latex/drawtex: the
// types gonum.org/v1/plot/text's LaTeX handler names. Headroom never
// draws LaTeX (see ../README.md); nothing here is ever given an op.
package drawtex // import "codeberg.org/go-latex/latex/drawtex"

import "golang.org/x/image/font/sfnt"

// Canvas records drawing operations; in this stand-in none are made.
type Canvas struct{ ops []Op }

// New returns an empty canvas.
func New() *Canvas { return &Canvas{} }

// Ops returns the operations recorded: none.
func (c *Canvas) Ops() []Op { return c.ops }

// Op is a drawing operation.
type Op interface{ isOp() }

// GlyphOp draws a glyph at X, Y.
type GlyphOp struct {
	X, Y  float64
	Glyph Glyph
}

func (GlyphOp) isOp() {}

// RectOp fills the rectangle from X1, Y1 to X2, Y2.
type RectOp struct {
	X1, Y1 float64
	X2, Y2 float64
}

func (RectOp) isOp() {}

// Glyph is a glyph of a face at a size.
type Glyph struct {
	Font   *sfnt.Font
	Size   float64
	Symbol string
}
