package page

import (
	"net/url"
	"sort"
	"strings"
)

// EncodeAddress writes the page's query for the address bar: as
// url.Values.Encode does, except that a term's value keeps the characters
// a query may hold as they are (* ( ) / , : @ ! $ ~), so that
// term=x~head~candidate~2+*+D reads as typed rather than as
// 2+%2A+D. Every other key and value is written as Encode writes it.
func EncodeAddress(q url.Values) string {
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		ke := url.QueryEscape(k)
		for _, v := range q[k] {
			if b.Len() > 0 {
				b.WriteByte('&')
			}
			b.WriteString(ke)
			b.WriteByte('=')
			if k == "term" {
				b.WriteString(termEscape(v))
			} else {
				b.WriteString(url.QueryEscape(v))
			}
		}
	}
	return b.String()
}

// termEscape is url.QueryEscape that leaves the readable characters of
// an expression alone; ParseQuery reads either back the same.
func termEscape(v string) string {
	var b strings.Builder
	for _, part := range strings.SplitAfter(v, "") {
		switch {
		case len(part) == 1 && strings.ContainsAny(part, "*()/,:@!$~"):
			b.WriteString(part)
		default:
			b.WriteString(url.QueryEscape(part))
		}
	}
	return b.String()
}
