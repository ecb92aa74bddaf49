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
