package chart

import (
	"math"
	"strings"
	"sync"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// chartText is gonum's plain text handler with its measurements memoized:
// gonum measures each tick label several times per draw, the labels repeat
// from one slider move to the next, and measuring allocates.
type chartText struct{}

var (
	chartPlain   = text.Plain{Fonts: font.DefaultCache}
	textMu       sync.Mutex
	textWidths   = map[textKey]vg.Length{}
	textExtents  = map[font.Font]font.Extents{}
	textCacheMax = 2048 // the current value's label changes on every move
)

type textKey struct {
	txt  string
	font font.Font
}

// Cache implements text.Handler.
func (chartText) Cache() *font.Cache { return chartPlain.Fonts }

// Lines implements text.Handler.
func (chartText) Lines(txt string) []string { return chartPlain.Lines(txt) }

// Extents implements text.Handler.
func (chartText) Extents(f font.Font) font.Extents {
	textMu.Lock()
	defer textMu.Unlock()
	e, ok := textExtents[f]
	if !ok {
		e = chartPlain.Extents(f)
		textExtents[f] = e
	}
	return e
}

func (chartText) width(txt string, f font.Font) vg.Length {
	k := textKey{txt, f}
	textMu.Lock()
	defer textMu.Unlock()
	w, ok := textWidths[k]
	if !ok {
		if len(textWidths) >= textCacheMax {
			clear(textWidths)
		}
		face := chartPlain.Fonts.Lookup(f, f.Size)
		w = face.Width(txt)
		textWidths[k] = w
	}
	return w
}

// Box implements text.Handler.
func (h chartText) Box(txt string, f font.Font) (width, height, depth vg.Length) {
	e := h.Extents(f)
	return h.width(txt, f), e.Ascent, e.Descent
}

// Draw implements text.Handler as text.Plain does, with memoized widths.
func (h chartText) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	txt = strings.TrimRight(txt, "\n")
	if txt == "" {
		return
	}
	lines := h.Lines(txt)
	fnt := chartPlain.Fonts.Lookup(sty.Font, sty.Font.Size)
	c.SetColor(sty.Color)
	if sty.Rotation != 0 {
		c.Push()
		defer c.Pop()
		c.Rotate(sty.Rotation)
	}
	sin64, cos64 := math.Sincos(sty.Rotation)
	cos, sin := vg.Length(cos64), vg.Length(sin64)
	pt.X, pt.Y = pt.Y*sin+pt.X*cos, pt.Y*cos-pt.X*sin
	pt.Y += sty.Height(txt)*vg.Length(sty.YAlign) - h.Extents(sty.Font).Ascent
	for i, line := range lines {
		xoffs := vg.Length(sty.XAlign) * h.width(line, sty.Font)
		n := vg.Length(len(lines) - i)
		c.FillString(fnt, pt.Add(vg.Point{X: xoffs, Y: n * sty.Font.Size}), line)
	}
}
