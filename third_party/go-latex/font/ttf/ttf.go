// Package ttf stands in for codeberg.org/go-latex/latex/font/ttf, whose
// package variables parse four Go fonts at start-up, so every binary
// that imports gonum.org/v1/plot links 617 KB of TrueType Headroom never
// draws (see ../../README.md).
package ttf // import "codeberg.org/go-latex/latex/font/ttf"

import (
	"golang.org/x/image/font/sfnt"

	"codeberg.org/go-latex/latex/drawtex"
)

// Fonts are the faces a LaTeX expression is set in.
type Fonts struct {
	Default *sfnt.Font

	Rm   *sfnt.Font
	It   *sfnt.Font
	Bf   *sfnt.Font
	BfIt *sfnt.Font
}

// Backend would measure and draw glyphs of fnts on a canvas.
type Backend struct {
	canvas *drawtex.Canvas
	fonts  *Fonts
}

// NewFrom returns a backend drawing on cnv with fnts.
func NewFrom(cnv *drawtex.Canvas, fnts *Fonts) *Backend {
	return &Backend{canvas: cnv, fonts: fnts}
}
