package chart

import "strconv"

// SVGOption changes how a chart's SVG document is written, not what it
// draws: the page's copy of a chart is named by its caption and has no
// line breaks, an <img> of a PNG export needs a size in pixels. Without
// options the document is the one the goldens hold.
type SVGOption func(*svgOptions)

type svgOptions struct {
	labelledBy string // the id of the element that names the document ("": none)
	compact    bool
	pxW, pxH   int // a size in pixels instead of width 100% (0: none)
}

// LabelledBy names the document by the element with that id (its role="img"
// root gets aria-labelledby), so assistive technology reads what the
// figure's caption says the chart shows.
func LabelledBy(id string) SVGOption { return func(o *svgOptions) { o.labelledBy = id } }

// Compact leaves out the line break written after each element: in a page
// each would be a text node of its own, half of the document's nodes. No
// text loses one: a text's '>' is written escaped.
func Compact() SVGOption { return func(o *svgOptions) { o.compact = true } }

// Sized gives the document a size of w x h pixels instead of width 100%:
// an <img> needs one to draw it at that size (the PNG export).
func Sized(w, h int) SVGOption { return func(o *svgOptions) { o.pxW, o.pxH = w, h } }

func svgOptionsOf(opts []SVGOption) svgOptions {
	var o svgOptions
	for _, f := range opts {
		f(&o)
	}
	return o
}

// svgRoot is the root element's opening up to its viewBox's value: width
// 100% (or the size in pixels), role="img" (and its label).
func (o svgOptions) svgRoot(b []byte) []byte {
	if o.pxW > 0 {
		b = append(b, `<svg width="`...)
		b = strconv.AppendInt(b, int64(o.pxW), 10)
		b = append(b, `" height="`...)
		b = strconv.AppendInt(b, int64(o.pxH), 10)
		b = append(b, '"')
	} else {
		b = append(b, `<svg width="100%"`...)
	}
	b = append(b, ` preserveAspectRatio="xMidYMid meet" role="img"`...)
	if o.labelledBy != "" {
		b = append(b, ` aria-labelledby="`...)
		b = append(b, o.labelledBy...)
		b = append(b, '"')
	}
	return append(b, ` viewBox="0 0 `...)
}

// compactSVG drops every line break that follows an element's '>', in
// place (the write never passes the read, and reads only bytes it has not
// moved).
func compactSVG(svg []byte) []byte {
	out := svg[:0]
	for k, ch := range svg {
		if ch == '\n' && k > 0 && svg[k-1] == '>' {
			continue
		}
		out = append(out, ch)
	}
	return out
}
