package chart

import (
	"image/color"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"

	"headroom/estimator"
)

// Palette is every colour of the one-input chart. Input.Palette picks
// one; without it the chart is drawn in Light, the colours of every SVG
// and PNG the chart has written (its golden files pin them byte for
// byte). Dark is the page's for a dark colour scheme. Neither colour
// alone tells the chart's parts apart: the lines differ in width and
// dashes, the flips in their markers, the differing band is hatched, and
// the page labels the bands.
type Palette struct {
	Background color.Color // the canvas, the legend's strip too
	Ink        color.Color // text, axes, the available and lower-bound lines, the current value
	LabelBack  color.Color // behind the current value's label
	Rim        color.Color // around an observed peak's marker
	Grid       color.Color
	Candidate  color.Color
	Baseline   color.Color
	Differ     color.Color // the hatching where the revisions decide otherwise
	Retained   color.Color
	Decision   [estimator.Invalid + 1]color.Color
	Stage      [estimator.NumStages]color.Color
}

// Light is the chart's palette on a white page.
var Light = Palette{
	Background: color.White,
	Ink:        colInk,
	LabelBack:  color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xd8},
	Rim:        rgb(0xff, 0xff, 0xff),
	Grid:       colGrid,
	Candidate:  colCandidate,
	Baseline:   colBaseline,
	Differ:     colDiffer,
	Retained:   colRetained,
	Decision:   colDecision,
	Stage:      colStage,
}

// Dark is the chart's palette on a dark page: light ink on a near-black
// ground (text contrast above 12:1), the bands dark shades of the same
// hues, the lines lighter ones.
var Dark = Palette{
	Background: rgb(0x14, 0x1a, 0x23),
	Ink:        rgb(0xe4, 0xe8, 0xee),
	LabelBack:  color.NRGBA{R: 0x14, G: 0x1a, B: 0x23, A: 0xd8},
	Rim:        rgb(0x14, 0x1a, 0x23),
	Grid:       color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0x24},
	Candidate:  rgb(0x5c, 0xb0, 0xf2),
	Baseline:   rgb(0xf2, 0x9a, 0x4a),
	Differ:     color.NRGBA{R: 0xc8, G: 0x8c, B: 0xe8, A: 0xc0},
	Retained:   rgb(0xa8, 0xa8, 0xa8),
	Decision: [...]color.Color{
		estimator.Admit:   rgb(0x1c, 0x3a, 0x28),
		estimator.Split:   rgb(0x45, 0x39, 0x14),
		estimator.Refuse:  rgb(0x4c, 0x22, 0x22),
		estimator.Invalid: rgb(0x2c, 0x2c, 0x2c),
	},
	Stage: [estimator.NumStages]color.Color{
		rgb(0x8f, 0xd0, 0xf5), rgb(0xe0, 0x9c, 0xc4), rgb(0xc9, 0x9a, 0x8c), rgb(0x7c, 0xc8, 0x6a),
	},
}

// palette is the palette in draws with.
func (in *Input) palette() *Palette {
	if in.Palette != nil {
		return in.Palette
	}
	return &Light
}

// text is the chart's text style at size, in the palette's ink.
func (pal *Palette) text(size vg.Length) text.Style {
	return text.Style{Color: pal.Ink, Font: font.From(chartFont, size), Handler: chartText{}}
}
