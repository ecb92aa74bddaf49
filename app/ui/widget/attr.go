package widget

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Attr returns s for one of go-app's attribute setters: unchanged in
// the browser; on the server, with the characters strconv.Quote would
// mangle written as HTML character references, which it leaves alone and
// the HTML reader decodes back to s (see the go-app note in
// app/server/prerender.go).
func Attr(s string) string {
	if !app.IsServer {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"', r == '\\', r == '&', r == '<', r == '>', r == '\'', r == '`', !strconv.IsPrint(r):
			b.WriteString("&#" + strconv.Itoa(int(r)) + ";")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TextareaText gives ta the text s. A textarea's text is its content, not
// an attribute: on the server it is written as the element's text, which
// go-app escapes as HTML (pkg/app/text.go), so the prerendered box shows
// it and no character of it can end a tag; go-app's Text would write it
// as a value attribute with strconv.Quote, where a quote the page adds
// (estimator.FormatObserved quotes a label with spaces around it) ends the value
// and the rest becomes attributes. In the browser it is go-app's Text,
// the element's value property, which follows every edit.
//
// An HTML reader drops a line break right after <textarea>: a text that
// starts with one gets another.
func TextareaText(ta app.HTMLTextarea, s string) app.HTMLTextarea {
	if app.IsServer {
		if strings.HasPrefix(s, "\n") {
			s = "\n" + s
		}
		return ta.Body(app.Text(s))
	}
	return ta.Text(s)
}

// Texter is an element that takes a text: go-app's HTMLSpan, HTMLP, ...
type Texter[T any] interface{ Text(v any) T }

// SomeText gives e the text s, and no text node at all when s is empty:
// go-app's Text("") mounts an empty text node, one of Blink's nodes for
// each message slot (an error, a status) that is empty nearly always.
// The element itself stays, so its id, aria-live and aria-describedby
// hold while it is empty.
func SomeText[T Texter[T]](e T, s string) T {
	if s == "" {
		return e
	}
	return e.Text(s)
}

// NumCell is a table cell of a number, as text (right-aligned by the
// page's CSS: class num).
func NumCell(text string) app.UI { return app.Td().Class("num").Text(text) }
