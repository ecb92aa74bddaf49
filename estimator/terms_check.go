package estimator

// The terms' outside API: checking a list of terms as a page types them,
// evaluating one term's bytes and the variables' values for a config, and
// reading the "terms" list of a config's JSON.

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"headroom/estimator/internal/termexpr"
)

// CheckTerms validates terms on their own (count, names, places,
// revisions, the syntax and constant parts of each expression), as
// Resolve does: the error is an ErrorList, one entry per bad term, each
// naming it as terms[i] (name). A page checks a term as it is typed with
// it; failures that depend on a piece show when the config is priced.
//
// A term is accepted when it is valid under either profile (a link or a
// typed term does not know which profile prices it); Resolve then checks
// each term under the profile of each revision that holds it. The message
// of a term valid under neither is the art profile's when its place or
// mode is one only art has, else the seeds'.
func CheckTerms(terms []Term) error {
	if len(terms) > MaxTerms {
		_, errs := compileTerms(terms, false, holdAll)
		return errs
	}
	var errs ErrorList
	seen := map[string]int{}
	for i, t := range terms {
		field := TermField(i, t.Name)
		_, msg := compileTerm(t, holdAll)
		if msg != "" {
			_, artMsg := compileArtTerm(t, holdAll)
			switch {
			case artMsg == "":
				msg = ""
			case isArtPlace(t.Place) || t.Mode == "replace":
				msg = artMsg
			}
		}
		msg = uniqueTermName(seen, i, t.Name, msg)
		if msg != "" {
			errs = append(errs, &Error{Field: field, Message: msg})
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// CheckTermsProfile validates terms as Resolve does for a config of the
// profile ("seeds", "" or "art") whose revisions all use it.
func CheckTermsProfile(terms []Term, profile string) error {
	if _, errs := compileTerms(terms, isArt(profile), holdAll); len(errs) > 0 {
		return errs
	}
	return nil
}

// EvalTermBytes evaluates a term's bytes expression for a piece of n rows
// of c (1 <= n <= rows), before rounding, as the pricing does: the help
// of a page shows it as a person types (under art, over art's variables,
// unrounded). The error says what is wrong.
func EvalTermBytes(c Config, expr string, n int64) (int64, error) {
	probe := c
	probe.Terms = nil
	r, err := probe.Resolve()
	if err != nil {
		return 0, err
	}
	if r.Art {
		if n < 1 || n > r.N {
			return 0, &Error{Field: "rows", Message: "must be in 1.." + Group(r.N) + ", got " + Group(n)}
		}
		prog, _, _, msg := artTermLang.Compile(expr)
		if msg != "" {
			return 0, parseError(msg)
		}
		vars, err := r.artPieceVars(n)
		if err != nil {
			return 0, err
		}
		var st [maxTermStack]int64
		v, f := termexpr.Run(prog, vars[:], &st)
		if f.Kind != termexpr.FaultNone {
			return 0, parseError(f.Message(n))
		}
		return v, nil
	}
	prog, _, _, msg := compileExpr(expr)
	if msg != "" {
		return 0, parseError(msg)
	}
	if n < 1 || n > r.N {
		return 0, &Error{Field: "rows", Message: "must be in 1.." + Group(r.N) + ", got " + Group(n)}
	}
	k := r.perRow()
	var c2 calc
	var sz sizes
	r.size(&c2, &k, n, &sz)
	k.vars.setConfig(&r)
	k.vars.setPiece(&r, &k, &sz)
	var st [maxTermStack]int64
	v, f := termexpr.Run(prog, k.vars[:], &st)
	if f.Kind != termexpr.FaultNone {
		return 0, parseError(f.Message(n))
	}
	return v, nil
}

// TermVariableValues are the variables' values for the whole request of
// c, by name (n, p, t are then N, P, T); under the art profile, art's
// variables (ArtTermVariables) as the candidate prices the request.
func TermVariableValues(c Config) (map[string]int64, error) {
	probe := c
	probe.Terms = nil
	r, err := probe.Resolve()
	if err != nil {
		return nil, err
	}
	if r.Art {
		vars, err := r.artPieceVars(r.N)
		if err != nil {
			return nil, err
		}
		out := make(map[string]int64, numArtVars)
		for i, name := range artVarNames {
			out[name] = vars[i]
		}
		return out, nil
	}
	k := r.perRow()
	var c2 calc
	var sz sizes
	r.size(&c2, &k, r.N, &sz)
	k.vars.setConfig(&r)
	k.vars.setPiece(&r, &k, &sz)
	out := make(map[string]int64, numVars)
	for i, name := range varNames {
		out[name] = k.vars[i]
	}
	return out, nil
}

// decodeTerms reads the "terms" list of a config strictly: each term an
// object with the keys name, place, revision (optional) and bytes, each a
// string. null is no terms.
func decodeTerms(raw json.RawMessage) ([]Term, ErrorList) {
	var items []json.RawMessage
	if s := strings.TrimSpace(string(raw)); s == "null" {
		return nil, nil
	}
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, ErrorList{{Field: "terms", Message: `must be a list of terms, each {"name": ..., "place": ..., "revision": ..., "bytes": ...}`}}
	}
	var errs ErrorList
	terms := make([]Term, len(items))
	for i, item := range items {
		obj, err := decodeObject(item)
		if err != nil {
			errs = append(errs, &Error{Field: TermField(i, ""), Message: err.Error() + ` ({"name": ..., "place": ..., "revision": ..., "bytes": ...})`})
			continue
		}
		t := &terms[i]
		dst := map[string]*string{"name": &t.Name, "place": &t.Place, "revision": &t.Revision, "bytes": &t.Bytes, "mode": &t.Mode}
		if raw, ok := obj["name"]; ok {
			json.Unmarshal(raw, &t.Name) // checked below with the others
		}
		var problems []string
		keys := make([]string, 0, len(obj))
		for key := range obj {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		for _, key := range keys {
			p, ok := dst[key]
			if !ok {
				problems = append(problems, strconv.Quote(clip(key))+" is not a key of a term; allowed: bytes, mode, name, place, revision")
				continue
			}
			var s string
			if err := json.Unmarshal(obj[key], &s); err != nil || strings.TrimSpace(string(obj[key])) == "null" {
				problems = append(problems, key+" must be a string, got "+clip(strings.TrimSpace(string(obj[key]))))
				continue
			}
			*p = s
		}
		for _, key := range []string{"name", "place", "bytes"} {
			if _, ok := obj[key]; !ok {
				problems = append(problems, key+" is missing")
			}
		}
		if len(problems) > 0 {
			errs = append(errs, &Error{Field: TermField(i, t.Name), Message: strings.Join(problems, "; ")})
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return terms, nil
}
