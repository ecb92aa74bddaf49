package report

import "strings"

// JoinAnd joins names as a sentence lists them: "a", "a and b",
// "a, b and c"; "" for none. The reports and the page's notes share it.
func JoinAnd(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
