// Package mtex stands in for codeberg.org/go-latex/latex/mtex: Parse
// says that this build has no LaTeX (see ../README.md).
package mtex // import "codeberg.org/go-latex/latex/mtex"

import (
	"errors"

	"codeberg.org/go-latex/latex/drawtex"
	"codeberg.org/go-latex/latex/font/ttf"
	"codeberg.org/go-latex/latex/tex"
)

// ErrNoLaTeX is Parse's answer to every expression.
var ErrNoLaTeX = errors.New("this build has no LaTeX: Headroom replaces codeberg.org/go-latex/latex with a stand-in (third_party/go-latex)")

// Parse would typeset expr; here it returns ErrNoLaTeX.
func Parse(expr string, fontSize, DPI float64, backend *ttf.Backend) (tex.Node, error) {
	return nil, ErrNoLaTeX
}

// Renderer draws what a canvas recorded.
type Renderer interface {
	Render(w, h, dpi float64, cnv *drawtex.Canvas) error
}
