package server

import (
	"strconv"
	"strings"
)

// acceptEncoding is a parsed Accept-Encoding header: each listed coding
// (lower case) with its q-value.
type acceptEncoding struct {
	q map[string]float64
}

// parseAcceptEncoding reads an Accept-Encoding header (RFC 9110, 12.5.3).
// An element whose q-value does not parse, or lies outside 0..1, is left
// out, as a malformed element is.
func parseAcceptEncoding(header string) acceptEncoding {
	a := acceptEncoding{q: map[string]float64{}}
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding == "" {
			continue
		}
		weight, ok := 1.0, true
		for _, p := range strings.Split(params, ";") {
			k, v, found := strings.Cut(strings.TrimSpace(p), "=")
			if !found || !strings.EqualFold(strings.TrimSpace(k), "q") {
				continue
			}
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || f < 0 || f > 1 {
				ok = false
				break
			}
			weight = f
		}
		if ok {
			a.q[coding] = weight
		}
	}
	return a
}

// weight is the q-value of a coding: its own entry, else "*"'s. identity
// with neither is acceptable at the lowest weight above zero (it is
// acceptable unless excluded, and any coding the client listed is
// preferred to it); any other coding with neither is not acceptable.
func (a acceptEncoding) weight(coding string) float64 {
	if w, ok := a.q[coding]; ok {
		return w
	}
	if w, ok := a.q["*"]; ok {
		return w
	}
	if coding == "identity" {
		return 1e-9
	}
	return 0
}

// choose returns the coding to send among available (in the server's
// order of preference, "identity" for none, which the caller includes
// when it has the plain file): the highest q-value above zero, ties going
// to the earlier. ok is false when none is acceptable ("identity;q=0"
// or "*;q=0" with no acceptable copy): the answer is then 406.
func (a acceptEncoding) choose(available []string) (coding string, ok bool) {
	best := 0.0
	for _, c := range available {
		if w := a.weight(c); w > best {
			coding, best = c, w
		}
	}
	return coding, best > 0
}
