package estimator

import (
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
// (name~place~bytes). Everything after the third "~" is the bytes, so a
// stray "~" there is reported by the expression's own checker.

// QueryTermKey is the URL key of a term.
const QueryTermKey = "term"

// EncodeQueryTerm writes one term as its URL value.
func EncodeQueryTerm(t Term) string {
	return t.Name + "~" + t.Place + "~" + t.Revision + "~" + t.Bytes
}

// DecodeQueryTerm reads one term's URL value into its parts; only the
// shape is checked here (CheckTerms checks the parts). A value without
// the parts comes back as the name, with the error.
func DecodeQueryTerm(s string) (Term, error) {
	parts := strings.SplitN(s, "~", 4)
	switch len(parts) {
	case 4:
		return Term{Name: parts[0], Place: parts[1], Revision: parts[2], Bytes: parts[3]}, nil
	case 3:
		return Term{Name: parts[0], Place: parts[1], Bytes: parts[2]}, nil
	}
	return Term{Name: s}, parseError("must be name~place~revision~bytes (for example logits_fp32_copy~head~candidate~2 * D), got " + quote(s))
}

// encodeTerms adds the terms to q.
func encodeTerms(q url.Values, terms []Term) {
	for _, t := range terms {
		q.Add(QueryTermKey, EncodeQueryTerm(t))
	}
}

// decodeTermsQuery reads the terms of a URL: each value that is a valid
// term, together with those kept before it, is kept; each other is
// reported, named terms[i] (name) by its place among the URL's terms, and
// left out. Past MaxTerms the rest are reported and left out.
func decodeTermsQuery(vals []string) ([]Term, ErrorList) {
	var kept []Term
	var errs ErrorList
	for i, v := range vals {
		t, err := DecodeQueryTerm(v)
		if err != nil {
			errs = append(errs, &Error{Field: termField(i, t.Name), Message: err.Error()})
			continue
		}
		if len(kept) == MaxTerms {
			errs = append(errs, &Error{Field: termField(i, t.Name), Message: "is one term too many: at most " + strconv.Itoa(MaxTerms) + " terms are allowed"})
			continue
		}
		if err := CheckTerms(append(kept[:len(kept):len(kept)], t)); err != nil {
			msg := err.Error()
			if es := FieldErrors(err); len(es) > 0 {
				msg = es[len(es)-1].Message
			}
			errs = append(errs, &Error{Field: termField(i, t.Name), Message: msg})
			continue
		}
		kept = append(kept, t)
	}
	return kept, errs
}

// TermIndex is the index i of an error's Field that names a term,
// "terms[i] (name)".
func TermIndex(field string) (int, bool) {
	rest, ok := strings.CutPrefix(field, "terms[")
	if !ok {
		return 0, false
	}
	j := strings.IndexByte(rest, ']')
	if j < 0 {
		return 0, false
	}
	i, err := strconv.Atoi(rest[:j])
	if err != nil || i < 0 {
		return 0, false
	}
	return i, true
}
