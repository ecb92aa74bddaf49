package mtex

import (
	"errors"
	"testing"

	"codeberg.org/go-latex/latex/drawtex"
	"codeberg.org/go-latex/latex/font/ttf"
)

// TestParseSaysNoLaTeX: the stand-in typesets nothing, and says why.
func TestParseSaysNoLaTeX(t *testing.T) {
	node, err := Parse(`$x^2$`, 12, 72, ttf.NewFrom(drawtex.New(), &ttf.Fonts{}))
	if node != nil || !errors.Is(err, ErrNoLaTeX) {
		t.Errorf("Parse: %v, %v; want nil, ErrNoLaTeX", node, err)
	}
}
