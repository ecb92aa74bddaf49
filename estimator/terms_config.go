package estimator

import (
	"strconv"
	"strings"
	"sync"

	"headroom/estimator/internal/termexpr"
)

// Term is a tensor of a change of the user's own (docs/model.md §8): its bytes in
// one piece as an integer expression over named variables, where it lives
// and which revision holds it. Its JSON is
// {"name": ..., "place": ..., "revision": ..., "bytes": ...}.
type Term struct {
	Name     string `json:"name"`
	Place    string `json:"place"`
	Revision string `json:"revision,omitempty"` // "" = candidate
	Bytes    string `json:"bytes"`
	// Mode is "add" (the default, "") or "replace": under the art profile
	// a replacing term stands in for its part's own bytes (docs/model.md
	// §13.13).
	Mode string `json:"mode,omitempty"`
}

// The limits of docs/model.md §8.
const (
	MaxTerms         = 16
	MaxTermBytesText = termexpr.MaxText
	maxTermName      = 32
)

// TermPlaces are the places a term can have; TermRevisions its revisions.
var (
	TermPlaces    = []string{"retained", "activations", "head", "fc2", "gdn", "stage"}
	TermRevisions = []string{"candidate", "baseline", "both"}
	TermModes     = []string{"add", "replace"}
)

// TermVariables lists the variables a term's bytes may use.
func TermVariables() []string { return append([]string(nil), varNames[:]...) }

// Which revisions hold a term: the baseline, the candidate, and the lower
// bound (which counts the terms both hold).
const (
	holdBaseline uint8 = 1 << iota
	holdCandidate
	holdLower
	holdAll = holdBaseline | holdCandidate | holdLower
)

// placeRetained and placeStage are a compiled term's place besides the
// built-in stages (0 .. NumStages-1).
const (
	placeRetained = -1
	placeStage    = int8(NumStages)
)

// compiledTerm is a validated term, ready to evaluate.
type compiledTerm struct {
	name  string
	field string // "terms[i] (name)", the Field of its errors
	place int8   // a Stage, placeRetained or placeStage; under art an artPlace
	holds uint8  // holdBaseline | holdCandidate | holdLower
	// replace: the term stands in for its part's own bytes (art only).
	replace bool
	prog    []termexpr.Instr
	safe    bool // see termexpr.Facts
	subadd  bool
	uses    uint64
	// chain: the program is a value followed by additions and
	// multiplications by constants or variables (2 * D, r * I * b), which
	// termValue evaluates in line.
	chain bool
}

// termRef is a term a revision holds, and where.
type termRef struct {
	i     uint8
	place int8
}

// termSet is a config's terms, compiled once. A Resolved points at it, so
// that a Resolved stays comparable and cheap to copy.
type termSet struct {
	terms []compiledTerm
	uses  uint64 // the variables any term uses
	// unsafe has the hold bit of each revision that holds a term that
	// breaks the ladder's shortcuts (see decideFrom).
	unsafe uint8
	// held lists the terms the baseline, the candidate and the lower
	// bound hold; own, the terms of place stage.
	held     [3][]termRef
	heldMask [3]uint16 // the same as bits
	own      []uint8
	// art: the terms are compiled for the art profile (art_terms.go):
	// places are artPlaces, programs run over artVarNames. artRequest:
	// some term reads a variable of the whole request (N, P, T, m), so a
	// piece's price depends on more than its own rows.
	art, artRequest bool
}

// holding returns the terms a variant of revision rev holds, as a list
// and as bits.
func (ts *termSet) holding(rev uint8) ([]termRef, uint16) {
	switch rev {
	case holdBaseline:
		return ts.held[0], ts.heldMask[0]
	case holdCandidate:
		return ts.held[1], ts.heldMask[1]
	case holdLower:
		return ts.held[2], ts.heldMask[2]
	}
	return nil, 0
}

// usesAny reports whether some term uses one of the variables.
func (ts *termSet) usesAny(vars ...int) bool {
	if ts == nil {
		return false
	}
	for _, v := range vars {
		if ts.uses&(1<<v) != 0 {
			return true
		}
	}
	return false
}

// TermField names term i in errors: terms[i] (name), the name quoted when
// it is not a valid name.
func TermField(i int, name string) string {
	if !validTermName(name) {
		name = strconv.Quote(clip(name))
	}
	return "terms[" + strconv.Itoa(i) + "] (" + name + ")"
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

func validTermName(name string) bool {
	if len(name) < 1 || len(name) > maxTermName || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	for i := 1; i < len(name); i++ {
		ch := name[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || ch == '_') {
			return false
		}
	}
	return true
}

// compileTerms validates and compiles terms: nil when there are none.
// Each bad term gives one error naming it.
//
// art compiles them for the art profile (art_terms.go). scope has the hold
// bits of the revisions this config prices with that profile: a term no
// such revision holds is checked by the other profile's config, and is
// kept here, unchecked and held by none, so that indices stay the list's.
func compileTerms(terms []Term, art bool, scope uint8) (*termSet, ErrorList) {
	if len(terms) == 0 {
		return nil, nil
	}
	if len(terms) > MaxTerms {
		return nil, ErrorList{{Field: "terms", Message: "has " + strconv.Itoa(len(terms)) + " terms; at most " + strconv.Itoa(MaxTerms) + " are allowed"}}
	}
	key := string(rune('0'+scope)) + TermsKey(terms)
	if art {
		key = "a" + key
	}
	termCache.Lock()
	for i, k := range termCache.keys {
		if k == key && termCache.sets[i] != nil {
			ts := termCache.sets[i]
			termCache.Unlock()
			return ts, nil
		}
	}
	termCache.Unlock()
	ts, errs := compileTermsOnce(terms, art, scope)
	if ts != nil {
		termCache.Lock()
		termCache.keys[termCache.next], termCache.sets[termCache.next] = key, ts
		termCache.next = (termCache.next + 1) % len(termCache.keys)
		termCache.Unlock()
	}
	return ts, errs
}

// termCache keeps the last few sets of terms compiled, by their text: the
// page resolves the same config at every render, and parsing costs more
// than a whole sweep's pricing of the terms. A termSet never changes once
// compiled, so it is shared.
var termCache struct {
	sync.Mutex
	keys [8]string
	sets [8]*termSet
	next int
}

// TermsKey is a set of terms' content key: the terms written as one
// string, each field prefixed by its length, so that two lists share a
// key exactly when they hold the same terms in the same order. The
// estimator's cache of compiled terms is keyed by it, and so may a
// caller's cache of anything that depends on the terms only.
func TermsKey(terms []Term) string {
	var b strings.Builder
	for _, t := range terms {
		for _, f := range [...]string{t.Name, t.Place, t.Revision, t.Bytes, t.Mode} {
			b.WriteString(strconv.Itoa(len(f)))
			b.WriteByte(':')
			b.WriteString(f)
		}
	}
	return b.String()
}

// uniqueTermName is the name rule across terms, shared by Resolve and
// CheckTerms: seen maps each valid name to the first term that has it; a
// later term i with the same name and no problem of its own (msg empty)
// gets the duplicate-name message. Otherwise msg is returned as it came.
func uniqueTermName(seen map[string]int, i int, name, msg string) string {
	j, dup := seen[name]
	if dup && msg == "" {
		return "the name is already used by terms[" + strconv.Itoa(j) + "]; names must be unique"
	}
	if !dup && validTermName(name) {
		seen[name] = i
	}
	return msg
}

// compileTermsOnce is compileTerms without the cache.
func compileTermsOnce(terms []Term, art bool, scope uint8) (*termSet, ErrorList) {
	var errs ErrorList
	ts := &termSet{art: art}
	seen := map[string]int{}
	for i, t := range terms {
		var ct compiledTerm
		var msg string
		if art {
			ct, msg = compileArtTerm(t, scope)
		} else {
			ct, msg = compileTerm(t, scope)
		}
		field := TermField(i, t.Name)
		msg = uniqueTermName(seen, i, t.Name, msg)
		if msg != "" {
			errs = append(errs, &Error{Field: field, Message: msg})
			continue
		}
		ct.field = field
		if art {
			ts.artRequest = ts.artRequest || ct.uses&artRequestVars != 0
		} else {
			ts.uses |= ct.uses
		}
		ts.terms = append(ts.terms, ct)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	for i, ct := range ts.terms {
		for j, rev := range []uint8{holdBaseline, holdCandidate, holdLower} {
			if ct.holds&rev != 0 {
				ts.held[j] = append(ts.held[j], termRef{uint8(i), ct.place})
				ts.heldMask[j] |= 1 << i
			}
		}
		if ct.place == placeStage {
			ts.own = append(ts.own, uint8(i))
		}
		ok := ct.safe
		if ct.place == placeRetained {
			ok = ct.subadd
		}
		if !ok && !art {
			ts.unsafe |= ct.holds
		}
	}
	return ts, nil
}

// compileTermHead is the start both profiles share: the name, then the
// revisions that hold the term. done is true when nothing more is to be
// checked, because of a problem (msg) or because none of scope's revisions
// holds the term; such a term is kept unchecked, at place idle.
func compileTermHead(t Term, scope uint8, idle int8) (ct compiledTerm, msg string, done bool) {
	if !validTermName(t.Name) {
		return ct, "name must be 1 to 32 characters of a-z, 0-9 and _, starting with a letter, got " + strconv.Quote(clip(t.Name)), true
	}
	ct.name = t.Name
	if ct.holds, msg = termHolds(t.Revision); msg != "" {
		return ct, msg, true
	}
	if ct.holds&scope == 0 {
		ct.holds, ct.place = 0, idle
		return ct, "", true
	}
	return ct, "", false
}

// compileTerm checks one term on its own; msg is its first problem.
func compileTerm(t Term, scope uint8) (ct compiledTerm, msg string) {
	ct, msg, done := compileTermHead(t, scope, placeRetained)
	if done {
		return ct, msg
	}
	switch t.Mode {
	case "", "add":
	case "replace":
		return ct, "mode replace needs profile art: the seeds' stages have no part of ART's price to stand in for; use add"
	default:
		return ct, modeError(t.Mode)
	}
	switch t.Place {
	case "retained":
		ct.place = placeRetained
	case "stage":
		ct.place = placeStage
		for _, s := range append(stageNames[:], "retained") {
			if t.Name == s {
				return ct, "a term with place stage cannot be named " + strconv.Quote(s) + ", the name of a built-in stage; choose another name"
			}
		}
	default:
		found := false
		for s := Stage(0); s < NumStages; s++ {
			if t.Place == stageNames[s] {
				ct.place, found = int8(s), true
			}
		}
		if !found {
			msg := "place must be one of " + strings.Join(TermPlaces, ", ") + ", got " + strconv.Quote(clip(t.Place))
			if isArtPlace(t.Place) {
				msg += "; " + strconv.Quote(t.Place) + " is a part of ART's price, a place under profile art only"
			}
			return ct, msg
		}
	}
	prog, info, uses, msg := compileExpr(t.Bytes)
	if msg != "" {
		return ct, msg
	}
	ct.prog, ct.safe, ct.subadd, ct.uses = prog, info.Safe, info.Subadd, uses
	ct.chain = prog[0].Op == termexpr.OpPush
	for _, in := range prog[1:] {
		ct.chain = ct.chain && in.Src != termexpr.SrcStack && (in.Op == termexpr.OpAdd || in.Op == termexpr.OpMul)
	}
	return ct, ""
}

// termHolds is the hold bits of a term's revision.
func termHolds(rev string) (uint8, string) {
	switch rev {
	case "", "candidate":
		return holdCandidate, ""
	case "baseline":
		return holdBaseline, ""
	case "both":
		return holdBaseline | holdCandidate | holdLower, ""
	}
	return 0, "revision must be one of " + strings.Join(TermRevisions, ", ") + " (default candidate), got " + strconv.Quote(clip(rev))
}

// modeError refuses a mode that is neither add nor replace.
func modeError(mode string) string {
	return "mode must be one of " + strings.Join(TermModes, ", ") + " (default add), got " + strconv.Quote(clip(mode))
}

// compileExpr parses and compiles a term's bytes. msg says what is
// wrong, or is "".
func compileExpr(src string) (prog []termexpr.Instr, info termexpr.Facts, uses uint64, msg string) {
	return termLang.Compile(src)
}
