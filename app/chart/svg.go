package chart

import (
	"errors"
	"fmt"
	"html"
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"
	"sync"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// svgCanvas is a vg.Canvas that writes the chart's SVG as gonum's vgsvg
// did, with the changes the page needs (one root element that scales to
// its container, presentation attributes instead of style="...", fallback
// fonts), byte for byte: svg_test.go checks it against vgsvg and
// fitSVG, the rewrite the chart used before. It is faster: vgsvg formats
// every coordinate and style through fmt, reads each text's font family
// from the font file, and builds its styles by concatenation, which made
// it a third of a chart's time in the browser.
type svgCanvas struct {
	w, h  vg.Length
	buf   []byte
	stack []svgContext
	opts  svgOptions
}

// svgContext is the drawing state that Push saves and Pop restores, and
// the groups (<g transform>) opened since the Push.
type svgContext struct {
	color      color.Color
	dashArray  []vg.Length
	dashOffset vg.Length
	lineWidth  vg.Length
	gEnds      int
}

// svgPrecision is vgsvg's: significant digits of every number written.
const svgPrecision = 5

// newSVGCanvas returns a canvas of w x h points, whose document scales to
// its container (width 100%, the drawing's size as its viewBox), written
// as opts say.
func newSVGCanvas(w, h vg.Length, opts ...SVGOption) *svgCanvas {
	c := &svgCanvas{w: w, h: h, stack: []svgContext{{}}, opts: svgOptionsOf(opts)}
	c.buf = make([]byte, 0, 24<<10)
	c.buf = c.opts.svgRoot(c.buf)
	c.buf = appendNum(c.buf, float64(w))
	c.buf = append(c.buf, ' ')
	c.buf = appendNum(c.buf, float64(h))
	c.buf = append(c.buf, "\"\n\txmlns=\"http://www.w3.org/2000/svg\"\n\txmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"...)
	// The origin to the bottom left, as vgsvg does; closed in bytes.
	c.buf = append(c.buf, `<g transform="scale(1, -1) translate(0, -`...)
	c.buf = appendNum(c.buf, h.Points())
	c.buf = append(c.buf, ")\">\n"...)
	vg.Initialize(c)
	return c
}

// appendNum writes v as vgsvg's "%.5g" does.
func appendNum(b []byte, v float64) []byte {
	return strconv.AppendFloat(b, v, 'g', svgPrecision, 64)
}

// Size implements vg.CanvasSizer.
func (c *svgCanvas) Size() (w, h vg.Length) { return c.w, c.h }

func (c *svgCanvas) context() *svgContext { return &c.stack[len(c.stack)-1] }

// SetLineWidth implements vg.Canvas.
func (c *svgCanvas) SetLineWidth(w vg.Length) { c.context().lineWidth = w }

// SetLineDash implements vg.Canvas.
func (c *svgCanvas) SetLineDash(dashes []vg.Length, offs vg.Length) {
	c.context().dashArray, c.context().dashOffset = dashes, offs
}

// SetColor implements vg.Canvas.
func (c *svgCanvas) SetColor(clr color.Color) { c.context().color = clr }

// Rotate implements vg.Canvas.
func (c *svgCanvas) Rotate(rad float64) {
	c.buf = append(c.buf, `<g transform="rotate(`...)
	c.buf = strconv.AppendFloat(c.buf, rad*180/math.Pi, 'g', -1, 64)
	c.buf = append(c.buf, ")\">\n"...)
	c.context().gEnds++
}

// Translate implements vg.Canvas.
func (c *svgCanvas) Translate(pt vg.Point) {
	c.buf = append(c.buf, `<g transform="translate(`...)
	c.buf = appendNum(c.buf, pt.X.Points())
	c.buf = append(c.buf, ", "...)
	c.buf = appendNum(c.buf, pt.Y.Points())
	c.buf = append(c.buf, ")\">\n"...)
	c.context().gEnds++
}

// Scale implements vg.Canvas.
func (c *svgCanvas) Scale(x, y float64) {
	c.buf = append(c.buf, `<g transform="scale(`...)
	c.buf = strconv.AppendFloat(c.buf, x, 'g', -1, 64)
	c.buf = append(c.buf, ',')
	c.buf = strconv.AppendFloat(c.buf, y, 'g', -1, 64)
	c.buf = append(c.buf, ")\">\n"...)
	c.context().gEnds++
}

// Push implements vg.Canvas.
func (c *svgCanvas) Push() {
	top := *c.context()
	top.gEnds = 0
	c.stack = append(c.stack, top)
}

// Pop implements vg.Canvas.
func (c *svgCanvas) Pop() {
	for range c.context().gEnds {
		c.buf = append(c.buf, "</g>\n"...)
	}
	c.stack = c.stack[:len(c.stack)-1]
}

// Stroke implements vg.Canvas. Each property is written unless it has
// vgsvg's default value, as vgsvg spells it.
func (c *svgCanvas) Stroke(path vg.Path) {
	ctx := c.context()
	if ctx.lineWidth.Points() <= 0 {
		return
	}
	mark := c.startPath(path)
	c.buf = append(c.buf, ` fill="none" stroke="`...)
	c.buf = appendColor(c.buf, ctx.color)
	c.buf = append(c.buf, '"')
	c.buf = appendOpacity(c.buf, "stroke-opacity", ctx.color)
	c.buf = appendNumAttr(c.buf, "stroke-width", ctx.lineWidth.Points(), "1")
	if len(ctx.dashArray) > 0 {
		c.buf = append(c.buf, ` stroke-dasharray="`...)
		for i, d := range ctx.dashArray {
			if i > 0 {
				c.buf = append(c.buf, ',')
			}
			c.buf = appendNum(c.buf, d.Points())
		}
		c.buf = append(c.buf, '"')
	}
	c.buf = appendNumAttr(c.buf, "stroke-dashoffset", ctx.dashOffset.Points(), "0")
	c.endPath(mark)
}

// Fill implements vg.Canvas.
func (c *svgCanvas) Fill(path vg.Path) {
	ctx := c.context()
	mark := c.startPath(path)
	c.buf = appendColorAttr(c.buf, "fill", ctx.color)
	c.buf = appendOpacity(c.buf, "fill-opacity", ctx.color)
	c.endPath(mark)
}

// startPath writes `<path d="..."` and returns where its attributes
// start.
func (c *svgCanvas) startPath(path vg.Path) int {
	c.buf = append(c.buf, `<path d="`...)
	c.buf = appendPathData(c.buf, path)
	c.buf = append(c.buf, '"')
	return len(c.buf)
}

// endPath closes the path element as svgo does, which leaves two spaces
// before "/>" when no attribute follows.
func (c *svgCanvas) endPath(mark int) {
	if len(c.buf) == mark {
		c.buf = append(c.buf, ' ')
	}
	c.buf = append(c.buf, " />\n"...)
}

// appendNumAttr writes ` name="v"` unless v is written def.
func appendNumAttr(b []byte, name string, v float64, def string) []byte {
	n := len(b)
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, '=', '"')
	m := len(b)
	b = appendNum(b, v)
	if string(b[m:]) == def {
		return b[:n]
	}
	return append(b, '"')
}

// appendOpacity writes ` name="alpha"` unless the colour is opaque.
func appendOpacity(b []byte, name string, clr color.Color) []byte {
	if clr == nil {
		clr = color.Black
	}
	_, _, _, a := clr.RGBA()
	return appendNumAttr(b, name, float64(a)/math.MaxUint16, "1")
}

// appendColorAttr writes ` name="#RRGGBB"` unless the colour is black
// (vgsvg's default).
func appendColorAttr(b []byte, name string, clr color.Color) []byte {
	n := len(b)
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, '=', '"')
	m := len(b)
	b = appendColor(b, clr)
	if string(b[m:]) == "#000000" {
		return b[:n]
	}
	return append(b, '"')
}

// appendColor writes vgsvg's colour: #RRGGBB of the colour divided by its
// alpha.
func appendColor(b []byte, clr color.Color) []byte {
	if clr == nil {
		clr = color.Black
	}
	r, g, bl, a16 := clr.RGBA()
	a := 255.0 / float64(a16)
	rgb := [3]int{int(float64(r) * a), int(float64(g) * a), int(float64(bl) * a)}
	const hex = "0123456789ABCDEF"
	b = append(b, '#')
	for _, v := range rgb {
		if v < 0 || v > 255 { // a transparent colour: as vgsvg writes it
			return fmt.Appendf(b[:len(b)-1], "#%02X%02X%02X", rgb[0], rgb[1], rgb[2])
		}
		b = append(b, hex[v>>4], hex[v&15])
	}
	return b
}

// appendPathData writes a path's d attribute as vgsvg's pathData does.
func appendPathData(b []byte, path vg.Path) []byte {
	var x, y float64
	pt := func(b []byte, cmd byte, px, py float64) []byte {
		if cmd != 0 {
			b = append(b, cmd)
		}
		b = appendNum(b, px)
		b = append(b, ',')
		return appendNum(b, py)
	}
	for i := range path {
		comp := &path[i]
		switch comp.Type {
		case vg.MoveComp:
			x, y = comp.Pos.X.Points(), comp.Pos.Y.Points()
			b = pt(b, 'M', x, y)
		case vg.LineComp:
			x, y = comp.Pos.X.Points(), comp.Pos.Y.Points()
			b = pt(b, 'L', x, y)
		case vg.ArcComp:
			r := comp.Radius.Points()
			sin, cos := math.Sincos(comp.Start)
			x0 := comp.Pos.X.Points() + r*cos
			y0 := comp.Pos.Y.Points() + r*sin
			if x0 != x || y0 != y {
				b = pt(b, 'L', x0, y0)
			}
			if math.Abs(comp.Angle) >= 2*math.Pi {
				b, x, y = appendCircle(b, comp)
			} else {
				b, x, y = appendArc(b, comp)
			}
		case vg.CurveComp:
			switch len(comp.Control) {
			case 1:
				b = pt(b, 'Q', comp.Control[0].X.Points(), comp.Control[0].Y.Points())
			case 2:
				b = pt(b, 'C', comp.Control[0].X.Points(), comp.Control[0].Y.Points())
				b = append(b, ',')
				b = pt(b, 0, comp.Control[1].X.Points(), comp.Control[1].Y.Points())
			default:
				panic("chart: invalid number of control points")
			}
			x, y = comp.Pos.X.Points(), comp.Pos.Y.Points()
			b = append(b, ',')
			b = pt(b, 0, x, y)
		case vg.CloseComp:
			b = append(b, 'Z')
		default:
			panic("chart: unknown path component type " + strconv.Itoa(comp.Type))
		}
	}
	return b
}

// appendArcTo writes an SVG arc command of radius r to (x, y).
func appendArcTo(b []byte, r float64, large, sweep bool, x, y float64) []byte {
	b = append(b, 'A')
	b = appendNum(b, r)
	b = append(b, ',')
	b = appendNum(b, r)
	b = append(b, " 0 "...)
	b = append(b, "01"[boolInt(large)], ' ', "01"[boolInt(sweep)], ' ')
	b = appendNum(b, x)
	b = append(b, ',')
	return appendNum(b, y)
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}

// appendCircle draws a full circle as two arcs (SVG cannot draw an arc
// whose ends meet), as vgsvg's circle does.
func appendCircle(b []byte, comp *vg.PathComp) ([]byte, float64, float64) {
	angle := 2 * math.Pi
	if comp.Angle < 0 {
		angle = -2 * math.Pi
	}
	angle += (comp.Angle/(2*math.Pi) - math.Trunc(comp.Angle/(2*math.Pi))) * (2 * math.Pi)
	if angle >= 4*math.Pi {
		panic("chart: impossible angle")
	}
	s0, c0 := math.Sincos(comp.Start + 0.5*angle)
	s1, c1 := math.Sincos(comp.Start + angle)
	r := comp.Radius.Points()
	x0, y0 := comp.Pos.X.Points()+r*c0, comp.Pos.Y.Points()+r*s0
	x, y := comp.Pos.X.Points()+r*c1, comp.Pos.Y.Points()+r*s1
	large, sweep := math.Abs(angle/2) >= math.Pi, angle/2 >= 0
	b = appendArcTo(b, r, large, sweep, x0, y0)
	return appendArcTo(b, r, large, sweep, x, y), x, y
}

// appendArc draws an arc of less than a full turn, as vgsvg's arc does.
func appendArc(b []byte, comp *vg.PathComp) ([]byte, float64, float64) {
	r := comp.Radius.Points()
	sin, cos := math.Sincos(comp.Start + comp.Angle)
	x, y := comp.Pos.X.Points()+r*cos, comp.Pos.Y.Points()+r*sin
	return appendArcTo(b, r, math.Abs(comp.Angle) >= math.Pi, comp.Angle >= 0, x, y), x, y
}

// FillString implements vg.Canvas.
func (c *svgCanvas) FillString(f font.Face, pt vg.Point, str string) {
	c.buf = append(c.buf, `<text x="`...)
	c.buf = appendNum(c.buf, pt.X.Points())
	c.buf = append(c.buf, `" y="`...)
	c.buf = appendNum(c.buf, -pt.Y.Points())
	c.buf = append(c.buf, "\" transform=\"scale(1, -1)\"\n\t"...)
	c.buf = append(c.buf, svgFontAttrs(f)...)
	c.buf = append(c.buf, ` font-size="`...)
	c.buf = appendNum(c.buf, f.Font.Size.Points())
	c.buf = append(c.buf, `px"`...)
	c.buf = appendColorAttr(c.buf, "fill", c.context().color)
	c.buf = append(c.buf, '>')
	c.buf = append(c.buf, html.EscapeString(str)...)
	c.buf = append(c.buf, "</text>\n"...)
}

// DrawImage implements vg.Canvas; the chart draws no image.
func (c *svgCanvas) DrawImage(vg.Rectangle, image.Image) {
	panic("chart: the SVG canvas draws no images")
}

// bytes closes the open groups and the document and returns it.
func (c *svgCanvas) bytes() []byte {
	n := 1 // the origin's group
	for _, ctx := range c.stack {
		n += ctx.gEnds
	}
	for range n {
		c.buf = append(c.buf, "</g>\n"...)
	}
	c.buf = append(c.buf, "</svg>\n"...)
	if c.opts.compact {
		c.buf = compactSVG(c.buf)
	}
	return c.buf
}

var (
	svgFontMu    sync.Mutex
	svgFontCache = map[font.Font]string{}
)

// svgFontAttrs is a font's family, variant, weight and style as
// presentation attributes, as vgsvg names them (the family read from the
// font file), with fallbacks after the chart's family. The font file is
// read once per font.
func svgFontAttrs(f font.Face) string {
	key := f.Font
	key.Size = 0
	svgFontMu.Lock()
	defer svgFontMu.Unlock()
	if a, ok := svgFontCache[key]; ok {
		return a
	}
	var buf sfnt.Buffer
	family, err := f.Face.Name(&buf, sfnt.NameIDFamily)
	if err != nil {
		panic(errors.New("chart: no family name in the font " + string(f.Font.Typeface) + ": " + err.Error()))
	}
	if family == chartFamily {
		family += ",Arial,Helvetica,sans-serif"
	}
	a := `font-family="` + family + `" font-variant="` + svgVariant(f.Font.Variant) +
		`" font-weight="` + svgWeight(f.Font.Weight) + `" font-style="` + svgStyle(f.Font.Style) + `"`
	svgFontCache[key] = a
	return a
}

// svgVariant, svgWeight and svgStyle name a font's variant, weight and
// style as vgsvg does. A family variant (Sans, Serif, Mono) is no SVG
// variant: it names the family, so it is written "normal".
func svgVariant(v font.Variant) string {
	switch s := strings.ToLower(string(v)); s {
	case "smallcaps":
		return "small-caps"
	case "mono", "monospace", "sans", "sansserif", "sans-serif", "serif":
		return "normal"
	case "":
		return "none"
	default:
		return s
	}
}

func svgWeight(w xfont.Weight) string {
	switch w {
	case xfont.WeightThin:
		return "100"
	case xfont.WeightExtraLight:
		return "200"
	case xfont.WeightLight:
		return "300"
	case xfont.WeightNormal:
		return "normal"
	case xfont.WeightMedium:
		return "500"
	case xfont.WeightSemiBold:
		return "600"
	case xfont.WeightBold:
		return "bold"
	case xfont.WeightExtraBold:
		return "800"
	case xfont.WeightBlack:
		return "900"
	}
	panic(fmt.Errorf("chart: invalid font weight %d", int(w)))
}

func svgStyle(s xfont.Style) string {
	switch s {
	case xfont.StyleNormal:
		return "normal"
	case xfont.StyleItalic:
		return "italic"
	case xfont.StyleOblique:
		return "oblique"
	}
	panic(fmt.Errorf("chart: invalid font style %d", int(s)))
}
