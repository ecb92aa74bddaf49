//go:build !wasm

package main

import (
	"net/url"
	"strings"
	"testing"
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
// attribute value holds an escape (issue 28, finding 1: the panel's text
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
// Disabled(false), issue 28's export buttons) disables.
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
