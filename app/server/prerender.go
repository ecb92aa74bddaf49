package server

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// go-app v9.8.0 writes the attribute values of the HTML it prerenders on
// the server with strconv.Quote (pkg/app/html.go, writeHTMLAttribute),
// which is Go's escaping, not HTML's:
//
//	app.HTMLString(app.Input().Value(`"><img src=x onerror=alert(1)>`))
//	// <input value="\"><img src=x onerror=alert(1)>">
//
// HTML has no backslash escape: the value ends at the quote, and the rest
// is markup. Every attribute is affected (value, placeholder, title, the
// og:url meta tag, which carries the request's query); text nodes are
// fine (html.EscapeString, pkg/app/text.go). What would fix it upstream:
// html.EscapeString in writeHTMLAttribute, as for text. In the browser
// go-app sets attributes through the DOM, which needs no escaping, so
// only the server's prerender is affected.
//
// Headroom works around it at the one place the server's page takes text
// from outside: the request. prerenderRequest hands go-app's page renderer
// a copy of the request whose query holds no character go-app can write
// unsafely, so no component, present or future, can put request text
// into the page's markup; the browser then reads the real URL (OnMount)
// and shows exactly what the link says. The page's own constants that
// need such characters go through app/ui/widget's Attr.

// The prerender's budget. The page's work grows with the query's values
// (each is parsed, checked and may be reported), and a link of the page
// holds at most a few hundred (the fields, a baseline's overrides, 64
// observed points, the terms). A query with more values than
// maxPrerenderValues, or more than maxPrerenderBytes of them, is
// prerendered as the default state with each of its keys (the first
// maxPrerenderKeys, in order) holding overBudgetValue, which every field
// marks as invalid; the browser then reads the real link (OnMount).
const (
	maxPrerenderValues = 512
	maxPrerenderBytes  = 24 << 10
	maxPrerenderKeys   = 128
	overBudgetValue    = "(the link is too long to show before the page loads)"
)

// prerenderRequest returns r as go-app's page renderer may see it: the
// query's keys and values made inert (inertText) and re-encoded, and the
// Host made inert (net/http already refuses a quote in it). A query over
// the prerender's budget keeps only its keys (see maxPrerenderValues).
func prerenderRequest(r *http.Request) *http.Request {
	r2 := r.Clone(r.Context())
	q, _ := url.ParseQuery(r.URL.RawQuery) // keeps the pairs that parse, as the page does
	inert := url.Values{}
	if overBudget(q) {
		keys := slices.Sorted(maps.Keys(q))
		for _, k := range keys[:min(len(keys), maxPrerenderKeys)] {
			inert.Set(inertText(k), overBudgetValue)
		}
	} else {
		for k, vs := range q {
			ik := inertText(k)
			for _, v := range vs {
				inert[ik] = append(inert[ik], inertText(v))
			}
		}
	}
	r2.URL.RawQuery = inert.Encode()
	r2.URL.RawPath = ""
	r2.Host = inertText(r.Host)
	r2.RequestURI = r2.URL.RequestURI()
	return r2
}

// overBudget reports whether q has more values, or more bytes of keys and
// values, than the prerender's budget.
func overBudget(q url.Values) bool {
	n, size := 0, 0
	for k, vs := range q {
		n += len(vs)
		for _, v := range vs {
			size += len(k) + len(v)
		}
	}
	return n > maxPrerenderValues || size > maxPrerenderBytes
}

// inertText replaces every character go-app's attribute writer or an HTML
// reader could take for markup with U+FFFD: the quotes, the angle
// brackets, '&', the backtick, the backslash, and what strconv.Quote
// escapes (control and other non-printable characters, invalid UTF-8).
// What is left is written by strconv.Quote as it is and read by HTML as
// it is.
func inertText(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				b.WriteRune(utf8.RuneError)
				continue
			}
		}
		if strings.ContainsRune("\"'<>&`\\", r) || !strconv.IsPrint(r) {
			b.WriteRune(utf8.RuneError)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
