package page

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"headroom/estimator"
)

// KeyObserved is the observed-peaks panel's control key: its text in
// State.Texts (what was pasted, kept while it is in error, and then
// in the URL under this key so a reload shows it), its message in errs.
const KeyObserved = "observed"

// checkObservedPoints validates points in cfg as the estimator does
// (ranges, at most 64 points, labels of at most 64 bytes, and every
// prediction priced without overflow), naming each bad point by its line.
// Errors of other fields are not the panel's: they are left out.
func checkObservedPoints(cfg estimator.Config, points []estimator.ObservedPoint, lines []int) error {
	cfg.Observed = points
	_, err := estimate(cfg)
	var msgs []string
	for _, e := range estimator.FieldErrors(err) {
		if !strings.HasPrefix(e.Field, "observed") {
			continue
		}
		name := e.Field
		if i, key, ok := pointIndex(e.Field); ok && i < len(lines) {
			name = fmt.Sprintf("line %d (point %d)", lines[i], i+1)
			if key != "" {
				name += " " + key
			}
		}
		msgs = append(msgs, name+" "+e.Message)
	}
	if len(msgs) > 0 {
		return errors.New(strings.Join(msgs, "; "))
	}
	return nil
}

// pointIndex reads "observed[3].peak_bytes" as 3 and "peak_bytes".
func pointIndex(field string) (int, string, bool) {
	rest, ok := strings.CutPrefix(field, "observed[")
	if !ok {
		return 0, "", false
	}
	num, key, ok := strings.Cut(rest, "]")
	if !ok {
		return 0, "", false
	}
	i, err := strconv.Atoi(num)
	return i, strings.TrimPrefix(key, "."), err == nil
}

// SetObserved applies the panel's text: its points replace the config's
// when every line parses and every point is valid; otherwise the text is
// kept as typed with the message, and the config keeps its points. An
// empty text removes the points.
func (s *State) SetObserved(text string) {
	s.Texts[KeyObserved] = text
	delete(s.InputErr, KeyObserved)
	points, lines, err := estimator.ParseObserved(text)
	if err == nil {
		err = checkObservedPoints(s.Cfg, points, lines)
	}
	if err != nil {
		s.InputErr[KeyObserved] = err.Error()
		return
	}
	s.Cfg.Observed = points
	delete(s.Texts, KeyObserved) // the box shows the points as the page reads them
}

// ObservedText is what the panel's box shows: the text in error, else the
// config's points.
func (s *State) ObservedText() string {
	if t, ok := s.Texts[KeyObserved]; ok {
		return t
	}
	return estimator.FormatObserved(s.Cfg.Observed)
}

// linkPointShown is how many of a link's bad observed points the panel's
// message names; the rest are counted.
const linkPointShown = 3

// linkPointErrors puts the errors of a link's observed points (bad obs
// values, which urlquery.Decode left out) beside the panel, in one message:
// the first linkPointShown errors, then how many more and how many bad
// points in all. A crafted link may carry thousands; the message, like
// the work, stays in proportion to the link (rebuilt whole for each
// point, it would be quadratic in their number).
func linkPointErrors(s *State, errs []*estimator.Error) {
	if len(errs) == 0 {
		return
	}
	var b strings.Builder
	points := map[int]bool{}
	for i, e := range errs {
		if p, _, ok := pointIndex(e.Field); ok {
			points[p] = true
		}
		if i < linkPointShown {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString("the link's point " + e.Field + " " + e.Message)
		}
	}
	if more := len(errs) - linkPointShown; more > 0 {
		b.WriteString("; and " + estimator.Group(int64(more)) + " more errors")
	}
	switch n := len(points); {
	case n == 1:
		b.WriteString("; it was left out")
	case n > 1:
		b.WriteString("; " + estimator.Group(int64(n)) + " of the link's points were left out")
	}
	s.InputErr[KeyObserved] = b.String()
}
