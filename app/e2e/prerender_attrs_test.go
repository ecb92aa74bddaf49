//go:build !wasm

package e2e

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// labelPayloads are valid observed-peak labels (at most 64 bytes) that a
// link may carry: spaces around them, which the panel's text quotes, and
// quotes of both kinds, with the markup the second security probe used.
var labelPayloads = []string{
	` x onfocus=document.title=document.domain autofocus `,
	` hidden `,
	` x" hidden y="`,
	`"quoted" label`,
	`a "b" c `,
	` ' onmouseover=alert(1) '`,
	`x" y="z`,
	` \" hidden \" `,
	"\t tab \t",
	`""`,
	` `,
}

// attrHoldsEscape returns the first attribute of page whose value holds a
// backslash, which go-app's strconv.Quote writes before a quote it means
// to escape (`\"`) and HTML does not read as an escape: "" when none does.
func attrHoldsEscape(page string) string {
	for _, tag := range tokenizeHTML(page) {
		for _, a := range tag.pairs {
			if strings.Contains(a[1], `\`) {
				return tag.String() + " " + a[0] + "=" + a[1]
			}
		}
	}
	return ""
}

// TestPrerenderObservedLabels: a link's observed-peak label, valid, with
// spaces around it or quotes in it, prerenders as text: the page has the
// elements and attributes of the same link with a plain label, and no
// attribute value holds an escape (the panel's text
// quoted the label and go-app wrote it into the textarea's value
// attribute with strconv.Quote).
func TestPrerenderObservedLabels(t *testing.T) {
	s := newPrerenderServer(t)
	base := prerender(t, s, url.Values{"obs": {"64902~94780217856~plain"}}.Encode())
	if d := attrHoldsEscape(base); d != "" {
		t.Fatalf("the plain label's page: %s", d)
	}
	for _, label := range labelPayloads {
		for _, raw := range []bool{false, true} {
			q := url.Values{"obs": {"64902~94780217856~" + label}}.Encode()
			if raw {
				q = "obs=64902~94780217856~" + strings.NewReplacer("%", "%25", "&", "%26", "#", "%23", "+", "%2B", " ", "%20").Replace(label)
			}
			page := prerender(t, s, q)
			if d := attrHoldsEscape(page); d != "" {
				t.Errorf("?%s: %s", q, d)
			}
			if d := sameMarkup(base, page); d != "" {
				t.Errorf("?%s: %s", q, d)
			}
		}
	}
}

// TestPrerenderBooleanAttributes: the prerendered page writes a boolean
// attribute only when it is true. HTML reads its presence as true
// whatever its value, so disabled="false" (go-app's writing of
// Disabled(false), as the export buttons had it) disables.
func TestPrerenderBooleanAttributes(t *testing.T) {
	s := newPrerenderServer(t)
	for _, q := range []string{"", "rows=1000", "rows=x", "obs=64902~94780217856~cold"} {
		for _, tag := range tokenizeHTML(prerender(t, s, q)) {
			for _, a := range tag.pairs {
				switch a[0] {
				case "disabled", "checked", "selected", "readonly", "hidden", "open", "required", "autofocus", "multiple":
					if a[1] != "" && a[1] != a[0] {
						t.Errorf("?%s: %s has %s=%q, which HTML reads as %s", q, tag, a[0], a[1], a[0])
					}
				}
			}
		}
	}
}

// floodQueries are the costliest links found for the prerender: 5,000
// invalid obs values (a 30 KB link), as many valid
// points (beyond the 64 kept), as many terms, and as many values of
// one field, and one long term.
var floodQueries = map[string]string{
	"obs-invalid": strings.Repeat("obs=~&", 5000),
	"obs-valid":   strings.Repeat("obs=1~1&", 4000),
	"terms":       strings.Repeat("term=a~b~c&", 3000),
	"field":       strings.Repeat("rows=x&", 5000),
	"long-value":  "term=a~b~" + strings.Repeat("1%2B", 7000) + "1",
	"heavy-valid": heavyValidQuery(),
}

// heavyValidQuery is a valid link that asks the most of the page: 64
// observed points with labels, 16 terms in every place, a baseline of
// its own, along vocab_size over its whole range.
func heavyValidQuery() string {
	var b strings.Builder
	b.WriteString("axis=vocab_size&from=1&to=67108864&b.capacity_bytes=85899345920&b.rows=100000")
	for i := range 64 {
		b.WriteString("&obs=" + strconv.Itoa(1000+i*997) + "~" + strconv.Itoa(20000000000+i*123456789) + "~point+" + strconv.Itoa(i))
	}
	places := []string{"head", "fc2", "retained", "stage"}
	for i := range 16 {
		b.WriteString("&term=t" + strconv.Itoa(i) + "~" + places[i%4] + "~both~r+*+H+*+b+%2B+n+*+K+*+4")
	}
	return b.String()
}

// BenchmarkPrerenderFlood is the server's cost of one request for each
// flood link: the CPU of the prerender, run one at a time (go test -bench
// PrerenderFlood -benchtime 3x ./app/e2e).
func BenchmarkPrerenderFlood(b *testing.B) {
	s := newPrerenderServer(b)
	for _, name := range []string{"obs-invalid", "obs-valid", "terms", "field", "long-value", "heavy-valid"} {
		q := floodQueries[name]
		b.Run(name, func(b *testing.B) {
			var page string
			for b.Loop() {
				page = prerender(b, s, q)
			}
			b.ReportMetric(float64(len(page)), "page-bytes")
		})
	}
}

// TestPrerenderOverBudget: a link over the prerender's budget (5,000
// invalid points) is answered quickly with the default state's page,
// the link's fields marked, a page no larger than the default one's by
// more than the marks.
func TestPrerenderOverBudget(t *testing.T) {
	s := newPrerenderServer(t)
	plain := prerender(t, s, "")
	start := time.Now()
	page := prerender(t, s, "rows=5&"+floodQueries["obs-invalid"])
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the flood's prerender took %v", d)
	}
	if len(page) > len(plain)+8<<10 {
		t.Errorf("the flood's page is %d bytes, the default page %d", len(page), len(plain))
	}
	if n := strings.Count(page, "too long to show"); n < 2 {
		t.Errorf("the marker is on %d fields, want rows and the observed points", n)
	}
	if d := sameMarkup(prerender(t, s, "rows=x&obs=~"), page); d != "" {
		t.Errorf("the flood's page differs from the page of its fields marked: %s", d)
	}
}
