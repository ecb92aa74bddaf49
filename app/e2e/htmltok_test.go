//go:build !wasm

package e2e

import (
	"slices"
	"strings"
)

// htmlTag is one tag as a browser's tokenizer reads it: its name (lower
// case), whether it closes, and its attribute names (lower case, sorted,
// without duplicates: a browser keeps the first of a name).
type htmlTag struct {
	name  string
	end   bool
	attrs []string
	// pairs are the attributes as written, in order, duplicates kept:
	// each name (lower case) and its value as the tokenizer reads it,
	// character references undecoded ("" for a name without a value).
	pairs [][2]string
}

func (t htmlTag) String() string {
	s := "<"
	if t.end {
		s += "/"
	}
	s += t.name
	if len(t.attrs) > 0 {
		s += " " + strings.Join(t.attrs, " ")
	}
	return s + ">"
}

// tokenizeHTML returns the tags of doc in order, read with the state
// machine of the HTML standard's tokenizer (section 13.2.5) for the
// states a page can reach: data, tag open, tag name, the attribute name
// and value states (quoted and unquoted), self-closing, comments, the
// doctype, and the raw text of title, textarea, style and script. It
// ignores character references (they cannot open a tag or an attribute),
// so it sees exactly the elements and attributes Chromium would build
// from the same bytes. The tests use it instead of a parser module: the
// question they ask ("did the server's page grow an element or an
// attribute?") is a tokenizer's question.
func tokenizeHTML(doc string) []htmlTag {
	var tags []htmlTag
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
	isAlpha := func(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
	i, n := 0, len(doc)
	for i < n {
		// Data state: text up to '<'.
		lt := strings.IndexByte(doc[i:], '<')
		if lt < 0 {
			break
		}
		i += lt + 1
		if i >= n {
			break
		}
		switch c := doc[i]; {
		case c == '!':
			if strings.HasPrefix(doc[i:], "!--") {
				// Comment: to the first "-->" (an abrupt "<!-->" or
				// "<!--->" ends at once).
				rest := doc[i+3:]
				switch {
				case strings.HasPrefix(rest, ">"):
					i += 4
				case strings.HasPrefix(rest, "->"):
					i += 5
				default:
					end := strings.Index(rest, "-->")
					if end < 0 {
						return tags
					}
					i += 3 + end + 3
				}
				continue
			}
			// Doctype or bogus comment: to the next '>'.
			end := strings.IndexByte(doc[i:], '>')
			if end < 0 {
				return tags
			}
			i += end + 1
			continue
		case c == '?':
			end := strings.IndexByte(doc[i:], '>')
			if end < 0 {
				return tags
			}
			i += end + 1
			continue
		case c == '/':
			if i+1 < n && doc[i+1] == '>' {
				i += 2
				continue
			}
			if i+1 >= n || !isAlpha(doc[i+1]) {
				end := strings.IndexByte(doc[i:], '>') // bogus comment
				if end < 0 {
					return tags
				}
				i += end + 1
				continue
			}
		case !isAlpha(c):
			continue // a lone '<' is text
		}
		tag := htmlTag{}
		if doc[i] == '/' {
			tag.end = true
			i++
		}
		// Tag name state.
		start := i
		for i < n && !isSpace(doc[i]) && doc[i] != '/' && doc[i] != '>' {
			i++
		}
		tag.name = strings.ToLower(doc[start:i])
		var attrs []string
		var pairs [][2]string
		// Attribute states, to the '>' that ends the tag.
		done := false
		for i < n && !done {
			c := doc[i]
			switch {
			case isSpace(c) || c == '/':
				i++ // before attribute name; '/' is self-closing or ignored
			case c == '>':
				i++
				done = true
			default:
				// Attribute name state: the first character may be '='.
				start := i
				i++
				for i < n && !isSpace(doc[i]) && doc[i] != '/' && doc[i] != '>' && doc[i] != '=' {
					i++
				}
				attrs = append(attrs, strings.ToLower(doc[start:i]))
				pairs = append(pairs, [2]string{attrs[len(attrs)-1], ""})
				// After attribute name.
				for i < n && isSpace(doc[i]) {
					i++
				}
				if i >= n || doc[i] != '=' {
					continue
				}
				i++
				// Before attribute value.
				for i < n && isSpace(doc[i]) {
					i++
				}
				if i >= n {
					break
				}
				switch q := doc[i]; q {
				case '"', '\'':
					end := strings.IndexByte(doc[i+1:], q)
					if end < 0 {
						return tags
					}
					pairs[len(pairs)-1][1] = doc[i+1 : i+1+end]
					i += 1 + end + 1
				case '>':
					// Missing value: the tag ends.
				default:
					start := i
					for i < n && !isSpace(doc[i]) && doc[i] != '>' {
						i++
					}
					pairs[len(pairs)-1][1] = doc[start:i]
				}
			}
		}
		if !done {
			return tags
		}
		tag.pairs = pairs
		slices.Sort(attrs)
		tag.attrs = slices.Compact(attrs)
		tags = append(tags, tag)
		if tag.end {
			continue
		}
		switch tag.name {
		case "title", "textarea", "style", "script", "xmp", "iframe", "noembed", "noframes":
			// RCDATA, RAWTEXT, script data: text up to the matching end tag.
			j := i
			for {
				k := strings.Index(strings.ToLower(doc[j:]), "</"+tag.name)
				if k < 0 {
					return tags
				}
				j += k
				after := j + 2 + len(tag.name)
				if after >= n || isSpace(doc[after]) || doc[after] == '/' || doc[after] == '>' {
					break
				}
				j = after
			}
			i = j
		}
	}
	return tags
}
