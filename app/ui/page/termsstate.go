package page

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"headroom/estimator"
	"headroom/estimator/urlquery"
)

// The page's terms (docs/model.md §8): the Changes panel edits a
// list of drafts, each a term as its fields hold it (Typed) and the last
// version of it that checked (Applied), which is what cfg.Terms holds, in
// the drafts' order. A draft whose fields do not check keeps its message
// beside it and its last valid version in the chart (a draft that never
// checked is not in the chart); nothing typed is lost. The drafts slice is
// never changed in place (every edit builds a new one), so a copy of the
// state (clone) may share it.
//
// Choices: a new term starts valid (term_<k>, head, candidate, 0 bytes),
// so adding one changes nothing until its bytes say so; the URL carries
// the drafts as typed (a reload shows what was typed, and a bad term
// comes back marked); a typed term that checks on its own but fails when
// priced (a negative size for some piece) is refused like one that does
// not check, and its last valid version is kept.

// termDraft is one term of the Changes panel.
type termDraft struct {
	Typed   estimator.Term
	Applied estimator.Term
	Has     bool // Applied is in cfg.Terms
	Help    bool // its help is open (the page's, not the URL's)
}

// KeyTerms is the error key of the Changes panel's own message (too many
// terms); term i's message has the key TermKey(i).
const KeyTerms = "terms"

// TermEdit is the edit term i's part sends (part one of name, place,
// revision, bytes: the term's fields in the panel's order) with the text
// it holds.
func TermEdit(part string, i int, text string) Edit {
	return Edit{For: ForTerms, Kind: EditTerm, Key: part + "-" + strconv.Itoa(i), Text: text}
}

// TermKey is the error key of term i's message (id error-term-<i>).
func TermKey(i int) string { return "term-" + strconv.Itoa(i) }

// termIndexOfKey is i of TermKey(i).
func termIndexOfKey(key string) (int, bool) {
	rest, ok := strings.CutPrefix(key, "term-")
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(rest)
	return i, err == nil && i >= 0
}

// EditTerms applies an edit of the Changes panel.
func (s *State) EditTerms(e Edit) {
	if e.Kind == EditTermHelp {
		if i, err := strconv.Atoi(e.Key); err == nil && i >= 0 && i < len(s.Terms) {
			s.Terms = slices.Clone(s.Terms)
			s.Terms[i].Help = !s.Terms[i].Help
		}
		return
	}
	delete(s.InputErr, KeyTerms)
	switch e.Kind {
	case EditTermAdd:
		s.addTerm()
	case EditSwitchTerms:
		s.writeSwitchAsTerms(e.Key)
	case EditTermRemove:
		if i, err := strconv.Atoi(e.Key); err == nil && i >= 0 && i < len(s.Terms) {
			s.Terms = slices.Delete(slices.Clone(s.Terms), i, i+1)
		}
	case EditTerm:
		part, idx, ok := strings.Cut(e.Key, "-")
		i, err := strconv.Atoi(idx)
		if !ok || err != nil || i < 0 || i >= len(s.Terms) {
			return
		}
		s.Terms = slices.Clone(s.Terms)
		t := &s.Terms[i].Typed
		switch part {
		case "name":
			t.Name = e.Text
		case "place":
			t.Place = e.Text
		case "revision":
			t.Revision = e.Text
		case "bytes":
			t.Bytes = e.Text
		case "mode":
			t.Mode = e.Text
			if t.Mode == "add" {
				t.Mode = "" // the default, left out of the address
			}
		}
	}
	s.syncTerms()
}

// addTerm appends a new term, or says why it cannot.
func (s *State) addTerm() {
	if len(s.Terms) >= estimator.MaxTerms {
		s.InputErr[KeyTerms] = "at most " + strconv.Itoa(estimator.MaxTerms) + " terms; remove one to add another"
		return
	}
	used := map[string]bool{}
	for _, d := range s.Terms {
		used[d.Typed.Name] = true
	}
	k := 1
	for used["term_"+strconv.Itoa(k)] {
		k++
	}
	t := estimator.Term{Name: "term_" + strconv.Itoa(k), Place: "head", Revision: "candidate", Bytes: "0"}
	s.Terms = append(slices.Clone(s.Terms), termDraft{Typed: t})
}

// writeSwitchAsTerms turns switch key off and appends the terms that
// price as it did under ART's code (estimator.SwitchTerms), so a reviewer
// starts from a known change. A name already taken gets a number.
func (s *State) writeSwitchAsTerms(key string) {
	ts, err := estimator.SwitchTerms(s.Cfg, key)
	if err != nil {
		s.InputErr[KeyTerms] = "write " + key + " as terms: " + MessageOf(err)
		return
	}
	if len(s.Terms)+len(ts) > estimator.MaxTerms {
		s.InputErr[KeyTerms] = key + " is " + strconv.Itoa(len(ts)) + " terms, and at most " + strconv.Itoa(estimator.MaxTerms) + " fit: remove some to write it"
		return
	}
	used := map[string]bool{}
	for _, d := range s.Terms {
		used[d.Typed.Name] = true
	}
	drafts := slices.Clone(s.Terms)
	for _, t := range ts {
		name := t.Name
		for k := 2; used[name]; k++ {
			name = t.Name + "_" + strconv.Itoa(k)
		}
		used[name] = true
		t.Name = name
		drafts = append(drafts, termDraft{Typed: t})
	}
	s.Terms = drafts
	switch key {
	case "head_eager_workspace":
		s.Cfg.Changes.HeadEagerWorkspace = false
	case "fc2_known_storage":
		s.Cfg.Changes.FC2KnownStorage = false
	case "gdn_early_release":
		s.Cfg.Changes.GDNEarlyRelease = false
	}
}

// syncTerms checks the typed terms, applies those that check and sets
// cfg.Terms; the others get their message (see the file's comment).
func (s *State) syncTerms() {
	for k := range s.InputErr {
		if _, ok := termIndexOfKey(k); ok {
			delete(s.InputErr, k)
		}
	}
	n := len(s.Terms)
	typed := make([]estimator.Term, n)
	for i, d := range s.Terms {
		typed[i] = d.Typed
	}
	bad := map[int]string{}
	for _, e := range estimator.FieldErrors(estimator.CheckTerms(typed)) {
		if i, ok := estimator.TermIndex(e.Field); ok {
			bad[i] = e.Message
		} else {
			s.InputErr[KeyTerms] = e.Message
		}
	}
	type choice struct {
		t      estimator.Term
		in     bool
		bypass bool // t is the typed term, not yet applied
	}
	next := make([]choice, n)
	for i, d := range s.Terms {
		switch {
		case bad[i] == "" && (!d.Has || d.Typed != d.Applied):
			next[i] = choice{d.Typed, true, true}
		case d.Has:
			next[i] = choice{d.Applied, true, false}
		}
	}
	for range n + 1 {
		var list []estimator.Term
		var idx []int
		for i, c := range next {
			if c.in {
				list, idx = append(list, c.t), append(idx, i)
			}
		}
		err := estimator.CheckTerms(list)
		structural := err != nil
		if err == nil {
			probe := s.Cfg
			probe.Terms = list
			_, err = estimate(probe)
		}
		hit := false
		for _, e := range estimator.FieldErrors(err) {
			j, ok := estimator.TermIndex(e.Field)
			if !ok || j >= len(idx) {
				continue
			}
			i := idx[j]
			switch {
			case next[i].bypass: // the typed term: refused, the last valid one kept
				if bad[i] == "" {
					bad[i] = e.Message
				}
				d := s.Terms[i]
				next[i] = choice{d.Applied, d.Has, false}
				hit = true
			case structural: // an old version that no longer fits the others
				if bad[i] == "" {
					bad[i] = e.Message
				}
				next[i].in = false
				hit = true
			}
		}
		if !hit {
			break
		}
	}
	s.Terms = slices.Clone(s.Terms)
	var list []estimator.Term
	for i, c := range next {
		s.Terms[i].Has = c.in
		if c.in {
			s.Terms[i].Applied = c.t
			list = append(list, c.t)
		}
		if m := bad[i]; m != "" {
			s.InputErr[TermKey(i)] = m
		}
	}
	s.Cfg.Terms = list
}

// termErrorKey maps an estimate's error on cfg.Terms[j] to the error key
// of its draft.
func (s *State) termErrorKey(field string) (string, bool) {
	j, ok := estimator.TermIndex(field)
	if !ok {
		return "", false
	}
	for i, d := range s.Terms {
		if d.Has {
			if j == 0 {
				return TermKey(i), true
			}
			j--
		}
	}
	return KeyTerms, true
}

// termsQuery puts the drafts, as typed, in the URL's terms.
func (s *State) termsQuery(q url.Values) {
	q.Del(urlquery.TermKey)
	for _, d := range s.Terms {
		q.Add(urlquery.TermKey, urlquery.EncodeTerm(d.Typed))
	}
}

// decodeTerms reads the URL's terms into drafts: the ones urlquery.Decode
// kept (in cfg.Terms) are applied; each other keeps its text and the
// message errs has for it. Past MaxTerms the rest are left out, and the
// panel says so.
func (s *State) decodeTerms(vals []string, errs estimator.ErrorList) {
	msgs := map[int]string{}
	for _, e := range errs {
		if i, ok := estimator.TermIndex(e.Field); ok {
			msgs[i] = e.Message
		}
	}
	s.Terms = nil
	for i, v := range vals {
		if i == estimator.MaxTerms {
			s.InputErr[KeyTerms] = "the link has " + strconv.Itoa(len(vals)) + " terms; the page keeps the first " + strconv.Itoa(estimator.MaxTerms)
			break
		}
		t, _ := urlquery.DecodeTerm(v)
		d := termDraft{Typed: t}
		if m, bad := msgs[i]; bad {
			s.InputErr[TermKey(i)] = m
		} else {
			d.Applied, d.Has = t, true
		}
		s.Terms = append(s.Terms, d)
	}
	s.Cfg.Terms = nil
	for _, d := range s.Terms {
		if d.Has {
			s.Cfg.Terms = append(s.Cfg.Terms, d.Applied)
		}
	}
	s.dropUnpriced()
}

// dropUnpriced takes out of cfg.Terms, one at a time, each term that the
// estimate names (a negative size for some piece, an overflow), marking
// it: a link's term that cannot be priced must not leave the page with
// nothing valid to show.
func (s *State) dropUnpriced() {
	for range len(s.Terms) {
		err := s.estimateErr()
		i := -1
		for _, e := range estimator.FieldErrors(err) {
			if k, ok := s.termErrorKey(e.Field); ok && k != KeyTerms {
				i, _ = termIndexOfKey(k)
				if _, marked := s.InputErr[k]; !marked {
					s.InputErr[k] = e.Message
				}
				break
			}
		}
		if i < 0 {
			return
		}
		s.Terms[i].Has = false
		s.Cfg.Terms = nil
		for _, d := range s.Terms {
			if d.Has {
				s.Cfg.Terms = append(s.Cfg.Terms, d.Applied)
			}
		}
	}
}
