package urlquery

import (
	"errors"
	"headroom/estimator"
	"net/url"
	"strconv"
	"strings"
)

// Terms travel in a URL under a repeatable key, one value per term in
// order, its four parts joined by "~" (which no valid name, place,
// revision or expression holds):
//
//	term=<name>~<place>~<revision>~<bytes>   term=logits_fp32_copy~head~candidate~2 * D
//
// The revision may be empty (candidate), or left out with its "~"
// (name~place~bytes). A term that replaces its part (profile art) carries
// its mode before the bytes: name~place~revision~replace~bytes.
// Everything after the third "~" (the fourth, after a mode) is the bytes,
// so a stray "~" there is reported by the expression's own checker.

// TermKey is the URL key of a term.
const TermKey = "term"

// EncodeTerm writes one term as its URL value.
func EncodeTerm(t estimator.Term) string {
	if t.Mode != "" {
		return t.Name + "~" + t.Place + "~" + t.Revision + "~" + t.Mode + "~" + t.Bytes
	}
	return t.Name + "~" + t.Place + "~" + t.Revision + "~" + t.Bytes
}

// DecodeTerm reads one term's URL value into its parts; only the
// shape is checked here (CheckTerms checks the parts). A value without
// the parts comes back as the name, with the error.
func DecodeTerm(s string) (estimator.Term, error) {
	parts := strings.SplitN(s, "~", 4)
	switch len(parts) {
	case 4:
		t := estimator.Term{Name: parts[0], Place: parts[1], Revision: parts[2], Bytes: parts[3]}
		// An expression holds no "~": a word before one is a mode, kept
		// as typed (a bad one is then named by CheckTerms).
		if mode, bytes, ok := strings.Cut(t.Bytes, "~"); ok && isWord(mode) {
			t.Mode, t.Bytes = mode, bytes
		}
		return t, nil
	case 3:
		return estimator.Term{Name: parts[0], Place: parts[1], Bytes: parts[2]}, nil
	}
	return estimator.Term{Name: s}, errors.New("must be name~place~revision~bytes (for example logits_fp32_copy~head~candidate~2 * D), got " + quote(s))
}

// encodeTerms adds the terms to q.
func encodeTerms(q url.Values, terms []estimator.Term) {
	for _, t := range terms {
		q.Add(TermKey, EncodeTerm(t))
	}
}

// decodeTermsQuery reads the terms of a URL: each value that is a valid
// term, together with those kept before it, is kept; each other is
// reported, named terms[i] (name) by its place among the URL's terms, and
// left out. Past estimator.MaxTerms the rest are reported and left out.
//
// check validates the terms kept so far with the next one (termsCheck).
func decodeTermsQuery(vals []string, check func([]estimator.Term) error) ([]estimator.Term, estimator.ErrorList) {
	var kept []estimator.Term
	var errs estimator.ErrorList
	for i, v := range vals {
		t, err := DecodeTerm(v)
		if err != nil {
			errs = append(errs, &estimator.Error{Field: estimator.TermField(i, t.Name), Message: err.Error()})
			continue
		}
		if len(kept) == estimator.MaxTerms {
			errs = append(errs, &estimator.Error{Field: estimator.TermField(i, t.Name), Message: "is one term too many: at most " + strconv.Itoa(estimator.MaxTerms) + " terms are allowed"})
			continue
		}
		if err := check(append(kept[:len(kept):len(kept)], t)); err != nil {
			msg := err.Error()
			if es := estimator.FieldErrors(err); len(es) > 0 {
				msg = es[len(es)-1].Message
			}
			errs = append(errs, &estimator.Error{Field: estimator.TermField(i, t.Name), Message: msg})
			continue
		}
		kept = append(kept, t)
	}
	return kept, errs
}

// isWord reports whether s is one or more ASCII letters.
func isWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}

// termsCheck is how a link's terms are checked: under c's profile when
// both revisions price with it, else valid under either (each revision
// then checks the terms it holds when the config is resolved).
func termsCheck(c estimator.Config) func([]estimator.Term) error {
	if c.Baseline != nil {
		if s, ok := c.Baseline.Overrides["profile"]; ok && (s.Text == estimator.ProfileArt) != (c.Profile == estimator.ProfileArt) {
			return estimator.CheckTerms
		}
	}
	return func(ts []estimator.Term) error { return estimator.CheckTermsProfile(ts, c.Profile) }
}
