package ui

// The page's notes: what the stale banner, the blocked panels and the
// Changes panel say about the state, in words.

import (
	"slices"
	"sort"
	"strings"

	"headroom/app/report"
	"headroom/app/ui/page"
	"headroom/estimator"
)

// pick copies the named entries of m.
func pick(m map[string]string, keys ...string) map[string]string {
	out := map[string]string{}
	for _, k := range keys {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	return out
}

// splitNote says what a split means (docs/model.md §4), by the decisions.
const splitNote = "A split runs the request as children of fewer rows, one after another: only one child's " +
	"ephemeral peak is live at a time, but each child's retained bytes (its checkpoints and outputs) stay until " +
	"the backward pass, so they add up over the children."

// staleText says why the results do not follow the inputs, naming the
// marked fields: the chart, decisions and table are the last valid
// state's (valid), or, on a link that never had one, count the marked
// fields at their defaults.
func staleText(s *page.State, valid bool) string {
	fields := markedFields(s)
	msg := "Showing the last valid inputs, greyed: " + fields + " is not what the chart, decisions and table use; fix it to update them."
	if !valid {
		msg = "The chart, decisions and table count " + fields + " at the value this link opens it with (its default), greyed; fix it to use yours."
	}
	if m := s.Errs[page.KeyConfig]; m != "" {
		msg += " (" + m + ")"
	}
	return msg
}

// markedFields names the fields in error, for the notes: "rows",
// "rows and in use (GiB)", "a, b and c".
func markedFields(s *page.State) string {
	var names []string
	for k := range s.Errs {
		if k == page.KeyConfig {
			continue
		}
		names = append(names, controlName(k))
	}
	sort.Strings(names)
	names = slices.Compact(names)
	if len(names) == 0 {
		return "the config"
	}
	return report.JoinAnd(names)
}

// controlName is how the notes name the control of an error key.
func controlName(errKey string) string {
	switch errKey {
	case estimator.KeyInUseBytes:
		return "in use (GiB)"
	case page.KeyFrom:
		return "from"
	case page.KeyTo:
		return "to"
	}
	return errKey
}

// blockedText is what the chart and panels say on a link that never had
// a state to draw: the fields to fix, with their messages.
func blockedText(s *page.State) string {
	keys := make([]string, 0, len(s.Errs))
	for k := range s.Errs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, controlName(k)+" "+s.Errs[k])
	}
	return "Nothing to estimate: fix " + markedFields(s) + ". " + strings.Join(parts, "; ") + "."
}

// changesText names the candidate's switches that are on and act on this
// config; one that is on but changes nothing here (gdn_early_release
// for a model without GDN layers) is named apart, so the panel never
// credits the candidate with a switch that does nothing
// (estimator.ActingChanges, remembered in m; nil: not remembered).
func changesText(cfg estimator.Config, m *actingMemo) string {
	if len(cfg.Changes.On()) == 0 {
		return "no change on: the same as the baseline"
	}
	acting, inertText := actingChanges(cfg, m)
	text := "with " + strings.Join(acting, ", ")
	if len(acting) == 0 {
		text = "no change on acts on this model"
	}
	if inertText != "" {
		text += " (" + inertText + ")"
	}
	return text
}

// actingAnswer is what estimator.ActingChanges says of a config: the
// switches that act on it, and what the page says of those on that do not
// (report.InertText).
type actingAnswer struct {
	acting    []string
	inertText string
}

// actingMemo remembers ActingChanges' answer for the last config: a drag
// renders the same config's panels every frame, and each answer prices
// the config once per switch that is on. The explorer owns one.
type actingMemo = page.Memo[struct{}, actingAnswer]

// actingChanges is estimator.ActingChanges with what the page says of the
// inert switches, remembered in m (nil: not remembered).
func actingChanges(cfg estimator.Config, m *actingMemo) (acting []string, inertText string) {
	a := m.Get(struct{}{}, cfg, func() (a actingAnswer) {
		var inert []string
		a.acting, inert = estimator.ActingChanges(cfg)
		a.inertText = report.InertText(cfg, inert, func(l []string) string { return strings.Join(l, ", ") })
		return a
	})
	return a.acting, a.inertText
}

// switchesText names the switches of ch that are on, without asking
// what they act on: a baseline of its own's.
func switchesText(ch estimator.Changes) string {
	if on := ch.On(); len(on) > 0 {
		return "with " + strings.Join(on, ", ")
	}
	return "no change on"
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
