package chart

import (
	"strings"

	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// captionPad is the space around the caption, in points.
const captionPad = 6

// drawCaption draws caption at the bottom of dc, wrapped to its width,
// and returns the canvas above it for the rest of the chart. A caption
// taller than a third of the drawing is cut to the lines that fit.
func drawCaption(dc draw.Canvas, caption string) draw.Canvas {
	sty := textStyle(9)
	sty.Color = rgb(0x44, 0x44, 0x44)
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
	w := dc.Size().X - 2*captionPad
	lines := wrapText(sty, caption, w)
	lineH := sty.Font.Size * 1.35
	if most := int((dc.Size().Y / 3) / lineH); len(lines) > most {
		lines = lines[:max(most, 0)]
	}
	if len(lines) == 0 {
		return dc
	}
	capH := vg.Length(len(lines))*lineH + 2*captionPad
	// A rule between the chart and its caption.
	dc.StrokeLine2(lineStyle(colGrid, 1), dc.Min.X+captionPad, dc.Min.Y+capH, dc.Max.X-captionPad, dc.Min.Y+capH)
	for i, l := range lines {
		dc.FillText(sty, vg.Point{X: dc.Min.X + captionPad, Y: dc.Min.Y + capH - captionPad - vg.Length(i)*lineH}, l)
	}
	return draw.Crop(dc, 0, 0, capH, 0)
}

// captionSep separates a caption's parts; a line breaks between parts
// before it breaks inside one.
const captionSep = " · "

// wrapText splits s into lines no wider than w: between parts (separated
// by captionSep) where it can, else at spaces (a word wider than w gets a
// line of its own); a newline in s always breaks.
func wrapText(sty text.Style, s string, w vg.Length) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, part := range strings.Split(para, captionSep) {
			next := part
			if line != "" {
				next = line + captionSep + part
			}
			if line == "" || sty.Width(next) <= w {
				line = next
				continue
			}
			lines = append(lines, breakWords(sty, line, w)...)
			line = part
		}
		// A part wider than w alone breaks at spaces.
		lines = append(lines, breakWords(sty, line, w)...)
	}
	return lines
}

// breakWords splits s at spaces into lines no wider than w.
func breakWords(sty text.Style, s string, w vg.Length) []string {
	if sty.Width(s) <= w {
		return []string{s}
	}
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		next := word
		if line != "" {
			next = line + " " + word
		}
		if line != "" && sty.Width(next) > w {
			lines = append(lines, line)
			next = word
		}
		line = next
	}
	return append(lines, line)
}
